import WayfinderCore

/// The sample app's services: its accounts, which the auth flow's effects ask.
public struct DemoServices: Sendable {
    /// The accounts that sign-in and sign-up check and create.
    public let users: UserStore
    /// How long the service takes before it answers (none but for a demonstration).
    public let delay: Duration

    /// The services over `users`, answering after `delay` (to show a busy screen).
    public init(users: UserStore, delay: Duration = .zero) {
        self.users = users
        self.delay = delay
    }

    /// The services as the server runs them.
    public var effects: EffectServices {
        var services = EffectServices()
        services.register(AuthFlow.self, timeout: .seconds(10), retries: 0) { effect, _ in
            if self.delay > .zero { try await Task.sleep(for: self.delay) }
            return try self.reply(to: effect)
        }
        return services
    }

    /// What the services answer `request`, at once: for tests on the pure engine, which run no
    /// server (the same code as the server's, without its timeout and retries).
    public func complete(_ request: EffectRequest) -> EffectCompletion {
        guard request.effect.flow == AuthFlow.name else { return .failure(.unavailable("no service for \(request.effect.flow)")) }
        do {
            let effect = try AuthFlow.Effect.decode(case: request.effect.name, params: request.params)
            return .success(try JSONValueEncoder().encode(try reply(to: effect)))
        } catch {
            return .failure(.unavailable("\(error)"))
        }
    }

    private func reply(to effect: AuthFlow.Effect) throws -> UserStore.Answer {
        switch effect {
        case .signIn(let email, let password): users.signIn(email: email, password: password.value)
        case .signUp(let name, let email, let password): try users.signUp(name: name, email: email, password: password.value)
        }
    }
}
