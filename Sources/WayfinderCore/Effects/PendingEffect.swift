/// An effect a flow asked for and that has no result yet: part of the session's state, stored
/// with it in the same atomic step, so it survives a restart and is resumed.
public struct PendingEffect: Sendable, Hashable, Codable {
    /// `e1`, `e2`, …: unique within the session.
    public var id: String
    /// The coordinator that asked, and its flow.
    public var coordinator: String
    /// The flow the coordinator runs: its registered service runs the effect.
    public var flow: String
    /// The screen that asked (it shows as busy until the result), if the flow asked from one.
    public var screen: String?
    /// The effect's case name.
    public var name: String
    /// Its labelled values, without the ``Secret`` ones.
    public var params: JSONObject
    /// The names of the values withheld because they are ``Secret``s.
    public var secrets: [String]

    /// A pending effect as the engine records it when a flow calls ``FlowContext/perform(_:)``.
    public init(
        id: String, coordinator: String, flow: String, screen: String?, name: String, params: JSONObject, secrets: [String] = []
    ) {
        self.id = id
        self.coordinator = coordinator
        self.flow = flow
        self.screen = screen
        self.name = name
        self.params = params
        self.secrets = secrets
    }
}

/// An effect to run, as a reduction asks for it: the pending effect and the values it was
/// asked with, secrets included (they live in memory only, for the run that follows).
public struct EffectRequest: Sendable, Hashable {
    /// The effect as the state keeps it (secrets withheld).
    public var effect: PendingEffect
    /// Every labelled value, secrets included.
    public var params: JSONObject

    /// The request for `effect`, with every value it was asked with.
    public init(effect: PendingEffect, params: JSONObject) {
        self.effect = effect
        self.params = params
    }
}

/// The result of a pending effect as the engine takes it back: the reply as JSON (the flow's
/// `EffectReply`, encoded), or the failure.
public enum EffectCompletion: Sendable, Hashable {
    /// The service's reply, encoded as JSON.
    case success(JSONValue)
    /// Why there is no reply.
    case failure(EffectFailure)
}
