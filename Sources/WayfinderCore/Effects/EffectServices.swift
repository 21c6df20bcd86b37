/// The services that do an app's effects: one per flow that asks for any, with the timeout and
/// retry policy the app declares. The server runs them off its event loops (``Flow/Effect``).
///
/// ```swift
/// var services = EffectServices()
/// services.register(CheckoutFlow.self, timeout: .seconds(3), retries: 1) { effect, call in
///     switch effect {
///     case .authorise(let amount, let card): try await payments.authorise(amount, card.value, key: call.key)
///     }
/// }
/// ```
public struct EffectServices: Sendable {
    /// One flow's service as the server runs it: its policy, and the service erased to JSON in
    /// and out (the core only records effects; running them is the server's).
    package struct Service: Sendable {
        /// How long one attempt may take.
        package let timeout: Duration
        /// Attempts after the first.
        package let retries: Int
        /// The pause before each retry.
        package let retryDelay: Duration
        /// Decodes the effect case `name` from `params`, performs it, encodes the reply.
        package let perform: @Sendable (_ name: String, _ params: JSONObject, _ call: EffectCall) async throws -> JSONValue
    }

    private var services: [String: Service] = [:]

    /// No services yet; ``register(_:timeout:retries:retryDelay:_:)`` adds one per flow.
    public init() {}

    /// Registers the service that performs the effects of flow `flow`.
    /// - Parameters:
    ///   - timeout: how long one attempt may take; a slower one counts as failed.
    ///   - retries: attempts after the first when one throws or times out.
    ///   - retryDelay: the pause before each retry.
    ///   - perform: does the effect and returns the flow's reply; throwing (after the retries)
    ///     gives the flow ``EffectFailure/unavailable(_:)`` (or ``EffectFailure/timedOut``).
    public mutating func register<F: Flow>(
        _ flow: F.Type, timeout: Duration = .seconds(5), retries: Int = 1, retryDelay: Duration = .milliseconds(200),
        _ perform: @escaping @Sendable (F.Effect, EffectCall) async throws -> F.EffectReply
    ) {
        services[F.name] = Service(
            timeout: timeout, retries: max(0, retries), retryDelay: retryDelay,
            perform: { name, params, call in
                let effect = try F.Effect.decode(case: name, params: params)
                return try JSONValueEncoder().encode(try await perform(effect, call))
            })
    }

    /// The flows with a registered service.
    public var flows: [String] { services.keys.sorted() }

    /// The service of flow `flow`, if one is registered.
    package func service(for flow: String) -> Service? { services[flow] }
}

/// What a service knows of the effect it runs.
public struct EffectCall: Sendable, Hashable {
    /// The session that asked.
    public var session: String
    /// The effect's id in the session (`e3`).
    public var effect: String
    /// 1 for the first try, 2 for the first retry, …
    public var attempt: Int
    /// A key unique to this effect and stable across retries and restarts: pass it to a backend
    /// that deduplicates requests, so a retried effect is not done twice.
    public var key: String { session + "/" + effect }

    /// What the server's effect runner tells a service; an app's tests build one to call a
    /// service directly.
    public init(session: String, effect: String, attempt: Int) {
        self.session = session
        self.effect = effect
        self.attempt = attempt
    }
}

