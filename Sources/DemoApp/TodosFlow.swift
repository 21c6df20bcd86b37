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
            guard !title.trimmed.isEmpty else {
                return context.reject(screen, "Give the to-do a title.", keeping: ["title": .string(title), "description": .string(description)])
            }
            var list = context.todoList
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
            guard !title.trimmed.isEmpty else {
                var kept: JSONObject = ["title": .string(title), "description": .string(description)]
                if let completed = route.bool("completed") { kept["completed"] = .bool(completed) }
                return context.reject(screen, "Give the to-do a title.", keeping: kept)
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
