@testable import DemoApp
import Testing
import WayfinderCore

/// What clients see: routes per screen, presentation by position, `stack`, the JSON.
@Suite struct RenderingTests {
    static let expectedRoutes: [String: [String]] = [
        "walkthrough": ["next", "skip"], "login": ["login", "register", "forgotPassword"], "register": ["signUp"],
        "confirmSignUp": ["confirmSignUp"], "unlock": ["unlock"], "forgotPassword": ["sendCode"], "resetPassword": ["resetPassword"],
        "changePassword": ["savePassword"], "passwordChanged": ["done"], "dashboard": ["openTodo"],
        "todoList": ["addTodo", "showTodo"], "todoAdd": ["saveTodo", "cancel"], "todoDetail": ["updateTodo", "deleteTodo"],
        "profile": ["changePassword", "emailTodos", "logout"],
    ]

    /// One session per screen of the app, with that screen on top.
    static func sessions() throws -> [Driver] {
        var result: [Driver] = []
        var d = try Driver()
        result.append(d)
        d = try Driver(["onboarded": true])
        result.append(d)
        try d.route("register")
        result.append(d)
        try d.route("signUp", ["name": "Ada", "email": "new@example.com", "password": "12345678"])
        result.append(d)
        d = try Driver(["onboarded": true])
        for _ in 0..<Attempts.lockAfter { try d.route("login", ["email": "a@b.c", "password": "wrong password"]) }
        result.append(d)
        d = try Driver(["onboarded": true])
        try d.route("forgotPassword")
        result.append(d)
        try d.route("sendCode", ["email": "a@b.c"])
        result.append(d)
        try d.route("resetPassword", ["code": .string(d.code(to: "a@b.c") ?? ""), "password": "12345678", "confirm": "12345678"])
        result.append(d)
        d = try Driver.signedIn()
        result.append(d)
        try d.tab("todos")
        result.append(d)
        try d.route("addTodo")
        result.append(d)
        try d.route("cancel")
        try d.route("showTodo", ["id": "1"])
        result.append(d)
        try d.tab("profile")
        result.append(d)
        try d.route("changePassword")
        result.append(d)
        return result
    }

    @Test func everyScreensRoutesAreExactlyWhatTheChainAccepts() throws {
        let allRoutes = Set(demoApplication.catalog.flows.flatMap { $0.routes.map(\.name) })
        let sessions = try Self.sessions()
        #expect(Set(sessions.map(\.top.name)) == Set(Self.expectedRoutes.keys))
        for d in sessions {
            #expect(d.top.routes == Self.expectedRoutes[d.top.name], "\(d.top.name)")
            for route in allRoutes {
                do {
                    _ = try d.engine.reduce(d.state, .trigger(RouteRequest(route)))
                    #expect(d.top.routes.contains(route), "\(route) accepted on \(d.top.name)")
                } catch NavigationError.routeUnavailable(_, let available) {
                    #expect(!d.top.routes.contains(route), "\(route) refused on \(d.top.name)")
                    #expect(available == d.top.routes)
                } catch {
                    #expect(d.top.routes.contains(route), "\(route) on \(d.top.name): \(error)")
                }
            }
        }
    }

    @Test func hiddenScreensListTheRoutesTheyWouldHaveOnTop() throws {
        var d = try Driver.signedIn()
        try d.route("openTodo", ["id": "1"])
        #expect(d.rendered.stack.map(\.routes) == [["addTodo", "showTodo"], ["updateTodo", "deleteTodo"]])
        guard case .tabs(_, _, let tabs, _) = d.rendered.navigation else { Issue.record("no tabs"); return }
        #expect(tabs.map { visiblePath(of: $0.root).flatMap(\.routes) }
            == [["openTodo"], ["addTodo", "showTodo", "updateTodo", "deleteTodo"], ["changePassword", "emailTodos", "logout"]])
    }

    @Test func presentationFollowsPosition() throws {
        var d = try Driver()
        try d.route("next")
        #expect(d.rendered.stack.map(\.presentation) == [.root, .push])
        d = try Driver.signedIn(platform: "tablet")
        try d.link("wayfinder://todos/new")
        #expect(d.rendered.stack.map(\.presentation) == [.root, .sheet])
        d = try Driver.signedIn()
        try d.link("wayfinder://todos/new")
        #expect(d.rendered.stack.map(\.presentation) == [.root, .fullScreen])
        try d.link("wayfinder://profile/password")
        try d.route("savePassword", ["current": "12345678", "password": "12345678", "confirm": "12345678"])
        #expect(d.rendered.stack.map(\.presentation) == [.root, .push, .push])
    }

    @Test func theRenderedJSONCarriesTheContractsFields() throws {
        var d = try Driver.signedIn(platform: "web")
        try d.tab("todos")
        try d.route("addTodo")
        let json = try JSONParser.parse(d.rendered.jsonBytes)
        #expect(json["session"] == "test")
        #expect(json["revision"] == 3)
        #expect(json["pendingDeepLink"] == .null)
        #expect(json["context"] == ["onboarded": true, "authenticated": true, "platform": "web", "variant": "A", "user": "a@b.c"])
        #expect(json["coordinators"] == [
            "id": "c0", "flow": "app",
            "children": [["id": "c1", "flow": "main", "children": [
                ["id": "c2", "flow": "home", "children": []], ["id": "c3", "flow": "todos", "children": []],
                ["id": "c4", "flow": "profile", "children": []],
            ]]],
        ])
        let navigation = try #require(json["navigation"])
        #expect(navigation["kind"] == "tabs")
        #expect(navigation["selected"] == "todos")
        #expect(navigation["tabs"]?.arrayValue?.map { $0["root"]?["modal"] } == [.null, .null, .null])
        #expect(navigation["modal"]?["kind"] == "stack")
        #expect(navigation["modal"]?["coordinator"] == "c3")
        #expect(navigation["modal"]?["modal"] == .null)
        let top = try #require(json["stack"]?.arrayValue?.last)
        #expect(top["id"] == "s4")
        #expect(top["name"] == "todoAdd")
        #expect(top["title"] == "New to-do")
        #expect(top["presentation"] == "sheet")
        #expect(top["routes"] == ["saveTodo", "cancel"])
        #expect(top["components"]?.arrayValue?.first == [
            "type": "field", "name": "title", "label": "Title", "value": "", "kind": "text",
        ])
        #expect(top["components"]?.arrayValue?[2] == [
            "type": "button", "title": "Save", "style": "primary", "action": ["route": "saveTodo", "params": [:]], "submit": true,
        ])
    }

    @Test func transitionsWriteTabOnlyForSelectTab() throws {
        var w = JSONWriter()
        t(.push, ["s4"]).write(to: &w)
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"op":"push","screens":["s4"],"tab":null,"animated":true}"#)
        w = JSONWriter()
        t(.selectTab, ["s2"], tab: "todos").write(to: &w)
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"op":"selectTab","screens":["s2"],"tab":"todos","animated":true}"#)
    }
}
