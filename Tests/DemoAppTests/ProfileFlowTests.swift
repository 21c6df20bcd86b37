import DemoApp
import Testing
import WayfinderCore

@Suite struct ProfileFlowTests {
    @Test func profileShowsTheUserAndItsRoutes() throws {
        var d = try Driver.signedIn()
        try d.tab("profile")
        #expect(d.top.routes == ["changePassword", "emailTodos", "logout"])
        #expect(d.top.components.first == .heading("a@b.c"))
    }

    @Test func changePasswordPushesTheSharedFlowOntoTheProfileTab() throws {
        var d = try Driver.signedIn()
        try d.tab("profile")
        try d.route("changePassword")
        #expect(d.stack == ["profile", "changePassword"])
        #expect(d.lastTransitions == [t(.push, ["s4"])])
        #expect(d.tabStack("profile") == ["profile", "changePassword"])
        #expect(d.tree == "app(main(home,todos,profile(changePassword)))")
        try d.route("savePassword", ["password": "12345678", "confirm": "12345678"])
        try d.route("done")
        #expect(d.ids == [Main.profile])
        #expect(d.lastTransitions == [t(.pop, ["s4", "s5"])])
        #expect(d.tree == "app(main(home,todos,profile))")
    }

    @Test func logoutClearsTheUserAndAuthTakesTheRoot() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.route("showTodo", ["id": "1"])  // other tabs' stacks go with main
        try d.tab("profile")
        try d.route("logout")
        #expect(d.stack == ["login"])
        #expect(d.lastTransitions == [t(.setRoot, ["s5"])])
        #expect(d.tree == "app(auth)")
        #expect(d.context == ["onboarded": true, "authenticated": false, "platform": "phone", "variant": "A", "user": nil])
        #expect(d.state.navigation.tabs == nil)
    }

    @Test func todosSurviveLogoutAndIdsKeepCounting() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.route("addTodo")
        try d.route("saveTodo", ["title": "Six"])
        try d.route("showTodo", ["id": "1"])
        try d.route("deleteTodo")
        try d.tab("profile")
        try d.route("logout")
        try d.route("login", ["email": "b@c.d", "password": "12345678"])
        try d.tab("todos")
        try d.route("addTodo")
        try d.route("saveTodo", ["title": "Seven"])
        #expect(d.todos == ["2:Call the plumber", "3:Book flights✓", "4:Renew passport", "5:Water the plants", "6:Six", "7:Seven"])
    }
}
