import WayfinderCore

/// One to-do of the sample app.
struct Todo: Sendable, Hashable {
    var id: String
    var title: String
    var description: String
    var completed: Bool

    var json: JSONValue {
        ["id": .string(id), "title": .string(title), "description": .string(description), "completed": .bool(completed)]
    }

    init(id: String, title: String, description: String = "", completed: Bool = false) {
        self.id = id
        self.title = title
        self.description = description
        self.completed = completed
    }

    init?(_ json: JSONValue) {
        guard let id = json["id"]?.stringValue, let title = json["title"]?.stringValue else { return nil }
        self.init(
            id: id, title: title, description: json["description"]?.stringValue ?? "",
            completed: json["completed"]?.boolValue ?? false)
    }
}

/// The session's to-dos, kept in the app model so they survive logout (the model of MVVM-C:
/// flows read and change it, screens render it).
struct TodoList {
    var todos: [Todo]
    var nextID: Int

    static let samples = [
        Todo(id: "1", title: "Buy milk", description: "Oat, two cartons"),
        Todo(id: "2", title: "Call the plumber", description: "The kitchen tap drips"),
        Todo(id: "3", title: "Book flights", description: "Seoul in spring", completed: true),
        Todo(id: "4", title: "Renew passport"),
        Todo(id: "5", title: "Water the plants", description: "Not the cactus"),
    ]

    /// The list in `model`, or the five samples if the session has none yet.
    init(_ model: JSONObject) {
        if let items = model["todos"]?.arrayValue {
            todos = items.compactMap(Todo.init)
            nextID = model["nextTodoID"]?.intValue ?? (todos.count + 1)
        } else {
            todos = Self.samples
            nextID = Self.samples.count + 1
        }
    }

    func save(into model: inout JSONObject) {
        model["todos"] = .array(todos.map(\.json))
        model["nextTodoID"] = .int(nextID)
    }

    subscript(id: String) -> Todo? { todos.first { $0.id == id } }

    /// Adds a to-do with a fresh id (ids are never reused within a session).
    mutating func add(title: String, description: String) {
        todos.append(Todo(id: String(nextID), title: title, description: description))
        nextID += 1
    }

    mutating func update(_ todo: Todo) {
        if let index = todos.firstIndex(where: { $0.id == todo.id }) { todos[index] = todo }
    }

    mutating func remove(_ id: String) { todos.removeAll { $0.id == id } }

    /// Whether a deep link into main names something that exists (only `todos/{id}` can fail).
    static func linkTargetExists(_ link: DeepLink, in model: JSONObject) -> Bool {
        guard link.pattern == "todos/{id}" else { return true }
        return TodoList(model)[link.params["id"] ?? ""] != nil
    }
}

extension FlowContext {
    var todoList: TodoList {
        get { TodoList(model) }
        set { newValue.save(into: &model) }
    }
}
