import DemoApp
import Testing
import WayfinderCore

/// The stories of the coordinator-pattern articles, end to end through the engine.
@Suite struct SeedScenarioTests {
    @Test func firstLaunchWalksThroughOnboardingThenLoginThenMain() throws {
        var d = try Driver()
        #expect(d.stack == ["walkthrough"])
        #expect(d.state.revision == 1)
        let first = d.topID
        try d.route("next")
        #expect(d.stack == ["walkthrough", "walkthrough"])
        #expect(d.lastTransitions == [t(.push, [d.topID])])
        try d.route("next")
        try d.route("next")  // last page finishes onboarding
        #expect(d.context["onboarded"] == true)
        #expect(d.stack == ["login"])
        #expect(d.lastTransitions == [t(.setRoot, [d.topID])])
        #expect(d.rendered.stack[0].presentation == .root)
        #expect(first != d.topID)
        try d.route("login", ["email": "a@b.c", "password": "short"])
        #expect(d.top.components.contains(.notice(Notice(.error, "Enter an email address with an @ and a password of at least 8 characters."))))
        #expect(d.lastTransitions == [t(.update, [d.topID])])
        try d.route("login", ["email": "a@b.c", "password": "12345678"])
        #expect(d.context["authenticated"] == true)
        #expect(d.context["user"] == "a@b.c")
        #expect(d.stack == ["dashboard"])
        #expect(d.selectedTab == "home")
        #expect(d.flows == ["app", "main", "profile", "todos", "home"])
        #expect(d.state.revision == 6)
    }

    @Test func forgotPasswordFromLoginReturnsToLogin() throws {
        var d = try Driver(["onboarded": true])
        let login = d.topID
        try d.route("forgotPassword")
        #expect(d.stack == ["login", "forgotPassword"])
        #expect(d.flows.contains("changePassword"))
        try d.route("sendCode", ["email": "a@b.c"])
        #expect(d.stack == ["login", "forgotPassword", "resetPassword"])
        let code = try #require(d.code(to: "a@b.c"))
        try d.route("resetPassword", ["code": .string(code), "password": "newpassword", "confirm": "newpassword"])
        #expect(d.stack == ["login", "forgotPassword", "resetPassword", "passwordChanged"])
        let removed = d.rendered.stack.dropFirst().map(\.id)
        try d.route("done")
        #expect(d.stack == ["login"])
        #expect(d.topID == login)
        #expect(d.lastTransitions == [t(.pop, Array(removed))])
        #expect(!d.flows.contains("changePassword"))
        try d.route("login", ["email": "a@b.c", "password": "newpassword"])
        #expect(d.stack == ["dashboard"])
    }

    @Test func changePasswordFromProfileReturnsToProfile() throws {
        var d = try Driver.signedIn()
        try d.tab("profile")
        try d.route("changePassword")
        #expect(d.stack == ["profile", "changePassword"])
        #expect(d.rendered.stack[1].coordinator != d.rendered.stack[0].coordinator)
        try d.route("savePassword", ["current": "12345678", "password": "abcdefgh", "confirm": "abcdefgh"])
        try d.route("done")
        #expect(d.stack == ["profile"])
        #expect(!d.flows.contains("changePassword"))
    }

    @Test func logoutReturnsToLogin() throws {
        var d = try Driver.signedIn()
        try d.tab("profile")
        try d.route("logout")
        #expect(d.stack == ["login"])
        #expect(d.context["authenticated"] == false)
        #expect(d.context["user"] == .null)
        #expect(d.flows == ["app", "auth"])
        #expect(d.lastTransitions == [t(.setRoot, [d.topID])])
    }

    @Test func deepLinkToTodoWhileLoggedOutOpensRightAfterLogin() throws {
        var d = try Driver(["onboarded": true])
        try d.link("wayfinder://todos/2")
        #expect(d.stack == ["login"])
        #expect(d.state.pendingDeepLink == "wayfinder://todos/2")
        #expect(d.lastTransitions == [])
        try d.route("login", ["email": "a@b.c", "password": "12345678"])
        #expect(d.state.pendingDeepLink == nil)
        #expect(d.stack == ["todoList", "todoDetail"])
        #expect(d.selectedTab == "todos")
        #expect(d.top.title == "Call the plumber")
        let ops = d.lastTransitions.map(\.op)
        #expect(ops == [.setRoot, .selectTab, .push])
    }

    @Test func tabBarKeepsEachTabsOwnStack() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.route("showTodo", ["id": "1"])
        #expect(d.stack == ["todoList", "todoDetail"])
        try d.tab("profile")
        try d.route("changePassword")
        try d.tab("todos")
        #expect(d.stack == ["todoList", "todoDetail"])
        try d.tab("profile")
        #expect(d.stack == ["profile", "changePassword"])
        try d.tab("home")
        #expect(d.stack == ["dashboard"])
    }
}
