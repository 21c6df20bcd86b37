import WayfinderCore

/// The to-do list (MVVM-C): list, add sheet, detail with update and delete.
struct TodosFlow: DemoFlow {
    enum Screen: FlowScreen {
        case todoList, todoAdd, todoDetail(id: String)
        enum CodingKeys: CodingKey, CaseIterable { case todoList, todoAdd, todoDetail }
    }

    enum Route: FlowRoute {
        case addTodo
        case showTodo(id: String)
        case saveTodo(title: String, description: String?)
        case cancel
        case updateTodo(title: String, description: String?, completed: Bool?)
        case deleteTodo
        enum CodingKeys: CodingKey, CaseIterable { case addTodo, showTodo, saveTodo, cancel, updateTodo, deleteTodo }
    }

    let deepLinks: [DemoLink.Name] = [.todos, .newTodo, .todo]
    let signals: [DemoSignal.Name] = [.todoShared]

    func routes(on screen: Screen.Name) -> [Route.Name] {
        switch screen {
        case .todoList: [.addTodo, .showTodo]
        case .todoAdd: [.saveTodo, .cancel]
        case .todoDetail: [.updateTodo, .deleteTodo]
        }
    }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.todoList)
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

    /// A to-do someone shared, added to the list by the backend's signal (refused as the form
    /// would refuse it).
    func receive(_ signal: DemoSignal, _ flow: inout FlowContext<Self>) throws {
        switch signal {
        case .todoShared(let title, let from):
            let description = "Shared by \(from)"
            let full = flow.model.todos.count >= Self.maxTodos ? "The list holds at most \(Self.maxTodos) to-dos." : nil
            if let notice = full ?? Self.notice(title: title, description: description) { throw NavigationError.invalidParam("title", notice) }
            flow.model.add(title: title.trimmed, description: description)
        }
    }

    /// A sheet on tablet and web, full screen on phone (the articles' iPad case).
    private func addStyle(_ flow: FlowContext<Self>) -> ModalStyle { flow.context.platform == .phone ? .fullScreen : .sheet }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch (route, screen) {
        case (.addTodo, _):
            flow.present(.todoAdd, style: addStyle(flow))
        case (.cancel, _):
            try flow.dismiss()
        case (.saveTodo(let title, let description), _):
            let description = description ?? ""
            let full = flow.model.todos.count >= Self.maxTodos ? "The list holds at most \(Self.maxTodos) to-dos; delete one first." : nil
            if let notice = full ?? Self.notice(title: title, description: description) {
                return flow.reject(notice, keeping: Self.kept(title: title, description: description))
            }
            flow.model.add(title: title.trimmed, description: description)
            try flow.dismiss()
        case (.showTodo(let id), _):
            guard flow.model[id] != nil else { throw NavigationError.invalidParam("id", "no to-do has id '\(id)'") }
            flow.push(.todoDetail(id: id))
        case (.updateTodo(let title, let description, let completed), .todoDetail(let id)):
            guard var todo = flow.model[id] else { throw NavigationError.invalidParam("id", "this to-do no longer exists") }
            let description = description ?? ""
            if let notice = Self.notice(title: title, description: description) {
                var kept = Self.kept(title: title, description: description)
                if let completed { kept["completed"] = .bool(completed) }
                return flow.reject(notice, keeping: kept)
            }
            todo.title = title.trimmed
            todo.description = description
            todo.completed = completed ?? todo.completed
            flow.model.update(todo)
            try flow.pop()
        case (.deleteTodo, .todoDetail(let id)):
            flow.model.remove(id)
            try flow.pop()
        case (.updateTodo, _), (.deleteTodo, _):
            break  // offered on the detail screen only
        }
    }

    func openDeepLink(_ link: DemoLink, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
        switch link {
        case .todos:
            try flow.reset()
        case .newTodo:
            try flow.reset()
            flow.present(.todoAdd, style: addStyle(flow))
        case .todo(let id):
            guard flow.model[id] != nil else { return .declined }
            try flow.reset(pushing: [.todoDetail(id: id)])
        case .profile, .changePassword, .signUp:
            return .declined
        }
        return .opened
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        switch screen {
        case .todoList:
            let items = flow.model.todos.map { todo in
                Component.ListItem(
                    id: todo.id, title: todo.title, subtitle: todo.description, checked: todo.completed,
                    action: flow.action(.showTodo(id: todo.id)))
            }
            return ScreenContent(
                title: "To-dos",
                components: (items.isEmpty ? [.text("No to-dos yet.")] : [.list(items)]) + [flow.button("Add to-do", route: .addTodo)])
        case .todoAdd:
            return ScreenContent(
                title: "New to-do",
                components: flow.noticeComponents + [
                    .field(name: "title", label: "Title", value: flow.formString("title"), kind: .text),
                    .field(name: "description", label: "Description", value: flow.formString("description"), kind: .multiline),
                    flow.button("Save", submitting: .saveTodo),
                    flow.button("Cancel", .secondary, route: .cancel),
                ])
        case .todoDetail(let id):
            let todo = flow.model[id] ?? Todo(id: "", title: "Deleted to-do")
            return ScreenContent(
                title: todo.title,
                components: flow.noticeComponents + [
                    .field(name: "title", label: "Title", value: flow.formString("title", default: todo.title), kind: .text),
                    .field(
                        name: "description", label: "Description",
                        value: flow.formString("description", default: todo.description), kind: .multiline),
                    .toggle(name: "completed", label: "Completed", value: flow.form["completed"]?.boolValue ?? todo.completed),
                    flow.button("Save", submitting: .updateTodo),
                    flow.button("Delete", .destructive, route: .deleteTodo),
                ])
        }
    }
}
