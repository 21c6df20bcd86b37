import DemoApp
import Testing
import WayfinderCore

/// One test per error code the engine produces, each leaving the state unchanged.
@Suite struct ErrorCodeTests {
    @Test func routeUnavailableListsTheTopScreensRoutes() throws {
        var d = try Driver.signedIn()
        d.expectRefused(route: "login", ["email": "a@b", "password": "12345678"], .routeUnavailable(route: "login", available: ["openTodo"]))
        try d.tab("todos")
        d.expectRefused(route: "openTodo", ["id": "1"], .routeUnavailable(route: "openTodo", available: ["addTodo", "showTodo"]))
        d.expectRefused(route: "", [:], .routeUnavailable(route: "", available: ["addTodo", "showTodo"]))
        d.expectRefused(route: "ADDTODO", [:], .routeUnavailable(route: "ADDTODO", available: ["addTodo", "showTodo"]))
        let huge = String(repeating: "x", count: 100_000)
        d.expectRefused(route: huge, ["p": .string(huge)], .routeUnavailable(route: huge, available: ["addTodo", "showTodo"]))
        try d.route("addTodo")
        d.expectRefused(route: "showTodo", ["id": "1"], .routeUnavailable(route: "showTodo", available: ["saveTodo", "cancel"]))
    }

    @Test func routesOfHiddenScreensAreUnavailable() throws {
        var d = try Driver.signedIn()
        try d.tab("profile")
        d.expectRefused(route: "openTodo", ["id": "1"], .routeUnavailable(route: "openTodo", available: ["changePassword", "emailTodos", "logout"]))
        try d.route("changePassword")
        d.expectRefused(route: "logout", [:], .routeUnavailable(route: "logout", available: ["savePassword"]))
    }

    @Test func invalidParamsNamesEveryBadParamInCatalogOrder() throws {
        var d = try Driver.signedIn()
        try d.route("openTodo", ["id": "1"])
        d.expectRefused(route: "updateTodo", ["completed": 1, "description": false, "title": ["x"]], .invalidParams([
            InvalidParam(name: "title", reason: "must be a string, not an array"),
            InvalidParam(name: "description", reason: "must be a string, not a boolean"),
            InvalidParam(name: "completed", reason: "must be a boolean, not an integer"),
        ]))
        d.expectRefused(route: "updateTodo", ["title": ["k": "v"]], .invalidParams([
            InvalidParam(name: "title", reason: "must be a string, not an object"),
        ]))
    }

    @Test func hugeParamsAreJustStrings() throws {
        var d = try Driver(["onboarded": true])
        let huge = String(repeating: "é", count: 100_000)
        try d.route("login", ["email": .string(huge), "password": "x"])
        #expect(d.field("email") == huge)
        try d.route("login", ["email": .string(huge + "@"), "password": .string(huge)])
        #expect(d.stack == ["login"])
        #expect(d.notices == [Notice(.error, "That email and password do not match.")])
    }

    @Test func unknownDeepLinkNamesTheLink() throws {
        var d = try Driver.signedIn()
        d.expectRefused(.openDeepLink("wayfinder://nowhere"), .unknownDeepLink("wayfinder://nowhere"))
    }

    @Test func nothingToPopAtARoot() throws {
        var d = try Driver.signedIn()
        d.expectRefused(.back(screen: nil), .nothingToPop)
    }

    @Test func staleScreenNamesBothScreens() throws {
        var d = try Driver.signedIn()
        try d.route("openTodo", ["id": "1"])
        d.expectRefused(.back(screen: Main.todoList), .staleScreen(requested: Main.todoList, top: "s4"))
    }
}
