import WayfinderCore

/// Sign in and sign up, as a bank does it: one answer for every failed sign-in, a sign-up that
/// never says whether an address is taken (a code goes to the address, and the account exists
/// once it is entered), and a locked account unlocked by a code mailed to its owner.
/// Forgot-password runs the shared change-password flow as a child and comes back to the login
/// screen when it finishes. The limits and their times are the account service's.
struct AuthFlow: DemoFlow {
    enum Screen: FlowScreen {
        case login, register
        /// The code sent to `email` creates its account.
        case confirmSignUp(email: String)
        /// `email` is locked; the code mailed to it lifts the lock.
        case unlock(email: String)
        enum CodingKeys: CodingKey, CaseIterable { case login, register, confirmSignUp, unlock }
    }

    enum Route: FlowRoute {
        case login(email: String, password: Secret)
        case register
        case forgotPassword
        case signUp(name: String, email: String, password: Secret)
        case confirmSignUp(code: Secret)
        case unlock(code: Secret, password: Secret)
        enum CodingKeys: CodingKey, CaseIterable { case login, register, forgotPassword, signUp, confirmSignUp, unlock }
    }

    /// The account service (``UserStore``).
    enum Effect: FlowEffect {
        case signIn(email: String, password: Secret)
        case signUp(name: String, email: String, password: Secret)
        case confirmSignUp(email: String, code: Secret)
        case unlock(email: String, code: Secret, password: Secret)
        enum CodingKeys: CodingKey, CaseIterable { case signIn, signUp, confirmSignUp, unlock }
    }
    typealias EffectReply = UserStore.Answer

    /// Every failed sign-in reads the same, whether the address has an account or not.
    static let refused = "That email and password do not match."
    static let throttled = "Too many attempts. Wait a few seconds, then try again."
    static let wrongCode = "That code is not right, or it has expired."

    let children: [any Flow.Type] = [ChangePasswordFlow.self]
    let deepLinks: [DemoLink.Name] = [.signUp]

    func routes(on screen: Screen.Name) -> [Route.Name] {
        switch screen {
        case .login: [.login, .register, .forgotPassword]
        case .register: [.signUp]
        case .confirmSignUp: [.confirmSignUp]
        case .unlock: [.unlock]
        }
    }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.login)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch (route, screen) {
        case (.login(let email, let password), _):
            guard Credentials.isValid(email: email, password: password.value) else {
                return flow.reject(Credentials.rule, keeping: ["email": .string(email)])
            }
            flow.perform(.signIn(email: email, password: password))
        case (.register, _):
            flow.push(.register)
        case (.forgotPassword, _):
            try flow.startChild(ChangePasswordFlow.self, placement: .push)
        case (.signUp(let name, let email, let password), _):
            let kept: JSONObject = ["name": .string(name), "email": .string(email)]
            guard !name.trimmed.isEmpty else { return flow.reject("Enter your name.", keeping: kept) }
            guard Credentials.isValid(email: email, password: password.value) else {
                return flow.reject(Credentials.rule, keeping: kept)
            }
            flow.perform(.signUp(name: name, email: email, password: password))
        case (.confirmSignUp(let code), .confirmSignUp(let email)):
            flow.perform(.confirmSignUp(email: email, code: code))
        case (.unlock(let code, let password), .unlock(let email)):
            flow.perform(.unlock(email: email, code: code, password: password))
        case (.confirmSignUp, _), (.unlock, _):
            return
        }
    }

    func complete(_ effect: Effect, with result: EffectResult<EffectReply>, _ flow: inout FlowContext<Self>) throws {
        let email: String
        var kept: JSONObject = [:]
        switch effect {
        case .signIn(let address, _), .unlock(let address, _, _), .confirmSignUp(let address, _):
            email = address
            if case .signIn = effect { kept = ["email": .string(address)] }
        case .signUp(let name, let address, _):
            email = address
            kept = ["name": .string(name), "email": .string(address)]
        }
        switch result {
        case .success(.signedIn), .success(.registered):
            flow.signIn(email)
            try flow.finish()
        case .success(.codeSent):
            flow.push(.confirmSignUp(email: email))
        case .success(.locked):
            if case .unlock = effect { return flow.reject(Self.wrongCode) }
            flow.push(.unlock(email: email))
        case .success(.refused), .success(.passwordChanged):
            flow.reject(Self.refused, keeping: kept)
        case .success(.throttled):
            flow.reject(Self.throttled, keeping: kept)
        case .success(.wrongCode):
            flow.reject(Self.wrongCode)
        case .failure(let failure):
            flow.reject(Self.failureNotice(failure, effect), keeping: kept)
        }
    }

    /// What the screen says when the account service did not answer.
    private static func failureNotice(_ failure: EffectFailure, _ effect: Effect) -> String {
        let creating: Bool
        switch effect {
        case .signIn, .unlock: creating = false
        case .signUp, .confirmSignUp: creating = true
        }
        if case .interrupted = failure {
            return creating
                ? "The server restarted before your account was created: enter your password again."
                : "The server restarted before you were signed in: enter your password again."
        }
        return creating
            ? "Creating the account is not possible right now. Try again in a moment."
            : "Signing in is not possible right now. Try again in a moment."
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
        case .confirmSignUp(let email):
            ScreenContent(
                title: "Confirm your address",
                components: [.heading("Check your mail"), .text("We sent a code to \(email). Enter it to create your account.")]
                    + flow.noticeComponents + [
                        .field(name: "code", label: "Code", value: "", kind: .text),
                        flow.button("Create account", submitting: .confirmSignUp),
                    ])
        case .unlock(let email):
            ScreenContent(
                title: "Account locked",
                components: [
                    .heading("Too many attempts"),
                    .text("Signing in as \(email) is locked. If the address has an account, we sent it a code that unlocks it."),
                ] + flow.noticeComponents + [
                    .field(name: "code", label: "Code", value: "", kind: .text),
                    .field(name: "password", label: "Password", value: "", kind: .password),
                    flow.button("Unlock and sign in", submitting: .unlock),
                ])
        }
    }
}
