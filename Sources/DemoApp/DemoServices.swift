import WayfinderCore

/// The sample app's services: its accounts, which the auth flow's effects ask, and its mail,
/// which the profile's do.
public struct DemoServices: Sendable {
    /// The accounts (sign in, sign up).
    public let users: UserStore
    /// The mail sent (the profile's copy of the to-dos).
    public let mailer: Mailer
    /// How long each service takes before it answers (none but for a demonstration).
    public let delay: Duration

    /// The services over `users` and `mailer`, answering after `delay` (to show a busy screen).
    public init(users: UserStore, mailer: Mailer = Mailer(), delay: Duration = .zero) {
        self.users = users
        self.mailer = mailer
        self.delay = delay
    }

    /// The services as the server runs them.
    public var effects: EffectServices {
        var services = EffectServices()
        services.register(AuthFlow.self, timeout: .seconds(10), retries: 0) { effect, _ in
            if self.delay > .zero { try await Task.sleep(for: self.delay) }
            return try self.reply(to: effect)
        }
        services.register(ProfileFlow.self, timeout: .seconds(10), retries: 1) { effect, call in
            if self.delay > .zero { try await Task.sleep(for: self.delay) }
            return try self.reply(to: effect, key: call.key)
        }
        return services
    }

    /// What the services answer `request`, at once: for tests on the pure engine, which run no
    /// server (the same code as the server's, without its timeout and retries).
    public func complete(_ request: EffectRequest, session: String = "s") -> EffectCompletion {
        do {
            switch request.effect.flow {
            case AuthFlow.name:
                let effect = try AuthFlow.Effect.decode(case: request.effect.name, params: request.params)
                return .success(try JSONValueEncoder().encode(try reply(to: effect)))
            case ProfileFlow.name:
                let effect = try ProfileFlow.Effect.decode(case: request.effect.name, params: request.params)
                return .success(try JSONValueEncoder().encode(try reply(to: effect, key: session + "/" + request.effect.id)))
            default:
                return .failure(.unavailable("no service for \(request.effect.flow)"))
            }
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

    private func reply(to effect: ProfileFlow.Effect, key: String) throws -> Mailer.Receipt {
        switch effect {
        case .emailTodos(let address, let open, let done):
            try mailer.send(Mailer.Message(
                key: key, to: address, subject: "Your to-dos",
                body: "You have \(open) open to-dos and \(done) done."))
        }
    }
}
