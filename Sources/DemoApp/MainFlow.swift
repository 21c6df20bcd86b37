import WayfinderCore

/// The main tab bar: a container with one coordinator per tab. Logging out from the profile
/// tab finishes it, and the application coordinator decides again. Logging out forgets what
/// was the user's: who they are and their to-dos (the next user starts with the samples).
struct MainFlow: DemoFlow {
    let tabs = [
        TabSpec(id: "home", title: "Home", icon: "house", flow: HomeFlow.self),
        TabSpec(id: "todos", title: "To-dos", icon: "checklist", flow: TodosFlow.self),
        TabSpec(id: "profile", title: "Profile", icon: "person", flow: ProfileFlow.self),
    ]

    func start(_ flow: inout FlowContext<Self>) throws {
        try flow.showTabs(tabs, selected: "home")
    }

    func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws {
        guard child.result(of: ProfileFlow.self) == .logout else { return }
        flow.context.authenticated = false
        flow.context.user = nil
        flow.model = TodoList()
        try flow.finish()
    }

    func openDeepLink(_ link: DemoLink, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
        switch link {
        case .profile, .changePassword: try flow.offer(link, to: ProfileFlow.self) ?? .declined
        case .todos, .newTodo, .todo, .signUp: try flow.offer(link, to: TodosFlow.self) ?? .declined
        }
    }
}

/// The home tab: a dashboard of open to-dos; opening one jumps to it in the to-dos tab.
struct HomeFlow: DemoFlow {
    enum Screen: FlowScreen {
        case dashboard
        enum CodingKeys: CodingKey, CaseIterable { case dashboard }
    }

    enum Route: FlowRoute {
        case openTodo(id: String)
        enum CodingKeys: CodingKey, CaseIterable { case openTodo }
    }

    func routes(on screen: Screen.Name) -> [Route.Name] { [.openTodo] }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.dashboard)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .openTodo(let id):
            guard flow.model[id] != nil else { throw NavigationError.invalidParam("id", "no to-do has id '\(id)'") }
            // Exactly what the deep link does: same stack, same transitions.
            try flow.openDeepLink(.todo(id: id))
        }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        let open = flow.model.todos.filter { !$0.completed }
        var components: [Component] = [.heading("Hello, \(flow.context.user ?? "there")")]
        if open.isEmpty {
            components.append(.text("Nothing left to do."))
        } else {
            components.append(.text(open.count == 1 ? "1 open to-do" : "\(open.count) open to-dos"))
            components.append(.list(open.map { todo in
                .init(id: todo.id, title: todo.title, subtitle: todo.description, action: flow.action(.openTodo(id: todo.id)))
            }))
        }
        return ScreenContent(title: "Home", components: components)
    }
}
