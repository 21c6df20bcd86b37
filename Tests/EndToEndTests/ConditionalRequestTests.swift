import Foundation
import Testing

/// Issue 4, tests 3 and 4: ETag and 304, HEAD, and If-Match on mutations and DELETE.
@Suite struct ConditionalRequestTests {
    @Test func ifNoneMatchAndHead() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        _ = try c.route(s, "next")
        let full = try c.get(s)
        #expect(full.status == 200)
        #expect(full.header("ETag") == "\"2\"")
        #expect(full.json.revision == 2)
        // The current ETag: 304, no body, the ETag again.
        for condition in ["\"2\"", "W/\"2\"", "\"1\", \"2\"", "*"] {
            let r = try c.get(s, headers: [("If-None-Match", condition)])
            #expect(r.status == 304, "\(condition): \(r)")
            #expect(r.body.isEmpty)
            #expect(r.header("ETag") == "\"2\"")
        }
        // An old one: 200 with the state.
        let old = try c.get(s, headers: [("If-None-Match", "\"1\"")])
        #expect(old.status == 200)
        #expect(old.text == full.text)
        // HEAD: the same status and headers as GET, no body.
        let head = try c.call("HEAD", s.path, token: s.token)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("ETag") == full.header("ETag"))
        #expect(head.header("Content-Type") == full.header("Content-Type"))
        #expect(head.header("Content-Length") == full.header("Content-Length"))
        let head304 = try c.call("HEAD", s.path, token: s.token, headers: [("If-None-Match", "\"2\"")])
        #expect(head304.status == 304)
        #expect(head304.header("ETag") == "\"2\"")
        // HEAD fails where GET fails.
        #expect(try c.call("HEAD", s.path).status == 401)
        #expect(try c.call("HEAD", "/v1/sessions/AAAAAAAAAAAAAAAAAAAAAA", token: s.token).status == 404)
        // HEAD on the other GET endpoints.
        for path in ["/v1/flows", "/v1/flows?format=dot", "/healthz", "/readyz", "/metrics", "/openapi.yaml", "/"] {
            let get = try c.call("GET", path)
            let h = try c.call("HEAD", path)
            #expect(get.status == 200, "\(path)")
            #expect(h.status == get.status, "\(path)")
            #expect(h.body.isEmpty, "\(path)")
            #expect(h.header("Content-Type") == get.header("Content-Type"), "\(path)")
        }
        let events = try c.call("HEAD", s.path + "/events", token: s.token)
        #expect(events.status == 200)
        #expect(events.header("Content-Type")?.hasPrefix("text/event-stream") == true)
        // Reads never change the revision.
        #expect(try c.get(s).json.revision == 2)
    }

    @Test func ifMatchOnMutations() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        let start = try c.get(s)
        // Stale: 412 with the current ETag, nothing changes — for each mutation.
        let stale = [("If-Match", "\"7\"")]
        var answers = [
            try c.route(s, "openTodo", ["id": "1"], headers: stale),
            try c.tab(s, "todos", headers: stale),
            try c.deepLink(s, "wayfinder://profile", headers: stale),
            try c.back(s, headers: stale),
        ]
        answers.append(try c.route(s, "openTodo", ["id": "1"], headers: [("If-Match", "W/\"1\"")]))  // weak never matches
        for r in answers {
            #expect(r.status == 412, "\(r)")
            #expect(r.code == "revision_mismatch")
            #expect(r.header("ETag") == "\"1\"")
        }
        #expect(try c.get(s).text == start.text)
        // Current: applies.
        var r = try c.route(s, "openTodo", ["id": "1"], headers: [("If-Match", "\"1\"")])
        try expectAction(r, revision: 2, stack: ["todoList", "todoDetail"])
        #expect(r.json.ops == ["selectTab", "push"])
        r = try c.tab(s, "home", headers: [("If-Match", "\"2\"")])
        try expectAction(r, revision: 3, stack: ["dashboard"])
        // `*` and lists match the current revision.
        r = try c.tab(s, "profile", headers: [("If-Match", "*")])
        try expectAction(r, revision: 4, stack: ["profile"])
        r = try c.tab(s, "todos", headers: [("If-Match", "\"1\", \"4\"")])
        try expectAction(r, revision: 5, stack: ["todoList", "todoDetail"])
        // The old revision now is stale.
        r = try c.back(s, headers: [("If-Match", "\"4\"")])
        #expect(r.status == 412)
        #expect(r.header("ETag") == "\"5\"")
        #expect(try c.get(s).json.stackNames == ["todoList", "todoDetail"])
    }

    @Test func ifMatchOnDelete() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        _ = try c.route(s, "next")
        let stale = try c.call("DELETE", s.path, token: s.token, headers: [("If-Match", "\"1\"")])
        #expect(stale.status == 412)
        #expect(stale.code == "revision_mismatch")
        #expect(stale.header("ETag") == "\"2\"")
        #expect(try c.get(s).status == 200)
        let deleted = try c.call("DELETE", s.path, token: s.token, headers: [("If-Match", "\"2\"")])
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        // Gone for good.
        #expect(try c.get(s).status == 404)
        #expect(try c.call("DELETE", s.path, token: s.token).status == 404)
        #expect(try c.route(s, "next").status == 404)
    }
}
