import WayfinderCore

/// The application coordinator: the launch instructor. It owns no screen; it picks the first
/// flow from the context and decides again whenever that flow finishes.
struct AppFlow: Flow {
    let name = "app"
    let isContainer = true
    let routes: [RouteSpec] = []
    let children = ["onboarding", "auth", "main"]

    func start(_ context: inout FlowContext, option: JSONValue) throws {
        try launch(&context)
    }

    func childDidFinish(_ child: FinishedChild, _ context: inout FlowContext) throws {
        // The child updated the context (onboarded, signed in, signed out); decide again.
        try launch(&context)
    }

    private func launch(_ context: inout FlowContext) throws {
        let flow = !context.isOnboarded ? "onboarding" : !context.isAuthenticated ? "auth" : "main"
        try context.startChild(flow, placement: .root)
    }

    func openDeepLink(_ link: DeepLink, _ context: inout FlowContext) throws -> DeepLinkOutcome {
        if link.pattern == "signup" {
            if context.isAuthenticated { return .ignored }
            guard let auth = context.child(running: "auth") else { return .deferred }
            return try context.offer(link, to: auth)
        }
        // Everything else leads into main: check it names something real before keeping it.
        guard TodoList.linkTargetExists(link, in: context.model) else { throw NavigationError.unknownDeepLink(link.url) }
        guard let main = context.child(running: "main") else { return .deferred }
        return try context.offer(link, to: main)
    }
}
