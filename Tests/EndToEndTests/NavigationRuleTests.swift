import Foundation
import Testing

/// The sample application's rules as seen over HTTP (beyond the walkthrough).
@Suite struct NavigationRuleTests {
    @Test func platformVariantAndModals() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        // Tablet: addTodo is a sheet; back dismisses it; a blank title is a notice, repeated a no-op.
        let t = try c.signedInSession(platform: "tablet")
        _ = try c.tab(t, "todos")
        var r = try c.route(t, "addTodo")
        try expectAction(r, revision: 3, stack: ["todoList", "todoAdd"])
        #expect(r.state.top["presentation"].string == "sheet")
        let sheet = try #require(r.state.top["id"].string)
        r = try c.back(t)
        try expectAction(r, revision: 4, stack: ["todoList"])
        #expect(r.json.transitions == [T(op: "dismiss", screens: [sheet], tab: nil)])
        _ = try c.route(t, "addTodo")
        r = try c.route(t, "saveTodo", ["title": "   "])
        try expectAction(r, revision: 6, stack: ["todoList", "todoAdd"])
        #expect(r.json.ops == ["update"])
        #expect(r.state.top["components"].array.contains { $0["type"].string == "notice" })
        r = try c.route(t, "saveTodo", ["title": "   "])
        try expectAction(r, revision: 6, stack: ["todoList", "todoAdd"])
        #expect(r.json["transitions"].array.isEmpty)
        // Variant B: a single onboarding page.
        let b = try c.createSession(#"{"context": {"variant": "B"}}"#)
        #expect(b.created.state["context"]["variant"].string == "B")
        r = try c.route(b, "next")
        try expectAction(r, revision: 2, stack: ["login"])
        #expect(r.json.ops == ["setRoot"])
    }

    @Test func compositeNavigationAndDeepLinks() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        // openTodo behaves like wayfinder://todos/{id}.
        var r = try c.route(s, "openTodo", ["id": "3"])
        try expectAction(r, revision: 2, stack: ["todoList", "todoDetail"])
        #expect(r.json.ops == ["selectTab", "push"])
        #expect(r.json.transitions[0].tab == "todos")
        #expect(r.json["transitions"][1]["tab"].isNull)
        r = try c.route(s, "updateTodo", ["title": "Booked", "completed": false])
        try expectAction(r, revision: 3, stack: ["todoList"])
        #expect(r.json.ops == ["pop"])
        let items: [J] = r.state.top["components"].array.flatMap { $0["items"].array }
        let booked: J? = items.first { $0["id"].string == "3" }
        #expect(booked?["title"].string == "Booked")
        #expect(booked?["checked"].bool == false)
        // todos/new from another tab: select, present.
        _ = try c.tab(s, "home")
        r = try c.deepLink(s, "wayfinder://todos/new")
        try expectAction(r, revision: 5, stack: ["todoList", "todoAdd"])
        #expect(r.json.ops == ["selectTab", "present"])
        // profile/password over a modal: dismiss, selectTab, push — in that order.
        let modal = try #require(r.state.top["id"].string)
        r = try c.deepLink(s, "wayfinder://profile/password")
        try expectAction(r, revision: 6, stack: ["profile", "changePassword"])
        #expect(r.json.ops == ["dismiss", "selectTab", "push"])
        #expect(r.json.transitions[0].screens == [modal])
        // The same link again rebuilds the pushed screen: a fresh id.
        let form = try #require(r.state.top["id"].string)
        r = try c.deepLink(s, "wayfinder://profile/password")
        try expectAction(r, revision: 7, stack: ["profile", "changePassword"])
        #expect(r.json.transitions == [T(op: "pop", screens: [form], tab: nil), T(op: "push", screens: [r.state.top["id"].string ?? "?"], tab: nil)])
        #expect(r.state.top["id"].string != form)
        // A link that pushes nothing onto a stack already on screen is a no-op.
        r = try c.deepLink(s, "wayfinder://todos")
        try expectAction(r, revision: 8, stack: ["todoList"])
        r = try c.deepLink(s, "wayfinder://todos")
        try expectAction(r, revision: 8, stack: ["todoList"])
        #expect(r.json["transitions"].array.isEmpty)
        // The profile tab kept its own stack.
        r = try c.tab(s, "profile")
        try expectAction(r, revision: 9, stack: ["profile", "changePassword"])
        // Deleted todos are gone for links too.
        _ = try c.tab(s, "todos")
        _ = try c.route(s, "showTodo", ["id": "1"])
        r = try c.route(s, "deleteTodo")
        try expectAction(r, revision: 12, stack: ["todoList"])
        #expect(!todoIDs(r.state.top).contains("1"))
        #expect(try c.deepLink(s, "wayfinder://todos/1").code == "unknown_deeplink")
    }

    @Test func authFlows() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        // signup link, a blank name, then sign-up.
        let s = try c.createSession(#"{"context": {"onboarded": true}}"#)
        var r = try c.deepLink(s, "wayfinder://signup")
        try expectAction(r, revision: 2, stack: ["login", "register"])
        r = try c.route(s, "signUp", ["name": "", "email": "a@b.c", "password": "password1"])
        try expectAction(r, revision: 3, stack: ["login", "register"])
        #expect(r.json.ops == ["update"])
        r = try c.route(s, "signUp", ["name": "Ann", "email": "ann@b.c", "password": "password1"])
        try expectAction(r, revision: 4, stack: ["login", "register", "confirmSignUp"])
        r = try c.route(s, "confirmSignUp", ["code": try #require(server.mailer.code(to: "ann@b.c"))])
        try expectAction(r, revision: 5, stack: ["dashboard"])
        #expect(r.state["context"]["user"].string == "ann@b.c")
        // forgotPassword pushes changePassword onto login; back pops it and ends the flow.
        let f = try c.createSession(#"{"context": {"onboarded": true}}"#)
        let login = try #require(f.created.state.top["id"].string)
        r = try c.route(f, "forgotPassword")
        try expectAction(r, revision: 2, stack: ["login", "forgotPassword"])
        r = try c.route(f, "sendCode", ["email": "no at sign"])
        try expectAction(r, revision: 3, stack: ["login", "forgotPassword"])
        #expect(r.json.ops == ["update"])
        r = try c.back(f)
        try expectAction(r, revision: 4, stack: ["login"])
        #expect(r.state.top["id"].string == login)
        #expect(flows(r.state["coordinators"]) == ["app", "auth"])
        // Signed in but not onboarded: the link opens as soon as main takes the root.
        let p = try c.createSession(#"{"deepLink": "wayfinder://todos/2"}"#, identity: TestIdentity.token(subject: "user-a", email: "a@b.c"))
        #expect(p.created.state["pendingDeepLink"].string == "wayfinder://todos/2")
        r = try c.route(p, "skip")
        try expectAction(r, revision: 2, stack: ["todoList", "todoDetail"])
        #expect(r.json.ops == ["setRoot", "selectTab", "push"])
        #expect(r.state["pendingDeepLink"].isNull)
    }
}
