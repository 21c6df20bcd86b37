import WayfinderCore

/// The profile tab: change password (the shared flow, pushed here), a copy of the to-dos by mail
/// (an effect: the team's mail service), and log out.
struct ProfileFlow: DemoFlow {
    enum Screen: FlowScreen {
        case profile
        enum CodingKeys: CodingKey, CaseIterable { case profile }
    }

    enum Route: FlowRoute {
        case changePassword, emailTodos, logout
        enum CodingKeys: CodingKey, CaseIterable { case changePassword, emailTodos, logout }
    }

    /// The mail service: a summary of the to-dos to the signed-in address, the only one it is
    /// ever sent to (the context's `user`, which only the server sets: after the account service
    /// checked the password, or from the session's verified identity). The mailer limits how
    /// often.
    enum Effect: FlowEffect {
        case emailTodos(to: String, open: Int, done: Int)
        enum CodingKeys: CodingKey, CaseIterable { case emailTodos }
    }
    typealias EffectReply = Mailer.Receipt

    /// What the profile finishes with: its parent signs the user out.
    enum Result: String, Codable, Sendable { case logout }

    let children: [any Flow.Type] = [ChangePasswordFlow.self]
    let deepLinks: [DemoLink.Name] = [.profile, .changePassword]

    func routes(on screen: Screen.Name) -> [Route.Name] { [.changePassword, .emailTodos, .logout] }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.profile)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .changePassword: try flow.startChild(ChangePasswordFlow.self, placement: .push)
        case .emailTodos:
            guard flow.context.authenticated, let user = flow.context.user else { return flow.showNotice(Notice(.error, "Sign in to get your to-dos by mail.")) }
            let done = flow.model.todos.filter(\.completed).count
            flow.perform(.emailTodos(to: user, open: flow.model.todos.count - done, done: done))
        case .logout: try flow.finish(.logout)
        }
    }

    func complete(_ effect: Effect, with result: EffectResult<EffectReply>, _ flow: inout FlowContext<Self>) throws {
        guard case .emailTodos(let address, let open, _) = effect else { return }
        switch result {
        case .success(.limited):
            flow.showNotice(Notice(.error, "You asked for your to-dos by mail often today: try again tomorrow."))
        case .success:
            flow.showNotice(Notice(.success, "Your to-dos (\(open) open) are on their way to \(address)."))
        case .failure:
            flow.showNotice(Notice(.error, "The mail could not be sent. Try again in a moment."))
        }
    }

    func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws {
        // Back to the screen that started it; nothing to do if the user already backed out.
        if case .finished = child.reason { try flow.popToOwnTop() }
    }

    func openDeepLink(_ link: DemoLink, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
        switch link {
        case .profile:
            try flow.reset()
        case .changePassword:
            try flow.reset()
            try flow.startChild(ChangePasswordFlow.self, placement: .push)
        case .todos, .newTodo, .todo, .signUp:
            return .declined
        }
        return .opened
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        let user = flow.context.user ?? ""
        return ScreenContent(
            title: "Profile",
            components: [
                .heading(user.isEmpty ? "Your profile" : user),
                .text("Signed in as \(user)."),
            ] + flow.noticeComponents + [
                flow.button("Email me my to-dos", .secondary, route: .emailTodos),
                flow.button("Change password", .secondary, route: .changePassword),
                flow.button("Log out", .destructive, route: .logout),
            ])
    }
}
