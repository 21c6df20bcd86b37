import WayfinderCore

/// One to-do of the sample app.
struct Todo: Codable, Sendable, Hashable {
    var id: String
    var title: String
    var description = ""
    var completed = false
}

/// The session's to-dos: the app's model (MVVM-C's model: flows read and change it, screens
/// render it), the signed-in user's: logging out starts a new list. A new list has five samples.
struct TodoList: AppModel {
    var todos = [
        Todo(id: "1", title: "Buy milk", description: "Oat, two cartons"),
        Todo(id: "2", title: "Call the plumber", description: "The kitchen tap drips"),
        Todo(id: "3", title: "Book flights", description: "Seoul in spring", completed: true),
        Todo(id: "4", title: "Renew passport"),
        Todo(id: "5", title: "Water the plants", description: "Not the cactus"),
    ]
    /// Ids are never reused within a list.
    var nextTodoID = 6

    subscript(id: String) -> Todo? { todos.first { $0.id == id } }

    mutating func add(title: String, description: String) {
        todos.append(Todo(id: String(nextTodoID), title: title, description: description))
        nextTodoID += 1
    }

    mutating func update(_ todo: Todo) {
        if let index = todos.firstIndex(where: { $0.id == todo.id }) { todos[index] = todo }
    }

    mutating func remove(_ id: String) { todos.removeAll { $0.id == id } }
}
