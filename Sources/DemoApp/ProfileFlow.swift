import WayfinderCore

/// The profile tab: change password (the shared flow, pushed here) and log out.
struct ProfileFlow: Flow {
    let name = "profile"
    let screens = ["profile"]
    let children = ["changePassword"]
    let routes = [
        RouteSpec("changePassword", on: ["profile"]),
        RouteSpec("logout", on: ["profile"]),
    ]

    func start(_ context: inout FlowContext, option: JSONValue) throws {
        context.show("profile")
    }

    func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws {
        switch route.name {
        case "changePassword": try context.startChild("changePassword", placement: .push)
        case "logout": try context.finish("logout")
        default: break
        }
    }

    func childDidFinish(_ child: FinishedChild, _ context: inout FlowContext) throws {
        // Back to the screen that started it; nothing to do if the user already backed out.
        if case .finished = child.reason { try context.popToOwnTop() }
    }

    func openDeepLink(_ link: DeepLink, _ context: inout FlowContext) throws -> DeepLinkOutcome {
        switch link.pattern {
        case "profile":
            try context.reset()
        case "profile/password":
            try context.reset()
            try context.startChild("changePassword", placement: .push)
        default:
            return .declined
        }
        return .opened
    }

    func render(_ screen: ScreenInstance, _ context: FlowContext) -> ScreenContent {
        let user = context.context["user"]?.stringValue ?? ""
        return ScreenContent(
            title: "Profile",
            components: [
                .heading(user.isEmpty ? "Your profile" : user),
                .text("Signed in as \(user)."),
                .button("Change password", .secondary, route: "changePassword"),
                .button("Log out", .destructive, route: "logout"),
            ])
    }
}
