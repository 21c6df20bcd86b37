import WayfinderCore

/// Sign in and sign up. Forgot-password runs the shared change-password flow as a child and
/// comes back to the login screen when it finishes.
struct AuthFlow: Flow {
    let name = "auth"
    let screens = ["login", "register"]
    let children = ["changePassword"]
    let routes = [
        RouteSpec("login", params: [ParamSpec("email"), ParamSpec("password")], on: ["login"]),
        RouteSpec("register", on: ["login"]),
        RouteSpec("forgotPassword", on: ["login"]),
        RouteSpec("signUp", params: [ParamSpec("name"), ParamSpec("email"), ParamSpec("password")], on: ["register"]),
    ]

    func start(_ context: inout FlowContext, option: JSONValue) throws {
        context.show("login")
    }

    func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws {
        switch route.name {
        case "login":
            let email = route.string("email") ?? "", password = route.string("password") ?? ""
            guard Credentials.isValidEmail(email), Credentials.isValidPassword(password) else {
                return context.reject(screen, Credentials.rule, keeping: ["email": .string(email)])
            }
            context.signIn(email)
            try context.finish()
        case "register":
            context.push("register")
        case "forgotPassword":
            try context.startChild("changePassword", placement: .push)
        case "signUp":
            let name = route.string("name") ?? "", email = route.string("email") ?? ""
            let password = route.string("password") ?? ""
            let kept: JSONObject = ["name": .string(name), "email": .string(email)]
            guard !name.trimmed.isEmpty else { return context.reject(screen, "Enter your name.", keeping: kept) }
            guard Credentials.isValidEmail(email), Credentials.isValidPassword(password) else {
                return context.reject(screen, Credentials.rule, keeping: kept)
            }
            context.signIn(email)
            try context.finish()
        default:
            break
        }
    }

    func childDidFinish(_ child: FinishedChild, _ context: inout FlowContext) throws {
        if case .finished = child.reason { try context.popToOwnTop() }
    }

    func openDeepLink(_ link: DeepLink, _ context: inout FlowContext) throws -> DeepLinkOutcome {
        guard link.pattern == "signup" else { return .declined }
        try context.reset(pushing: [("register", [:])])
        return .opened
    }

    func render(_ screen: ScreenInstance, _ context: FlowContext) -> ScreenContent {
        switch screen.name {
        case "register":
            return ScreenContent(
                title: "Create account",
                components: [.heading("Create your account")] + screen.noticeComponents + [
                    .field(name: "name", label: "Name", value: screen.formString("name"), kind: .text),
                    .field(name: "email", label: "Email", value: screen.formString("email"), kind: .email),
                    .field(name: "password", label: "Password", value: "", kind: .password),
                    .button("Sign up", .primary, route: "signUp", submit: true),
                ])
        default:
            return ScreenContent(
                title: "Sign in",
                components: [.heading("Welcome back")] + screen.noticeComponents + [
                    .field(name: "email", label: "Email", value: screen.formString("email"), kind: .email),
                    .field(name: "password", label: "Password", value: "", kind: .password),
                    .button("Sign in", .primary, route: "login", submit: true),
                    .button("Create account", .secondary, route: "register"),
                    .button("Forgot password?", .link, route: "forgotPassword"),
                ])
        }
    }
}
