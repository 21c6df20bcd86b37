import WayfinderCore

/// The sample app's services: its accounts, which the auth and change-password flows' effects
/// ask, and its mail, which the profile's do (and the accounts, for their codes).
public struct DemoServices: Sendable {
    /// The accounts (sign in, sign up, passwords).
    public let users: UserStore
    /// How long each service takes before it answers (none but for a demonstration).
    public let delay: Duration

    /// The mail sent (codes, the profile's copy of the to-dos): the accounts' mailer.
    public var mailer: Mailer { users.mailer }

    /// The services over `users` (and its mailer), answering after `delay` (to show a busy screen).
    public init(users: UserStore, delay: Duration = .zero) {
        self.users = users
        self.delay = delay
    }

    /// The services as the server runs them.
    public var effects: EffectServices {
        var services = EffectServices()
        services.register(AuthFlow.self, timeout: .seconds(10), retries: 0) { effect, call in
            if self.delay > .zero { try await Task.sleep(for: self.delay) }
            return try self.reply(to: effect, call)
        }
        services.register(ChangePasswordFlow.self, timeout: .seconds(10), retries: 0) { effect, call in
            if self.delay > .zero { try await Task.sleep(for: self.delay) }
            return try self.reply(to: effect, call)
        }
        services.register(ProfileFlow.self, timeout: .seconds(10), retries: 1) { effect, call in
            if self.delay > .zero { try await Task.sleep(for: self.delay) }
            return try self.reply(to: effect, call)
        }
        return services
    }

    /// What the services answer `request`, at once: for tests on the pure engine, which run no
    /// server (the same code as the server's, without its timeout and retries).
    public func complete(_ request: EffectRequest, session: String = "s") -> EffectCompletion {
        let call = EffectCall(session: session, effect: request.effect.id, attempt: 1)
        do {
            switch request.effect.flow {
            case AuthFlow.name:
                let effect = try AuthFlow.Effect.decode(case: request.effect.name, params: request.params)
                return .success(try JSONValueEncoder().encode(try reply(to: effect, call)))
            case ChangePasswordFlow.name:
                let effect = try ChangePasswordFlow.Effect.decode(case: request.effect.name, params: request.params)
                return .success(try JSONValueEncoder().encode(try reply(to: effect, call)))
            case ProfileFlow.name:
                let effect = try ProfileFlow.Effect.decode(case: request.effect.name, params: request.params)
                return .success(try JSONValueEncoder().encode(try reply(to: effect, call)))
            default:
                return .failure(.unavailable("no service for \(request.effect.flow)"))
            }
        } catch {
            return .failure(.unavailable("\(error)"))
        }
    }

    private func reply(to effect: AuthFlow.Effect, _ call: EffectCall) throws -> UserStore.Answer {
        switch effect {
        case .signIn(let email, let password):
            try users.signIn(email: email, password: password.value, session: call.session)
        case .signUp(let name, let email, let password):
            try users.startSignUp(name: name, email: email, password: password.value, key: call.key)
        case .confirmSignUp(let email, let code):
            try users.confirmSignUp(email: email, code: code.value)
        case .unlock(let email, let code, let password):
            try users.unlock(email: email, code: code.value, password: password.value, session: call.session)
        }
    }

    private func reply(to effect: ChangePasswordFlow.Effect, _ call: EffectCall) throws -> UserStore.Answer {
        switch effect {
        case .change(let email, let current, let password):
            try users.changePassword(email: email, current: current.value, new: password.value, session: call.session)
        case .sendCode(let email):
            try users.sendResetCode(email: email, key: call.key)
        case .reset(let email, let code, let password):
            try users.resetPassword(email: email, code: code.value, password: password.value, session: call.session)
        }
    }

    private func reply(to effect: ProfileFlow.Effect, _ call: EffectCall) throws -> Mailer.Receipt {
        switch effect {
        case .emailTodos(let address, let open, let done):
            try mailer.send(
                Mailer.Message(key: call.key, to: address, subject: "Your to-dos", body: "You have \(open) open to-dos and \(done) done."),
                session: call.session)
        }
    }
}
