@testable import DemoApp
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
        try d.route("savePassword", ["current": "12345678", "password": "12345678", "confirm": "12345678"])
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

    @Test func logoutForgetsTheUsersTodos() throws {
        var d = try Driver.signedIn()
        try d.tab("todos")
        try d.route("addTodo")
        try d.route("saveTodo", ["title": "Six"])
        try d.tab("profile")
        try d.route("logout")
        #expect(d.state.model == [:] || d.todos == ["1:Buy milk", "2:Call the plumber", "3:Book flights✓", "4:Renew passport", "5:Water the plants"])
        try d.route("login", ["email": "b@c.d", "password": "12345678"])
        #expect(!d.todos.contains("6:Six"))
    }

    @Test func theToDosGoToTheSignedInAddressOnlyAndNotTooOften() throws {
        var d = try Driver.signedIn()
        try d.tab("profile")
        for _ in 0..<Mailer.perSession {
            try d.route("emailTodos")
            #expect(d.notices == [Notice(.success, "Your to-dos (4 open) are on their way to a@b.c.")])
        }
        try d.route("emailTodos")
        #expect(d.notices == [Notice(.error, "You asked for your to-dos by mail often today: try again tomorrow.")])
        #expect(Set(d.services.mailer.outbox.map(\.to)) == ["a@b.c"])
        #expect(d.services.mailer.outbox.count == Mailer.perSession)
    }
}
