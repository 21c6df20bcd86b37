import Foundation
import Testing

/// Issue 4, test 1: the seeds' story, step by step, as a curl user would walk it.
@Suite struct WalkthroughTests {
    @Test func theSeedsStoryThroughCurl() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()

        // Create a session: 201, relative Location, ETag "1", long random URL-safe id and token.
        let s = try c.createSession()
        let created = s.created
        #expect(created.header("Location") == "/v1/sessions/\(s.id)")
        #expect(created.header("ETag") == "\"1\"")
        #expect(created.contentType?.hasPrefix("application/json") == true)
        #expect(created.header("Cache-Control") == "no-store")
        #expect(s.id.count >= 22 && s.id.allSatisfy(isURLSafe), "id \(s.id)")
        #expect(s.token.count >= 43 && s.token.allSatisfy(isURLSafe), "token \(s.token)")
        let first = created.state
        #expect(first["session"].string == s.id)
        #expect(first.revision == 1)
        #expect(first.stackNames == ["walkthrough"])
        #expect(first["pendingDeepLink"].isNull)
        #expect(first["context"].canonical == #"{"authenticated":false,"onboarded":false,"platform":"phone","user":null,"variant":"A"}"#)
        #expect(first["coordinators"]["flow"].string == "app")

        // Onboarding: next pushes pages 2 and 3; next on the last page finishes it and auth takes the root.
        var r = try c.route(s, "next")
        try expectAction(r, revision: 2, stack: ["walkthrough", "walkthrough"])
        #expect(r.json.transitions == [T(op: "push", screens: [r.state.top["id"].string!], tab: nil)])
        #expect(r.state["stack"].array.map { $0["presentation"].string } == ["root", "push"])
        #expect(r.json["transitions"][0]["animated"].bool == true)
        r = try c.route(s, "next")
        try expectAction(r, revision: 3, stack: ["walkthrough", "walkthrough", "walkthrough"])
        #expect(r.json.ops == ["push"])
        r = try c.route(s, "next")
        try expectAction(r, revision: 4, stack: ["login"])
        let login = try #require(r.state.top["id"].string)
        #expect(r.json.transitions == [T(op: "setRoot", screens: [login], tab: nil)])
        #expect(r.state["context"]["onboarded"].bool == true)
        #expect(r.state.top["routes"].array.compactMap(\.string) == ["login", "register", "forgotPassword"])

        // A failed login is a success with a notice and an `update`.
        r = try c.route(s, "login", ["email": "a@b.c", "password": "short"])
        try expectAction(r, revision: 5, stack: ["login"])
        #expect(r.json.transitions == [T(op: "update", screens: [login], tab: nil)])
        #expect(r.state.top["components"].array.contains { $0["type"].string == "notice" && $0["style"].string == "error" })
        #expect(r.state["context"]["authenticated"].bool == false)

        // The right password signs in: main takes the root, home tab selected.
        r = try c.route(s, "login", ["email": "a@b.c", "password": "password1"])
        try expectAction(r, revision: 6, stack: ["dashboard"])
        let dashboard = try #require(r.state.top["id"].string)
        #expect(r.json.transitions == [T(op: "setRoot", screens: [dashboard], tab: nil)])
        #expect(r.state["navigation"]["kind"].string == "tabs")
        #expect(r.state["navigation"]["selected"].string == "home")
        #expect(r.state["navigation"]["tabs"].array.compactMap { $0["id"].string } == ["home", "todos", "profile"])
        #expect(r.state["context"]["authenticated"].bool == true)
        #expect(r.state["context"]["user"].string == "a@b.c")
        // The dashboard's rows open to-dos and are not checkable: no `checked` on the wire.
        let rows = r.state.top["components"].array.flatMap { $0["items"].array }
        #expect(!rows.isEmpty && rows.allSatisfy { !$0["checked"].exists })

        // Add a todo: the todos tab, addTodo presents full screen on a phone, saveTodo dismisses.
        r = try c.tab(s, "todos")
        try expectAction(r, revision: 7, stack: ["todoList"])
        let todoList = try #require(r.state.top["id"].string)
        #expect(r.json.transitions == [T(op: "selectTab", screens: [todoList], tab: "todos")])
        #expect(todoIDs(r.state.top) == ["1", "2", "3", "4", "5"])
        // The to-do list's rows are checkable: each says whether it is done.
        #expect(r.state.top["components"].array.flatMap { $0["items"].array }.map { $0["checked"].bool } == [false, false, true, false, false])
        r = try c.route(s, "addTodo")
        try expectAction(r, revision: 8, stack: ["todoList", "todoAdd"])
        let todoAdd = try #require(r.state.top["id"].string)
        #expect(r.state.top["presentation"].string == "fullScreen")
        #expect(r.json.transitions == [T(op: "present", screens: [todoAdd], tab: nil)])
        #expect(r.state["navigation"]["modal"]["screens"][0]["id"].string == todoAdd)
        r = try c.route(s, "saveTodo", ["title": "Fix the bike", "description": "Two litres"])
        try expectAction(r, revision: 9, stack: ["todoList"])
        #expect(r.json.transitions == [T(op: "dismiss", screens: [todoAdd], tab: nil)])
        #expect(r.state["navigation"]["modal"].isNull)
        #expect(todoIDs(r.state.top) == ["1", "2", "3", "4", "5", "6"])
        #expect(r.state.top["components"].array.flatMap { $0["items"].array }.contains { $0["id"].string == "6" && $0["title"].string == "Fix the bike" })

        // A deep link to todo 2: the todos tab is on screen already, so its detail is pushed.
        r = try c.deepLink(s, "wayfinder://todos/2")
        try expectAction(r, revision: 10, stack: ["todoList", "todoDetail"])
        #expect(r.json.transitions == [T(op: "push", screens: [r.state.top["id"].string!], tab: nil)])
        #expect(r.state.top["title"].string == "Call the plumber")
        // The screen's typed value, for a native client's own detail view; the list carries none.
        #expect(r.state.top["values"]["id"].string == "2")
        #expect(!r.state["stack"][0]["values"].exists)
        #expect(r.state["pendingDeepLink"].isNull)

        // Change the password from the profile, and come back to the profile.
        r = try c.tab(s, "profile")
        try expectAction(r, revision: 11, stack: ["profile"])
        let profile = try #require(r.state.top["id"].string)
        #expect(r.json.transitions == [T(op: "selectTab", screens: [profile], tab: "profile")])
        r = try c.route(s, "changePassword")
        try expectAction(r, revision: 12, stack: ["profile", "changePassword"])
        let changePassword = try #require(r.state.top["id"].string)
        #expect(r.json.transitions == [T(op: "push", screens: [changePassword], tab: nil)])
        #expect(r.state["stack"][0]["coordinator"].string != r.state["stack"][1]["coordinator"].string)
        r = try c.route(s, "savePassword", ["current": "password1", "password": "new-password", "confirm": "new-password"])
        try expectAction(r, revision: 13, stack: ["profile", "changePassword", "passwordChanged"])
        let passwordChanged = try #require(r.state.top["id"].string)
        #expect(r.json.transitions == [T(op: "push", screens: [passwordChanged], tab: nil)])
        r = try c.route(s, "done")
        try expectAction(r, revision: 14, stack: ["profile"])
        #expect(r.state.top["id"].string == profile)
        #expect(r.json.transitions == [T(op: "pop", screens: [changePassword, passwordChanged], tab: nil)])
        #expect(!flows(r.state["coordinators"]).contains("changePassword"))

        // Log out: auth takes the root; the user is gone from the context.
        r = try c.route(s, "logout")
        try expectAction(r, revision: 15, stack: ["login"])
        #expect(r.json.transitions == [T(op: "setRoot", screens: [r.state.top["id"].string!], tab: nil)])
        #expect(r.state["context"]["authenticated"].bool == false)
        #expect(r.state["context"]["user"].isNull)
        #expect(flows(r.state["coordinators"]) == ["app", "auth"])

        // A read gives the same state and does not change the revision.
        let read = try c.get(s)
        #expect(read.status == 200)
        #expect(read.header("ETag") == "\"15\"")
        #expect(read.json.canonical == r.state.canonical)
    }

    /// The seeds' logged-out deep link: kept in pendingDeepLink, opened right after sign-in.
    @Test func deepLinkWhileLoggedOutOpensAfterLogin() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        // During onboarding a link into main is kept; a newer one replaces it.
        let s = try c.createSession(#"{"deepLink": "wayfinder://profile"}"#)
        #expect(s.created.state.stackNames == ["walkthrough"])
        #expect(s.created.state["pendingDeepLink"].string == "wayfinder://profile")
        var r = try c.deepLink(s, "wayfinder://todos/2")
        #expect(r.status == 200)
        #expect(r.state["pendingDeepLink"].string == "wayfinder://todos/2")
        #expect(r.state.stackNames == ["walkthrough"])
        #expect(r.json["transitions"].array.isEmpty)
        r = try c.route(s, "skip")
        try expectAction(r, revision: r.state.revision ?? 0, stack: ["login"])
        #expect(r.state["pendingDeepLink"].string == "wayfinder://todos/2")
        // The same wrong password twice: the second changes nothing (no-op, same revision).
        let wrong = try c.route(s, "login", ["email": "a@b.c", "password": "short"])
        let revision = try #require(wrong.state.revision)
        #expect(wrong.json.ops == ["update"])
        let again = try c.route(s, "login", ["email": "a@b.c", "password": "short"])
        try expectAction(again, revision: revision, stack: ["login"])
        #expect(again.json["transitions"].array.isEmpty)
        // Sign-in opens the pending link: setRoot, then the link's transitions.
        r = try c.route(s, "login", ["email": "a@b.c", "password": "password1"])
        try expectAction(r, revision: revision + 1, stack: ["todoList", "todoDetail"])
        #expect(r.json.ops == ["setRoot", "selectTab", "push"])
        #expect(r.json.transitions[1].tab == "todos")
        #expect(r.state["pendingDeepLink"].isNull)
        #expect(r.state["navigation"]["selected"].string == "todos")
        #expect(r.state.top["title"].string == "Call the plumber")
        #expect(r.state["stack"].array.map { $0["presentation"].string } == ["root", "push"])
        // signup while signed in is a no-op.
        let signup = try c.deepLink(s, "wayfinder://signup")
        try expectAction(signup, revision: revision + 1, stack: ["todoList", "todoDetail"])
        #expect(signup.json["transitions"].array.isEmpty)
    }

    private func isURLSafe(_ c: Character) -> Bool { c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_") }
}

/// Checks a `200 {"state", "transitions"}` answer: status, ETag, revision and the stack's names.
func expectAction(_ r: Reply, revision: Int, stack: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
    try #require(r.status == 200, "\(r)", sourceLocation: sourceLocation)
    #expect(r.contentType?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
    #expect(r.header("ETag") == "\"\(revision)\"", sourceLocation: sourceLocation)
    #expect(r.state.revision == revision, sourceLocation: sourceLocation)
    #expect(r.state.stackNames == stack, sourceLocation: sourceLocation)
    #expect(r.json["transitions"].isArray, sourceLocation: sourceLocation)
}

/// The ids of a screen's list items.
func todoIDs(_ screen: J) -> [String] {
    screen["components"].array.filter { $0["type"].string == "list" }.flatMap { $0["items"].array }.compactMap { $0["id"].string }
}

/// The flow names of a coordinator tree, depth first.
func flows(_ coordinator: J) -> [String] {
    [coordinator["flow"].string ?? "?"] + coordinator["children"].array.flatMap(flows)
}
