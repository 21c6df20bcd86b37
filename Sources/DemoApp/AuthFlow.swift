import WayfinderCore

/// Sign in and sign up. Forgot-password runs the shared change-password flow as a child and
/// comes back to the login screen when it finishes.
struct AuthFlow: DemoFlow {
    enum Screen: FlowScreen {
        case login, register
        enum CodingKeys: CodingKey, CaseIterable { case login, register }
    }

    enum Route: FlowRoute {
        case login(email: String, password: String)
        case register
        case forgotPassword
        case signUp(name: String, email: String, password: String)
        enum CodingKeys: CodingKey, CaseIterable { case login, register, forgotPassword, signUp }
    }

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
            guard Credentials.isValid(email: email, password: password) else {
                return flow.reject(Credentials.rule, keeping: ["email": .string(email)])
            }
            flow.signIn(email)
            try flow.finish()
        case .register:
            flow.push(.register)
        case .forgotPassword:
            try flow.startChild(ChangePasswordFlow.self, placement: .push)
        case .signUp(let name, let email, let password):
            let kept: JSONObject = ["name": .string(name), "email": .string(email)]
            guard !name.trimmed.isEmpty else { return flow.reject("Enter your name.", keeping: kept) }
            guard Credentials.isValid(email: email, password: password) else {
                return flow.reject(Credentials.rule, keeping: kept)
            }
            flow.signIn(email)
            try flow.finish()
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
