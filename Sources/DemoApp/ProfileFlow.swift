import WayfinderCore

/// The profile tab: change password (the shared flow, pushed here) and log out.
struct ProfileFlow: DemoFlow {
    enum Screen: FlowScreen {
        case profile
        enum CodingKeys: CodingKey, CaseIterable { case profile }
    }

    enum Route: FlowRoute {
        case changePassword, logout
        enum CodingKeys: CodingKey, CaseIterable { case changePassword, logout }
    }

    /// What the profile finishes with: its parent signs the user out.
    enum Result: String, Codable, Sendable { case logout }

    let children: [any Flow.Type] = [ChangePasswordFlow.self]
    let deepLinks: [DemoLink.Name] = [.profile, .changePassword]

    func routes(on screen: Screen.Name) -> [Route.Name] { [.changePassword, .logout] }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.profile)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .changePassword: try flow.startChild(ChangePasswordFlow.self, placement: .push)
        case .logout: try flow.finish(.logout)
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
                flow.button("Change password", .secondary, route: .changePassword),
                flow.button("Log out", .destructive, route: .logout),
            ])
    }
}
