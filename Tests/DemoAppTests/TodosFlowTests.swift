import DemoApp
import Testing
import WayfinderCore

@Suite struct TodosFlowTests {
    /// Signed in on `platform`, on the todos tab (`s2` todoList, coordinator `c3`).
    private func onTodos(_ platform: String = "phone") throws -> Driver {
        var d = try Driver.signedIn(platform: platform)
        try d.tab("todos")
        return d
    }

    @Test func theListShowsTheFiveSamples() throws {
        let d = try onTodos()
        #expect(d.top.routes == ["addTodo", "showTodo"])
        guard case .list(let items) = d.top.components.first else { Issue.record("no list"); return }
        #expect(items.map(\.id) == ["1", "2", "3", "4", "5"])
        #expect(items.map(\.checked) == [false, false, true, false, false])
    }

    @Test(arguments: [("phone", Presentation.fullScreen), ("tablet", .sheet), ("web", .sheet)])
    func addTodoPresentsTheFormByPlatform(platform: String, presentation: Presentation) throws {
        var d = try onTodos(platform)
        try d.route("addTodo")
        #expect(d.lastTransitions == [t(.present, ["s4"])])
        #expect(d.stack == ["todoList", "todoAdd"])
        #expect(d.top.presentation == presentation)
        #expect(d.top.routes == ["saveTodo", "cancel"])
        // The modal hangs on the root node's chain; the tab's own stack carries none.
        guard case .tabs(let coordinator, "todos", let tabs, let modal) = d.rendered.navigation else {
            Issue.record("not a tab bar"); return
        }
        #expect(coordinator == "c1")
        #expect(tabs.map(\.root.modal) == [nil, nil, nil])
        guard case .stack("c3", let screens, nil) = modal else { Issue.record("no modal: \(String(describing: modal))"); return }
        #expect(screens.map(\.name) == ["todoAdd"])
        #expect(d.tabStack("todos") == ["todoList"])
    }

    @Test func saveTodoWithABlankTitleShowsANotice() throws {
        var d = try onTodos()
        try d.route("addTodo")
        try d.route("saveTodo", ["title": "   ", "description": "later"])
        #expect(d.lastTransitions == [t(.update, ["s4"])])
        #expect(d.notices == [Notice(.error, "Give the to-do a title.")])
        #expect(d.field("title") == "   ")
        #expect(d.field("description") == "later")
        #expect(d.todos.count == 5)
        try d.expectNoOp(.trigger(RouteRequest("saveTodo", params: ["title": "   ", "description": "later"])))
    }

    @Test func saveTodoPastTheLengthLimitsShowsANoticeAndKeepsTheTextCut() throws {
        var d = try onTodos()
        try d.route("addTodo")
        let long = String(repeating: "t", count: 201)
        try d.route("saveTodo", ["title": .string(long), "description": "d"])
        #expect(d.lastTransitions == [t(.update, ["s4"])])
        #expect(d.notices == [Notice(.error, "A title can have at most 200 characters.")])
        #expect(d.field("title") == String(repeating: "t", count: 200))
        try d.route("saveTodo", ["title": "Fine", "description": .string(String(repeating: "d", count: 2001))])
        #expect(d.notices == [Notice(.error, "A description can have at most 2000 characters.")])
        #expect(d.field("description") == String(repeating: "d", count: 2000))
        #expect(d.todos.count == 5)
        try d.route("saveTodo", ["title": .string(String(repeating: "é", count: 200)), "description": .string(String(repeating: "d", count: 2000))])
        #expect(d.todos.count == 6, "exactly at the limits is fine (characters, not bytes)")
    }

    @Test func updateTodoPastTheLengthLimitShowsANotice() throws {
        var d = try onTodos()
        try d.route("showTodo", ["id": "2"])
        try d.route("updateTodo", ["title": .string(String(repeating: "x", count: 300)), "completed": true])
        #expect(d.lastTransitions == [t(.update, ["s4"])])
        #expect(d.notices == [Notice(.error, "A title can have at most 200 characters.")])
        #expect(d.todos[1] == "2:Call the plumber")
    }

    @Test func theListHoldsAtMostTwoHundredToDos() throws {
        var d = try onTodos()
        d.state.model["todos"] = .array((1...199).map { n in
            ["id": .string("\(n)"), "title": .string("To-do \(n)"), "description": "", "completed": false]
        })
        d.state.model["nextTodoID"] = 200
        try d.route("addTodo")
        try d.route("saveTodo", ["title": "The last one"])
        #expect(d.todos.count == 200)
        try d.route("addTodo")
        try d.route("saveTodo", ["title": "One too many"])
        #expect(d.lastTransitions == [t(.update, [d.topID])])
        #expect(d.notices == [Notice(.error, "The list holds at most 200 to-dos; delete one first.")])
        #expect(d.field("title") == "One too many")
        #expect(d.todos.count == 200)
    }

    @Test func saveTodoDismissesAndAddsWithFreshIds() throws {
        var d = try onTodos()
        try d.route("addTodo")
        try d.route("saveTodo", ["title": "  Six  ", "description": "d6"])
        #expect(d.lastTransitions == [t(.dismiss, ["s4"])])
        #expect(d.ids == [Main.todoList])
        #expect(d.todos.last == "6:Six")
        try d.route("addTodo")
        try d.route("saveTodo", ["title": "Seven"])
        #expect(d.todos.suffix(2) == ["6:Six", "7:Seven"])
        #expect(d.state.model["todos"]?.arrayValue?.last?["description"] == "")
        guard case .list(let items) = d.top.components.first else { Issue.record("no list"); return }
        #expect(items.map(\.id) == ["1", "2", "3", "4", "5", "6", "7"])
    }

    @Test func idsAreNeverReusedAfterADelete() throws {
        var d = try onTodos()
        try d.route("addTodo")
        try d.route("saveTodo", ["title": "Six"])
        try d.route("showTodo", ["id": "6"])
        try d.route("deleteTodo")
        try d.route("addTodo")
        try d.route("saveTodo", ["title": "Again"])
        #expect(d.todos.suffix(2) == ["5:Water the plants", "7:Again"])
    }

    @Test func saveTodoNeedsATitleString() throws {
        var d = try onTodos()
        try d.route("addTodo")
        d.expectRefused(route: "saveTodo", ["description": 3], .invalidParams([
            InvalidParam(name: "title", reason: "is required"),
            InvalidParam(name: "description", reason: "must be a string, not an integer"),
        ]))
    }

    @Test func cancelDismissesWithoutAdding() throws {
        var d = try onTodos()
        try d.route("addTodo")
        try d.route("cancel")
        #expect(d.lastTransitions == [t(.dismiss, ["s4"])])
        #expect(d.ids == [Main.todoList])
        #expect(d.todos.count == 5)
    }

    @Test func showTodoPushesItsDetail() throws {
        var d = try onTodos()
        try d.route("showTodo", ["id": "3"])
        #expect(d.lastTransitions == [t(.push, ["s4"])])
        #expect(d.stack == ["todoList", "todoDetail"])
        #expect(d.top.values == ["id": "3"], "a native client shows its own detail view of to-do 3")
        #expect(d.rendered.stack.first?.values == [:])
        #expect(d.top.title == "Book flights")
        #expect(d.top.routes == ["updateTodo", "deleteTodo"])
        #expect(d.field("description") == "Seoul in spring")
        #expect(d.top.components.contains(.toggle(name: "completed", label: "Completed", value: true)))
    }

    @Test func showTodoWithAnUnknownIdIsInvalidParams() throws {
        var d = try onTodos()
        d.expectRefused(route: "showTodo", ["id": "6"], .invalidParam("id", "no to-do has id '6'"))
        d.expectRefused(route: "showTodo", ["id": .double(1)], .invalidParam("id", "must be a string, not a number"))
    }

    @Test func updateTodoSavesAndPops() throws {
        var d = try onTodos()
        try d.route("showTodo", ["id": "1"])
        try d.route("updateTodo", ["title": " Buy oat milk ", "description": "two", "completed": true])
        #expect(d.lastTransitions == [t(.pop, ["s4"])])
        #expect(d.ids == [Main.todoList])
        #expect(d.todos.first == "1:Buy oat milk✓")
        #expect(d.state.model["todos"]?.arrayValue?.first?["description"] == "two")
    }

    @Test func updateTodoDefaultsTheDescriptionAndKeepsCompleted() throws {
        var d = try onTodos()
        try d.route("showTodo", ["id": "3"])
        try d.route("updateTodo", ["title": "Book trains"])
        let todo = d.state.model["todos"]?.arrayValue?[2]
        #expect(todo == ["id": "3", "title": "Book trains", "description": "", "completed": true])
    }

    @Test func updateTodoNeedsATitle() throws {
        var d = try onTodos()
        try d.route("showTodo", ["id": "2"])
        d.expectRefused(route: "updateTodo", ["completed": "yes"], .invalidParams([
            InvalidParam(name: "title", reason: "is required"),
            InvalidParam(name: "completed", reason: "must be a boolean, not a string"),
        ]))
        try d.route("updateTodo", ["title": "", "description": "x", "completed": true])
        #expect(d.lastTransitions == [t(.update, ["s4"])])
        #expect(d.notices == [Notice(.error, "Give the to-do a title.")])
        #expect(d.field("title") == "")
        #expect(d.top.components.contains(.toggle(name: "completed", label: "Completed", value: true)))
        #expect(d.todos[1] == "2:Call the plumber")
    }

    @Test func deleteTodoDeletesAndPops() throws {
        var d = try onTodos()
        try d.route("showTodo", ["id": "2"])
        try d.route("deleteTodo")
        #expect(d.lastTransitions == [t(.pop, ["s4"])])
        #expect(d.todos == ["1:Buy milk", "3:Book flights✓", "4:Renew passport", "5:Water the plants"])
        d.expectRefused(route: "showTodo", ["id": "2"], .invalidParam("id", "no to-do has id '2'"))
        d.expectRefused(.openDeepLink("wayfinder://todos/2"), .unknownDeepLink("wayfinder://todos/2"))
    }
}
