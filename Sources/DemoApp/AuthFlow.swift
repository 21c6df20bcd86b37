import WayfinderCore

/// Sign in and sign up. Forgot-password runs the shared change-password flow as a child and
/// comes back to the login screen when it finishes.
struct AuthFlow: DemoFlow {
    enum Screen: FlowScreen {
        case login, register
        enum CodingKeys: CodingKey, CaseIterable { case login, register }
    }

    enum Route: FlowRoute {
        case login(email: String, password: Secret)
        case register
        case forgotPassword
        case signUp(name: String, email: String, password: Secret)
        enum CodingKeys: CodingKey, CaseIterable { case login, register, forgotPassword, signUp }
    }

    /// The account service: a registered address must give its password; an address with no
    /// account signs in as any other (the contract's sample rule).
    enum Effect: FlowEffect {
        case signIn(email: String, password: Secret)
        case signUp(name: String, email: String, password: Secret)
        enum CodingKeys: CodingKey, CaseIterable { case signIn, signUp }
    }
    typealias EffectReply = UserStore.Answer

    let children: [any Flow.Type] = [ChangePasswordFlow.self]
    let deepLinks: [DemoLink.Name] = [.signUp]

    func routes(on screen: Screen.Name) -> [Route.Name] {
        switch screen {
        case .login: [.login, .register, .forgotPassword]
        case .register: [.signUp]
        }
    }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.login)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .login(let email, let password):
            guard Credentials.isValid(email: email, password: password.value) else {
                return flow.reject(Credentials.rule, keeping: ["email": .string(email)])
            }
            flow.perform(.signIn(email: email, password: password))
        case .register:
            flow.push(.register)
        case .forgotPassword:
            try flow.startChild(ChangePasswordFlow.self, placement: .push)
        case .signUp(let name, let email, let password):
            let kept: JSONObject = ["name": .string(name), "email": .string(email)]
            guard !name.trimmed.isEmpty else { return flow.reject("Enter your name.", keeping: kept) }
            guard Credentials.isValid(email: email, password: password.value) else {
                return flow.reject(Credentials.rule, keeping: kept)
            }
            flow.perform(.signUp(name: name, email: email, password: password))
        }
    }

    func complete(_ effect: Effect, with result: EffectResult<EffectReply>, _ flow: inout FlowContext<Self>) throws {
        switch (effect, result) {
        case (.signIn(let email, _), .success(.signedIn)), (.signIn(let email, _), .success(.unknownAddress)),
            (.signUp(_, let email, _), .success(.registered)):
            flow.signIn(email)
            try flow.finish()
        case (.signIn(let email, _), .success(.wrongPassword)):
            flow.reject("That is not the password of this account.", keeping: ["email": .string(email)])
        case (.signUp(let name, let email, _), .success(.addressTaken)):
            flow.reject("This address already has an account: sign in instead.", keeping: ["name": .string(name), "email": .string(email)])
        case (.signIn(let email, _), .failure(.interrupted)):
            flow.reject("The server restarted before you were signed in: enter your password again.", keeping: ["email": .string(email)])
        case (.signUp(let name, let email, _), .failure(.interrupted)):
            flow.reject(
                "The server restarted before your account was created: enter your password again.",
                keeping: ["name": .string(name), "email": .string(email)])
        case (.signIn(let email, _), _):
            flow.reject("Signing in is not possible right now. Try again in a moment.", keeping: ["email": .string(email)])
        case (.signUp(let name, let email, _), _):
            flow.reject(
                "Creating the account is not possible right now. Try again in a moment.",
                keeping: ["name": .string(name), "email": .string(email)])
        }
    }

    func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws {
        if case .finished = child.reason { try flow.popToOwnTop() }
    }

    func openDeepLink(_ link: DemoLink, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
        guard link == .signUp else { return .declined }
        try flow.reset(pushing: [.register])
        return .opened
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        switch screen {
        case .login:
            ScreenContent(
                title: "Sign in",
                components: [.heading("Welcome back")] + flow.noticeComponents + [
                    .field(name: "email", label: "Email", value: flow.formString("email"), kind: .email),
                    .field(name: "password", label: "Password", value: "", kind: .password),
                    flow.button("Sign in", submitting: .login),
                    flow.button("Create account", .secondary, route: .register),
                    flow.button("Forgot password?", .link, route: .forgotPassword),
                ])
        case .register:
            ScreenContent(
                title: "Create account",
                components: [.heading("Create your account")] + flow.noticeComponents + [
                    .field(name: "name", label: "Name", value: flow.formString("name"), kind: .text),
                    .field(name: "email", label: "Email", value: flow.formString("email"), kind: .email),
                    .field(name: "password", label: "Password", value: "", kind: .password),
                    flow.button("Sign up", submitting: .signUp),
                ])
        }
    }
}
