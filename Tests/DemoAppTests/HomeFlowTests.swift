import DemoApp
import Testing
import WayfinderCore

@Suite struct HomeFlowTests {
    @Test func dashboardListsTheOpenTodos() throws {
        let d = try Driver.signedIn()
        #expect(d.stack == ["dashboard"])
        #expect(d.top.routes == ["openTodo"])
        #expect(d.top.components.prefix(2) == [.heading("Hello, a@b.c"), .text("4 open to-dos")])
        guard case .list(let items) = d.top.components.last else { Issue.record("no list"); return }
        #expect(items.map(\.id) == ["1", "2", "4", "5"])
        #expect(items.allSatisfy { $0.checked == nil }, "a row that opens a to-do is not a check box")
        #expect(items.map(\.action) == ["1", "2", "4", "5"].map { Component.Action("openTodo", params: ["id": .string($0)]) })
    }

    @Test func openTodoSelectsTheTodosTabAndPushesTheDetail() throws {
        var d = try Driver.signedIn()
        try d.route("openTodo", ["id": "2"])
        #expect(d.lastTransitions == [t(.selectTab, [Main.todoList], tab: "todos"), t(.push, ["s4"])])
        #expect(d.stack == ["todoList", "todoDetail"])
        #expect(d.selectedTab == "todos")
        #expect(d.top.title == "Call the plumber")
        #expect(d.top.coordinator == "c3")
        #expect(d.tabStack("home") == ["dashboard"])
    }

    @Test func openTodoWorksForACompletedTodo() throws {
        var d = try Driver.signedIn()
        try d.route("openTodo", ["id": "3"])
        #expect(d.top.title == "Book flights")
    }

    /// `openTodo {id}` behaves exactly like `wayfinder://todos/{id}`, from any starting point.
    @Test(arguments: ["none", "detail1", "detail2", "profileSelected"])
    func openTodoIsExactlyTheDeepLink(start: String) throws {
        var d = try Driver.signedIn()
        switch start {
        case "detail1", "detail2":
            try d.tab("todos")
            try d.route("showTodo", ["id": start == "detail1" ? "1" : "2"])
            try d.tab("home")
        case "profileSelected":
            try d.tab("profile")
            try d.route("changePassword")
            try d.tab("home")
        default: break
        }
        let viaRoute = try d.engine.reduce(d.state, .trigger(RouteRequest("openTodo", params: ["id": "2"])))
        let viaLink = try d.engine.reduce(d.state, .openDeepLink("wayfinder://todos/2"))
        #expect(viaRoute == viaLink)
        #expect(viaRoute.transitions.map(\.op) == (start.hasPrefix("detail") ? [.selectTab, .pop, .push] : [.selectTab, .push]))
    }

    @Test func openTodoWithAnUnknownIdIsInvalidParams() throws {
        var d = try Driver.signedIn()
        d.expectRefused(route: "openTodo", ["id": "99"], .invalidParam("id", "no to-do has id '99'"))
        d.expectRefused(route: "openTodo", ["id": ""], .invalidParam("id", "no to-do has id ''"))
        d.expectRefused(route: "openTodo", ["id": 2], .invalidParam("id", "must be a string, not an integer"))
        d.expectRefused(route: "openTodo", [:], .invalidParam("id", "is required"))
    }

    @Test func theDashboardFollowsTheTodos() throws {
        var d = try Driver.signedIn()
        try d.route("openTodo", ["id": "1"])
        try d.route("updateTodo", ["title": "Buy milk", "completed": true])
        try d.tab("home")
        #expect(d.top.components.prefix(2) == [.heading("Hello, a@b.c"), .text("3 open to-dos")])
    }
}
