import WayfinderCore

/// The to-do list (MVVM-C): list, add sheet, detail with update and delete.
struct TodosFlow: Flow {
    let name = "todos"
    let screens = ["todoList", "todoAdd", "todoDetail"]
    let routes = [
        RouteSpec("addTodo", on: ["todoList"]),
        RouteSpec("showTodo", params: [ParamSpec("id")], on: ["todoList"]),
        RouteSpec("saveTodo", params: [ParamSpec("title"), ParamSpec("description", required: false)], on: ["todoAdd"]),
        RouteSpec("cancel", on: ["todoAdd"]),
        RouteSpec(
            "updateTodo",
            params: [ParamSpec("title"), ParamSpec("description", required: false), ParamSpec("completed", .boolean, required: false)],
            on: ["todoDetail"]),
        RouteSpec("deleteTodo", on: ["todoDetail"]),
    ]

    func start(_ context: inout FlowContext, option: JSONValue) throws {
        context.show("todoList")
    }

    /// The app's own limits: past them the form shows a notice, like its other validation.
    static let maxTitle = 200, maxDescription = 2000, maxTodos = 200

    /// What is wrong with a to-do's title and description, as the notice says it; nil if nothing.
    static func notice(title: String, description: String) -> String? {
        if title.trimmed.isEmpty { return "Give the to-do a title." }
        if title.count > maxTitle { return "A title can have at most \(maxTitle) characters." }
        if description.count > maxDescription { return "A description can have at most \(maxDescription) characters." }
        return nil
    }

    /// The form kept on a refused to-do: what was typed, cut at the limits (a refused title
    /// never makes the session larger than an accepted one).
    static func kept(title: String, description: String) -> JSONObject {
        ["title": .string(String(title.prefix(maxTitle))), "description": .string(String(description.prefix(maxDescription)))]
    }

    /// A sheet on tablet and web, full screen on phone (the articles' iPad case).
    private func addStyle(_ context: FlowContext) -> ModalStyle { context.platform == "phone" ? .fullScreen : .sheet }

    func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws {
        // The list is decoded from the model only by the routes that use it.
        switch route.name {
        case "addTodo":
            context.present("todoAdd", style: addStyle(context))
        case "cancel":
            try context.dismiss()
        case "saveTodo":
            let title = route.string("title") ?? "", description = route.string("description") ?? ""
            var list = context.todoList
            let full = list.todos.count >= Self.maxTodos ? "The list holds at most \(Self.maxTodos) to-dos; delete one first." : nil
            if let notice = full ?? Self.notice(title: title, description: description) {
                return context.reject(screen, notice, keeping: Self.kept(title: title, description: description))
            }
            list.add(title: title.trimmed, description: description)
            context.todoList = list
            try context.dismiss()
        case "showTodo":
            let id = route.string("id") ?? ""
            guard context.todoList[id] != nil else { throw NavigationError.invalidParam("id", "no to-do has id '\(id)'") }
            context.push("todoDetail", params: ["id": .string(id)])
        case "updateTodo":
            var list = context.todoList
            guard var todo = list[screen.param("id")?.stringValue ?? ""] else {
                throw NavigationError.invalidParam("id", "this to-do no longer exists")
            }
            let title = route.string("title") ?? "", description = route.string("description") ?? ""
            if let notice = Self.notice(title: title, description: description) {
                var kept = Self.kept(title: title, description: description)
                if let completed = route.bool("completed") { kept["completed"] = .bool(completed) }
                return context.reject(screen, notice, keeping: kept)
            }
            todo.title = title.trimmed
            todo.description = description
            todo.completed = route.bool("completed") ?? todo.completed
            list.update(todo)
            context.todoList = list
            try context.pop()
        case "deleteTodo":
            var list = context.todoList
            list.remove(screen.param("id")?.stringValue ?? "")
            context.todoList = list
            try context.pop()
        default:
            break
        }
    }

    func openDeepLink(_ link: DeepLink, _ context: inout FlowContext) throws -> DeepLinkOutcome {
        switch link.pattern {
        case "todos":
            try context.reset()
        case "todos/new":
            try context.reset()
            context.present("todoAdd", style: addStyle(context))
        case "todos/{id}":
            let id = link.params["id"] ?? ""
            guard context.todoList[id] != nil else { throw NavigationError.unknownDeepLink(link.url) }
            try context.reset(pushing: [("todoDetail", ["id": .string(id)])])
        default:
            return .declined
        }
        return .opened
    }

    func render(_ screen: ScreenInstance, _ context: FlowContext) -> ScreenContent {
        switch screen.name {
        case "todoAdd":
            return ScreenContent(
                title: "New to-do",
                components: screen.noticeComponents + [
                    .field(name: "title", label: "Title", value: screen.formString("title"), kind: .text),
                    .field(name: "description", label: "Description", value: screen.formString("description"), kind: .multiline),
                    .button("Save", .primary, route: "saveTodo", submit: true),
                    .button("Cancel", .secondary, route: "cancel"),
                ])
        case "todoDetail":
            let todo = context.todoList[screen.param("id")?.stringValue ?? ""] ?? Todo(id: "", title: "Deleted to-do")
            return ScreenContent(
                title: todo.title,
                components: screen.noticeComponents + [
                    .field(name: "title", label: "Title", value: screen.formString("title", default: todo.title), kind: .text),
                    .field(
                        name: "description", label: "Description",
                        value: screen.formString("description", default: todo.description), kind: .multiline),
                    .toggle(name: "completed", label: "Completed", value: screen.form["completed"]?.boolValue ?? todo.completed),
                    .button("Save", .primary, route: "updateTodo", submit: true),
                    .button("Delete", .destructive, route: "deleteTodo"),
                ])
        default:
            let items: [Component.ListItem] = context.todoList.todos.map { todo in
                .init(id: todo.id, title: todo.title, subtitle: todo.description, checked: todo.completed,
                      action: .init("showTodo", params: ["id": .string(todo.id)]))
            }
            return ScreenContent(
                title: "To-dos",
                components: (items.isEmpty ? [.text("No to-dos yet.")] : [.list(items)])
                    + [.button("Add to-do", .primary, route: "addTodo")])
        }
    }
}
