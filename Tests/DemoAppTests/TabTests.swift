import DemoApp
import Testing
import WayfinderCore

@Suite struct TabTests {
    @Test func tabsComeInOrderWithHomeSelected() throws {
        let d = try Driver.signedIn()
        guard case .tabs("c1", "home", let tabs, nil) = d.rendered.navigation else { Issue.record("no tabs"); return }
        #expect(tabs.map(\.id) == ["home", "todos", "profile"])
        #expect(tabs.map(\.title) == ["Home", "To-dos", "Profile"])
        #expect(tabs.map(\.icon) == ["house", "checklist", "person"])
        #expect(tabs.map { visiblePath(of: $0.root).map(\.presentation) } == [[.root], [.root], [.root]])
        #expect(d.state.coordinators.children.first?.children.map(\.id) == ["c2", "c3", "c4"])
    }

    @Test func selectingATabShowsItsStack() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        #expect(d.lastTransitions == [t(.selectTab, [Main.todoList], tab: "todos")])
        #expect(d.ids == [Main.todoList])
        #expect(d.state.revision == 2)
        try d.tab("profile")
        #expect(d.lastTransitions == [t(.selectTab, [Main.profile], tab: "profile")])
    }

    @Test func selectingATabNamesItsTopScreen() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.route("showTodo", ["id": "1"])
        try d.tab("home")
        try d.tab("todos")
        #expect(d.lastTransitions == [t(.selectTab, ["s4"], tab: "todos")])
    }

    @Test func reselectingTheSelectedTabPopsToItsRoot() throws {
        var d = try Driver.signedIn()
        try d.tab("profile")
        try d.route("changePassword")
        try d.route("savePassword", ["current": "12345678", "password": "12345678", "confirm": "12345678"])
        try d.tab("profile")
        #expect(d.lastTransitions == [t(.pop, ["s4", "s5"])])
        #expect(d.ids == [Main.profile])
        #expect(d.tree == "app(main(home,todos,profile))")
    }

    @Test func reselectingATabAtItsRootIsANoOp() throws {
        var d = try Driver.signedIn()
        try d.expectNoOp(.selectTab("home"))
        try d.tab("todos")
        try d.expectNoOp(.selectTab("todos"))
    }

    @Test func anUnknownTabIsInvalidParams() throws {
        var d = try Driver.signedIn()
        d.expectRefused(.selectTab("settings"), .invalidParam("tab", "no tab named 'settings'; tabs are home, todos, profile"))
        d.expectRefused(.selectTab("Home"), .invalidParam("tab", "no tab named 'Home'; tabs are home, todos, profile"))
        d.expectRefused(.selectTab(""), .invalidParam("tab", "no tab named ''; tabs are home, todos, profile"))
    }

    @Test func aTabUnderAModalIsUnavailable() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.route("addTodo")
        d.expectRefused(.selectTab("home"), .routeUnavailable(route: "tab", available: ["saveTodo", "cancel"]))
        // The modal is checked before the tab's name.
        d.expectRefused(.selectTab("nope"), .routeUnavailable(route: "tab", available: ["saveTodo", "cancel"]))
    }

    @Test func aTabOutsideMainIsUnavailable() throws {
        var d = try Driver(["onboarded": true])
        d.expectRefused(.selectTab("todos"), .routeUnavailable(route: "tab", available: ["login", "register", "forgotPassword"]))
        d.expectRefused(.selectTab("nope"), .routeUnavailable(route: "tab", available: ["login", "register", "forgotPassword"]))
        var onboarding = try Driver()
        onboarding.expectRefused(.selectTab("home"), .routeUnavailable(route: "tab", available: ["next", "skip"]))
    }
}
