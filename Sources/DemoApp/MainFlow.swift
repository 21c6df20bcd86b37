import WayfinderCore

/// The main tab bar: a container with one coordinator per tab. Logging out from the profile
/// tab finishes it, and the application coordinator decides again.
struct MainFlow: Flow {
    let name = "main"
    let isContainer = true
    let routes: [RouteSpec] = []
    let children = ["home", "todos", "profile"]

    static let tabs = [
        TabSpec(id: "home", title: "Home", icon: "house", flow: "home"),
        TabSpec(id: "todos", title: "To-dos", icon: "checklist", flow: "todos"),
        TabSpec(id: "profile", title: "Profile", icon: "person", flow: "profile"),
    ]

    func start(_ context: inout FlowContext, option: JSONValue) throws {
        try context.showTabs(Self.tabs, selected: "home")
    }

    func childDidFinish(_ child: FinishedChild, _ context: inout FlowContext) throws {
        guard child.flow == "profile", child.reason == .finished("logout") else { return }
        context.context["authenticated"] = false
        context.context["user"] = .null
        try context.finish()
    }

    func openDeepLink(_ link: DeepLink, _ context: inout FlowContext) throws -> DeepLinkOutcome {
        let tab = link.pattern.hasPrefix("profile") ? "profile" : "todos"
        guard let child = context.child(running: tab) else { return .declined }
        return try context.offer(link, to: child)
    }
}

/// The home tab: a dashboard of open to-dos; opening one jumps to it in the to-dos tab.
struct HomeFlow: Flow {
    let name = "home"
    let screens = ["dashboard"]
    let routes = [RouteSpec("openTodo", params: [ParamSpec("id")], on: ["dashboard"])]

    func start(_ context: inout FlowContext, option: JSONValue) throws {
        context.show("dashboard")
    }

    func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws {
        let id = route.string("id") ?? ""
        guard context.todoList[id] != nil else { throw NavigationError.invalidParam("id", "no to-do has id '\(id)'") }
        // Exactly what the deep link does: same stack, same transitions.
        try context.openDeepLink("wayfinder://todos/\(id)")
    }

    func render(_ screen: ScreenInstance, _ context: FlowContext) -> ScreenContent {
        let open = context.todoList.todos.filter { !$0.completed }
        let user = context.context["user"]?.stringValue ?? "there"
        var components: [Component] = [.heading("Hello, \(user)")]
        if open.isEmpty {
            components.append(.text("Nothing left to do."))
        } else {
            components.append(.text(open.count == 1 ? "1 open to-do" : "\(open.count) open to-dos"))
            components.append(.list(open.map { todo in
                .init(id: todo.id, title: todo.title, subtitle: todo.description, checked: false,
                      action: .init("openTodo", params: ["id": .string(todo.id)]))
            }))
        }
        return ScreenContent(title: "Home", components: components)
    }
}
