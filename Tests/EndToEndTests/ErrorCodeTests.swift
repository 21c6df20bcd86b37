import Foundation
import Testing

/// Issue 4, test 2: every error code of the contract, with its status, headers and members.
@Suite struct ErrorCodeTests {
    /// Checks a problem answer: status, problem+json, `code`, `status` member; returns the body.
    @discardableResult
    func expectProblem(_ r: Reply, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) -> J {
        #expect(r.status == status, "\(r)", sourceLocation: sourceLocation)
        #expect(r.contentType?.hasPrefix("application/problem+json") == true, "\(r)", sourceLocation: sourceLocation)
        #expect(r.code == code, "\(r)", sourceLocation: sourceLocation)
        #expect(r.json["status"].int == status, sourceLocation: sourceLocation)
        #expect(r.json["title"].string?.isEmpty == false, sourceLocation: sourceLocation)
        return r.json
    }

    @Test func unauthorized() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let attempts: [[(String, String)]] = [
            [],  // missing
            [("Authorization", "Basic \(s.token)")],  // wrong scheme
            [("Authorization", "Bearer")],  // no token
            [("Authorization", "Bearer a b")],  // malformed token
            [("Authorization", "Bearer \(s.token)!")],
        ]
        for headers in attempts {
            let r = try c.call("GET", s.path, headers: headers)
            expectProblem(r, 401, "unauthorized")
            #expect(r.header("WWW-Authenticate")?.lowercased().hasPrefix("bearer") == true, "\(headers)")
        }
        // Mutations too, before the body is looked at.
        let r = try c.call("POST", s.path + "/routes", json: "not json")
        expectProblem(r, 401, "unauthorized")
        // An unknown id without a token is 401, not 404 (auth is checked first).
        expectProblem(try c.call("GET", "/v1/sessions/AAAAAAAAAAAAAAAAAAAAAA"), 401, "unauthorized")
        // The scheme is case-insensitive.
        for scheme in ["bearer", "BEARER", "BeArEr"] {
            let ok = try c.call("GET", s.path, headers: [("Authorization", "\(scheme) \(s.token)")])
            #expect(ok.status == 200, "\(scheme): \(ok)")
        }
    }

    @Test func notFoundIsTheSameForUnknownIDAndWrongToken() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let other = try c.createSession()
        let probe = [("X-Request-Id", "probe-1")]
        let unknownID = try c.call("GET", "/v1/sessions/AAAAAAAAAAAAAAAAAAAAAA", token: s.token, headers: probe)
        let wrongToken = try c.call("GET", s.path, token: other.token, headers: probe)
        let body = expectProblem(unknownID, 404, "not_found")
        expectProblem(wrongToken, 404, "not_found")
        #expect(!body.keys.contains("instance"))
        #expect(body["requestId"].string == "probe-1")
        #expect(unknownID.text == wrongToken.text.replacingOccurrences(of: s.id, with: "AAAAAAAAAAAAAAAAAAAAAA"))
        #expect(unknownID.body == wrongToken.body, "the bodies must not tell the two apart")
        #expect(!wrongToken.text.contains(s.id))
        #expect(unknownID.header("Content-Type") == wrongToken.header("Content-Type"))
        // Without a request id of ours the bodies differ only in requestId.
        let a = try c.call("GET", "/v1/sessions/AAAAAAAAAAAAAAAAAAAAAA", token: s.token)
        let b = try c.call("GET", s.path, token: other.token)
        var ja = a.json.objectValue ?? [:], jb = b.json.objectValue ?? [:]
        // Fresh ids: one prefix per process, "-", a counter in base 36; in the header and the body.
        let ids = [a, b].map { $0.header("X-Request-Id") ?? "" }
        #expect(ids[0] != ids[1])
        #expect(ids[0].prefix(7) == ids[1].prefix(7))
        for (id, response) in zip(ids, [a, b]) {
            #expect(id.wholeMatch(of: /[A-Za-z0-9_-]{6}-[0-9a-z]+/) != nil, "\(id)")
            #expect(response.json["requestId"].string == id)
        }
        #expect(ja.removeValue(forKey: "requestId") != nil && jb.removeValue(forKey: "requestId") != nil)
        #expect(J(ja).canonical == J(jb).canonical)
        // Every session endpoint answers the same way for a wrong token, mutations included.
        for (method, suffix) in [("DELETE", ""), ("POST", "/routes"), ("POST", "/back"), ("POST", "/tab"), ("POST", "/deeplinks"), ("GET", "/events")] {
            let r = try c.call(method, s.path + suffix, token: other.token, json: method == "POST" ? #"{"route":"next"}"# : nil)
            expectProblem(r, 404, "not_found")
        }
        // The session itself is untouched.
        #expect(try c.get(s).header("ETag") == "\"1\"")
    }

    /// A token that matched once is remembered (no hash on the next request); a wrong token
    /// after it, of the same length or not, is still refused, and the right one still works.
    @Test func aWrongTokenIsRefusedAfterTheRightOneWasUsed() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let other = try c.createSession()
        #expect(try c.call("GET", s.path, token: s.token).status == 200)
        #expect(try c.call("GET", s.path, token: s.token).status == 200)
        let sameLength = String(s.token.dropLast()) + (s.token.last == "A" ? "B" : "A")
        for wrong in [other.token, sameLength, s.token + "A", String(s.token.dropLast())] {
            expectProblem(try c.call("GET", s.path, token: wrong), 404, "not_found")
            expectProblem(try c.call("POST", s.path + "/routes", token: wrong, json: #"{"route":"next"}"#), 404, "not_found")
        }
        #expect(try c.call("GET", s.path, token: s.token).status == 200)
        #expect(try c.get(s).header("ETag") == "\"1\"")
    }

    @Test func unknownPathsAndWrongMethods() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        for path in ["/v1/nope", "/v1", "/v1/", "/v1/sessions/\(s.id)/nope", "/v1/sessions/\(s.id)/routes/extra", "/v1/flows/app"] {
            let r = try c.call("GET", path, token: s.token)
            let body = expectProblem(r, 404, "not_found")
            #expect(!body.keys.contains("instance"), "\(path)")
        }
        let cases: [(String, String, String)] = [
            ("PUT", "/v1/sessions", "POST"),
            ("GET", "/v1/sessions", "POST"),
            ("POST", s.path, "GET, HEAD, DELETE"),
            ("PATCH", s.path, "GET, HEAD, DELETE"),
            ("GET", s.path + "/routes", "POST"),
            ("DELETE", s.path + "/tab", "POST"),
            ("DELETE", s.path + "/events", "GET, HEAD, POST"),
            ("POST", s.path + "/history", "GET, HEAD"),
            ("DELETE", "/v1/flows", "GET, HEAD"),
            ("POST", "/healthz", "GET, HEAD"),
        ]
        for (method, path, allow) in cases {
            // No Authorization: 405 comes before 401.
            let r = try c.call(method, path)
            expectProblem(r, 405, "method_not_allowed")
            #expect(r.header("Allow") == allow, "\(method) \(path)")
        }
    }

    /// "Order of checks": unknown path 404, wrong method 405, 401 and 404 all come before 413.
    @Test func tooLargeBodiesComeAfterPathMethodAndAuthChecks() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let s = try server.client().createSession()
        let big = #"{"route":"next"\#(String(repeating: " ", count: 1 << 20))}"#
        // The body is never read, but the contract's earlier checks still come first.
        let cases: [(String, String, String?, Int)] = [
            ("POST", "/v1/nope", s.token, 404),
            ("PUT", s.path + "/routes", s.token, 405),
            ("POST", s.path + "/routes", nil, 401),
            ("POST", "/v1/sessions/AAAAAAAAAAAAAAAAAAAAAA/routes", s.token, 404),
            ("POST", s.path + "/routes", s.token, 413),
        ]
        for (method, path, token, status) in cases {
            let r = try server.client().call(method, path, token: token, json: big)
            #expect(r.status == status, "\(method) \(path): \(r.status) \(r.code ?? "")")
        }
    }

    @Test func staleScreenAndNothingToPop() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let firstPage = try #require(s.created.state.top["id"].string)
        // Back at a root screen.
        let root = try c.back(s)
        expectProblem(root, 422, "nothing_to_pop")
        let pushed = try c.route(s, "next")
        let secondPage = try #require(pushed.state.top["id"].string)
        // Back naming a screen that is not on top: 409, nothing changes.
        let stale = try c.back(s, screen: firstPage)
        expectProblem(stale, 409, "stale_screen")
        #expect(try c.get(s).header("ETag") == "\"2\"")
        // Back naming the top screen pops it; a double tap is refused.
        let popped = try c.back(s, screen: secondPage)
        try expectAction(popped, revision: 3, stack: ["walkthrough"])
        #expect(popped.json.transitions == [T(op: "pop", screens: [secondPage], tab: nil)])
        expectProblem(try c.back(s, screen: secondPage), 409, "stale_screen")
        expectProblem(try c.back(s), 422, "nothing_to_pop")
        #expect(try c.get(s).header("ETag") == "\"3\"")
    }

    @Test func revisionMismatch() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        _ = try c.route(s, "next")
        let r = try c.route(s, "next", headers: [("If-Match", "\"1\"")])
        expectProblem(r, 412, "revision_mismatch")
        #expect(r.header("ETag") == "\"2\"")
        let after = try c.get(s)
        #expect(after.header("ETag") == "\"2\"")
        #expect(after.json.stackNames == ["walkthrough", "walkthrough"])
    }

    @Test func payloadTooLargeAndURITooLongAndHeadersTooLarge() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        // A body one byte over 1 MiB, even a valid JSON one.
        let padding = String(repeating: " ", count: (1 << 20) - 15)
        let big = #"{"route":"next"\#(padding)}"#
        #expect(big.utf8.count > 1 << 20)
        expectProblem(try c.call("POST", s.path + "/routes", token: s.token, json: big), 413, "payload_too_large")
        let fresh = server.client()
        // Exactly 1 MiB is accepted.
        let limit = #"{"route":"next"\#(String(repeating: " ", count: (1 << 20) - 16))}"#
        #expect(limit.utf8.count == 1 << 20)
        let fits = try fresh.call("POST", s.path + "/routes", token: s.token, json: limit)
        #expect(fits.status == 200, "\(fits.status) \(fits.code ?? "")")
        // A request line over 8 KiB.
        expectProblem(try server.client().call("GET", s.path + "?pad=" + String(repeating: "x", count: 9000), token: s.token), 414, "uri_too_long")
        // Headers over 16 KiB, or more than 100 fields.
        expectProblem(try server.client().call("GET", s.path, token: s.token, headers: [("X-Pad", String(repeating: "y", count: 17 * 1024))]), 431, "headers_too_large")
        let many = (0..<101).map { ("X-Field-\($0)", "v") }
        expectProblem(try server.client().call("GET", s.path, token: s.token, headers: many), 431, "headers_too_large")
        #expect(try server.client().get(s).header("ETag") == "\"2\"")
    }

    @Test func unsupportedMediaTypeAndBadJSONAndBadRequest() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let next = #"{"route":"next"}"#
        // A body that is not application/json.
        for type in ["text/plain", "application/jsonx", "application/json; charset=latin-1", "application/x-www-form-urlencoded"] {
            let r = try c.call("POST", s.path + "/routes", token: s.token, json: next, headers: [("Content-Type", type)])
            expectProblem(r, 415, "unsupported_media_type")
        }
        // No Content-Type at all with a body.
        let none = try c.call("POST", s.path + "/routes", token: s.token, json: next, headers: [("Content-Type", "")])
        expectProblem(none, 415, "unsupported_media_type")
        // 415 comes before 400.
        expectProblem(try c.call("POST", s.path + "/routes", token: s.token, json: "{", headers: [("Content-Type", "text/plain")]), 415, "unsupported_media_type")
        #expect(try c.get(s).header("ETag") == "\"1\"")
        // charset=utf-8 is fine, in any case.
        var r = try c.call("POST", s.path + "/routes", token: s.token, json: next, headers: [("Content-Type", "application/json; charset=utf-8")])
        try expectAction(r, revision: 2, stack: ["walkthrough", "walkthrough"])
        r = try c.call("POST", s.path + "/routes", token: s.token, json: next, headers: [("Content-Type", "Application/JSON;charset=UTF-8")])
        try expectAction(r, revision: 3, stack: ["walkthrough", "walkthrough", "walkthrough"])
        // Not JSON: 400 bad_json, nothing changes; also at creation.
        for text in ["{", "{\"route\":}", "nope", "{\"route\":\"next\"} x"] {
            expectProblem(try c.call("POST", s.path + "/routes", token: s.token, json: text), 400, "bad_json")
        }
        expectProblem(try c.call("POST", "/v1/sessions", json: "{"), 400, "bad_json")
        // 400 comes before 412.
        expectProblem(try c.call("POST", s.path + "/routes", token: s.token, json: "{", headers: [("If-Match", "\"1\"")]), 400, "bad_json")
        #expect(try c.get(s).header("ETag") == "\"3\"")
        // A chunked JSON body is fine; an empty body needs no Content-Type.
        let chunked = try c.curl.request("POST", c.base + s.path + "/routes", headers: [s.auth, ("Content-Type", "application/json")],
            upload: .chunked([Array(#"{"rou"#.utf8), Array(#"te":"back"#.utf8), Array("\"}".utf8)]))
        #expect(chunked.status == 422 && Reply(chunked).code == "route_unavailable", "\(Reply(chunked))")
        let empty = try c.call("POST", s.path + "/back", token: s.token, headers: [("Content-Type", "text/plain")])
        try expectAction(empty, revision: 4, stack: ["walkthrough", "walkthrough"])
        // 404 comes before 415.
        let other = try c.createSession()
        expectProblem(try c.call("POST", s.path + "/routes", token: other.token, json: "x", headers: [("Content-Type", "text/plain")]), 404, "not_found")
        // Malformed HTTP: a header name with a space in it.
        let bad = try server.client().call("GET", "/healthz", headers: [("Bad Header", "x")])
        expectProblem(bad, 400, "bad_request")
        // A request method that is not a token.
        let badMethod = try server.client().call("GE(T", "/healthz")
        expectProblem(badMethod, 400, "bad_request")
    }

    @Test func invalidParams() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession(jsonText(["context": ["onboarded": true]]))
        func post(_ path: String, _ body: String) throws -> J {
            let r = try c.call("POST", s.path + path, token: s.token, json: body)
            return expectProblem(r, 422, "invalid_params")
        }
        func names(_ j: J) -> [String] { j["invalidParams"].array.compactMap { $0["name"].string } }
        var j = try post("/routes", "{}")
        #expect(j["param"].string == "route")
        #expect(names(j) == ["route"])
        #expect(j["invalidParams"][0]["reason"].string?.isEmpty == false)
        j = try post("/routes", #"{"route": 5}"#)
        #expect(j["param"].string == "route")
        j = try post("/routes", #"{"route": ""}"#)
        #expect(j["param"].string == "route")
        j = try post("/routes", #"{"route": "login", "params": [1]}"#)
        #expect(j["param"].string == "params")
        j = try post("/routes", #"{"route": "login", "params": "x"}"#)
        #expect(j["param"].string == "params")
        for body in ["[1]", "\"next\"", "5", "null", "true"] {
            j = try post("/routes", body)
            #expect(j["param"].string == "body", "\(body)")
            #expect(names(j) == ["body"])
        }
        // Ill-typed and missing params: every bad one, in the catalog's order; param is the first.
        j = try post("/routes", #"{"route": "login", "params": {"email": 5}}"#)
        #expect(j["param"].string == "email")
        #expect(names(j) == ["email", "password"])
        j = try post("/routes", #"{"route": "login", "params": {"password": "password1"}}"#)
        #expect(j["param"].string == "email")
        #expect(names(j) == ["email"])
        j = try post("/routes", #"{"route": "login", "params": {"email": "a@b.c", "password": null}}"#)
        #expect(names(j) == ["password"])
        // tab, url and screen fields.
        j = try post("/deeplinks", #"{"url": 7}"#)
        #expect(j["param"].string == "url")
        j = try post("/deeplinks", "{}")
        #expect(j["param"].string == "url")
        j = try post("/back", #"{"screen": 1}"#)
        #expect(j["param"].string == "screen")
        j = try post("/back", #"{"screen": ""}"#)
        #expect(j["param"].string == "screen")
        // A context that is not an object at creation.
        let create = try c.call("POST", "/v1/sessions", json: #"{"context": 5}"#)
        expectProblem(create, 422, "invalid_params")
        #expect(create.json["param"].string == "context")
        #expect(expectProblem(try c.call("POST", "/v1/sessions", json: "[]"), 422, "invalid_params")["param"].string == "body")
        for (body, param) in [
            (#"{"context": {"platform": "watch"}}"#, "context.platform"),
            (#"{"context": {"onboarded": "yes"}}"#, "context.onboarded"),
            (#"{"deepLink": ""}"#, "deepLink"),
            (#"{"deepLink": 5}"#, "deepLink"),
        ] {
            #expect(expectProblem(try c.call("POST", "/v1/sessions", json: body), 422, "invalid_params")["param"].string == param)
        }
        // Nothing above changed the session.
        #expect(try c.get(s).header("ETag") == "\"1\"")

        // An unknown todo id.
        let main = try c.signedInSession()
        _ = try c.tab(main, "todos")
        let unknown = try c.route(main, "showTodo", ["id": "99"])
        j = expectProblem(unknown, 422, "invalid_params")
        #expect(j["param"].string == "id")
        let ill = try c.route(main, "showTodo", ["id": 2])
        #expect(expectProblem(ill, 422, "invalid_params")["param"].string == "id")
        // updateTodo: completed must be a boolean.
        _ = try c.route(main, "showTodo", ["id": "1"])
        let badCompleted = try c.route(main, "updateTodo", ["title": "x", "completed": "yes"])
        #expect(expectProblem(badCompleted, 422, "invalid_params")["param"].string == "completed")
        #expect(try c.get(main).header("ETag") == "\"3\"")
    }

    @Test func routeUnavailable() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let r = try c.route(s, "logout")
        let j = expectProblem(r, 422, "route_unavailable")
        #expect(j["availableRoutes"].array.compactMap(\.string) == s.created.state.top["routes"].array.compactMap(\.string))
        #expect(j["availableRoutes"].array.compactMap(\.string) == ["next", "skip"])
        // In main, on a todo's detail: the top screen's routes, the responder chain included.
        let main = try c.signedInSession()
        _ = try c.tab(main, "todos")
        let detail = try c.route(main, "showTodo", ["id": "1"])
        let u = try c.route(main, "addTodo")
        let uj = expectProblem(u, 422, "route_unavailable")
        #expect(Set(uj["availableRoutes"].array.compactMap(\.string)) == Set(detail.state.top["routes"].array.compactMap(\.string)))
        #expect(uj["availableRoutes"].array.compactMap(\.string) == detail.state.top["routes"].array.compactMap(\.string))
        #expect(try c.get(main).header("ETag") == "\"3\"")
    }

    @Test func unknownDeepLinks() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        for url in ["wayfinder://nope", "wayfinder://todos/", "wayfinder://todos/99", "wayfinder://Todos", "wayfinder://todos?x=1", "https://todos/2"] {
            expectProblem(try c.deepLink(s, url), 422, "unknown_deeplink")
        }
        #expect(try c.get(s).header("ETag") == "\"1\"")
        // At creation: no session is created.
        let before = try #require(try c.activeSessions())
        let r = try c.call("POST", "/v1/sessions", json: #"{"deepLink": "wayfinder://nope"}"#)
        expectProblem(r, 422, "unknown_deeplink")
        #expect(r.header("Location") == nil)
        let r2 = try c.call(
            "POST", "/v1/sessions", token: TestIdentity.token(subject: "user-a"), json: #"{"context":{"onboarded":true},"deepLink": "wayfinder://todos/42"}"#)
        expectProblem(r2, 422, "unknown_deeplink")
        #expect(try c.activeSessions() == before)
        // A good link at creation opens at once.
        let linked = try c.createSession(#"{"context":{"onboarded":true},"deepLink": "wayfinder://todos/2"}"#, identity: TestIdentity.token(subject: "user-a"))
        #expect(linked.created.state.stackNames == ["todoList", "todoDetail"])
        #expect(try c.activeSessions() == before + 1)
    }

    @Test func idempotencyKeyReused() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let first = try c.route(s, "next", headers: [("Idempotency-Key", "k1")])
        try expectAction(first, revision: 2, stack: ["walkthrough", "walkthrough"])
        let reused = try c.route(s, "skip", headers: [("Idempotency-Key", "k1")])
        expectProblem(reused, 422, "idempotency_key_reused")
        // Another path with the same key and the same body is another request too.
        let other = try c.call("POST", s.path + "/back", token: s.token, json: #"{"route":"next"}"#, headers: [("Idempotency-Key", "k1")])
        expectProblem(other, 422, "idempotency_key_reused")
        #expect(try c.get(s).header("ETag") == "\"2\"")
    }

    @Test func idempotencyKeyInvalid() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        // Anything but visible ASCII: a space or a tab inside, a byte past 0x7E. The HTTP layer
        // reads bytes that are not UTF-8 as U+FFFD, so such keys could collide with one another.
        for key in ["clé", "ключ", "two words", "tab\there", "\u{FFFD}"] {
            let r = try c.route(s, "next", headers: [("Idempotency-Key", key)])
            let j = expectProblem(r, 400, "idempotency_key_invalid")
            #expect(j["instance"].string == s.path + "/routes")
            #expect(r.header("Idempotent-Replayed") == nil)
        }
        // Nothing ran and nothing was stored: the same request with a good key applies once.
        #expect(try c.get(s).header("ETag") == "\"1\"")
        let good = try c.route(s, "next", headers: [("Idempotency-Key", "!visible~ASCII#1")])
        try expectAction(good, revision: 2, stack: ["walkthrough", "walkthrough"])
        #expect(good.header("Idempotent-Replayed") == nil)
        // Too long is said first; a body that is not JSON before either.
        let long = String(repeating: "é", count: 200)
        expectProblem(try c.route(s, "next", headers: [("Idempotency-Key", long)]), 400, "idempotency_key_too_long")
        expectProblem(try c.call("POST", s.path + "/routes", token: s.token, json: "{", headers: [("Idempotency-Key", "é")]), 400, "bad_json")
        #expect(try c.get(s).header("ETag") == "\"2\"")
    }

    @Test func duplicateMemberNamesAreBadJSON() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        // Which of the two would win is for no reader to guess: the body is refused.
        for (path, body, name) in [
            ("/tab", #"{"tab":"profile","tab":"todos"}"#, "tab"),
            ("/routes", #"{"route":"openTodo","params":{"id":"1","id":"2"}}"#, "id"),
            ("/deeplinks", #"{"url":"wayfinder://todos/1","extra":{"a":[{"b":1,"b":2}]},"url":"wayfinder://profile"}"#, "b"),
        ] {
            let j = expectProblem(try c.call("POST", s.path + path, token: s.token, json: body), 400, "bad_json")
            #expect(j["detail"].string?.contains(#"duplicate member name "\#(name)""#) == true, "\(j)")
        }
        // Also at creation: no session is made.
        let before = try #require(try c.activeSessions())
        let create = try c.call("POST", "/v1/sessions", json: #"{"context":{"onboarded":true,"onboarded":false}}"#)
        #expect(expectProblem(create, 400, "bad_json")["detail"].string?.contains(#""onboarded""#) == true)
        #expect(try c.activeSessions() == before)
        #expect(try c.get(s).header("ETag") == "\"1\"")
    }

    @Test func undeclaredRouteParamsAreInvalidParams() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession(jsonText(["context": ["onboarded": true]]))
        // login declares email and password: anything else is refused, after the declared ones.
        var r = try c.route(s, "login", ["email": "a@b.c", "password": "password1", "remember": true])
        var j = expectProblem(r, 422, "invalid_params")
        #expect(j["param"].string == "remember")
        #expect(j["invalidParams"].canonical == #"[{"name":"remember","reason":"is not a parameter of route 'login'"}]"#)
        r = try c.route(s, "login", ["email": 5, "password": "password1", "b": 1, "a": 2])
        j = expectProblem(r, 422, "invalid_params")
        #expect(j["param"].string == "email")
        #expect(j["invalidParams"].array.compactMap { $0["name"].string } == ["email", "a", "b"])
        // A route without params takes none; null counts as absent.
        #expect(expectProblem(try c.route(s, "register", ["x": "y"]), 422, "invalid_params")["param"].string == "x")
        // Refused before the flow runs: no effect (sign-in), no revision, no journal entry.
        #expect(try c.get(s).header("ETag") == "\"1\"")
        let history = try c.call("GET", s.path + "/history", token: s.token)
        #expect(history.json["entries"].array.count == 1, "\(history)")
        let ok = try c.route(s, "register", ["x": NSNull()])
        try expectAction(ok, revision: 2, stack: ["login", "register"])
    }

    @Test func sessionLimit() throws {
        let server = try InProcessServer { $0.maxSessions = 3 }
        defer { server.stop() }
        let c = server.client()
        let sessions = try (0..<3).map { _ in try c.createSession() }
        let r = try c.call("POST", "/v1/sessions", json: "{}")
        expectProblem(r, 503, "session_limit")
        #expect(Int(r.header("Retry-After") ?? "") != nil, "\(r)")
        #expect(try c.activeSessions() == 3)
        // Deleting one makes room.
        #expect(try c.call("DELETE", sessions[0].path, token: sessions[0].token).status == 204)
        #expect(try c.call("POST", "/v1/sessions", json: "{}").status == 201)
        expectProblem(try c.call("POST", "/v1/sessions"), 503, "session_limit")
    }

    @Test func tabEndpointOrderOfChecks() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        // No tab bar on screen: route_unavailable, even for an unknown tab.
        let s = try c.createSession()
        expectProblem(try c.tab(s, "todos"), 422, "route_unavailable")
        expectProblem(try c.tab(s, "settings"), 422, "route_unavailable")
        // A modal over the tab bar: route_unavailable, even for an unknown tab.
        let m = try c.signedInSession()
        _ = try c.tab(m, "todos")
        _ = try c.route(m, "addTodo")
        let modalTop = try c.get(m)
        #expect(modalTop.json.stackNames == ["todoList", "todoAdd"])
        let overModal = try c.tab(m, "home")
        let j = expectProblem(overModal, 422, "route_unavailable")
        #expect(j["availableRoutes"].array.compactMap(\.string) == modalTop.json.top["routes"].array.compactMap(\.string))
        expectProblem(try c.tab(m, "settings"), 422, "route_unavailable")
        _ = try c.route(m, "cancel")
        // The tab bar on screen: an unknown tab is invalid_params naming `tab`.
        let unknown = try c.tab(m, "settings")
        #expect(expectProblem(unknown, 422, "invalid_params")["param"].string == "tab")
        #expect(expectProblem(try c.tab(m, ""), 422, "invalid_params")["param"].string == "tab")
        #expect(expectProblem(try c.call("POST", m.path + "/tab", token: m.token, json: "{}"), 422, "invalid_params")["param"].string == "tab")
        // Tapping the selected tab pops to its root; again is a no-op.
        _ = try c.route(m, "showTodo", ["id": "1"])
        let before = try #require(try c.get(m).json.revision)
        let popped = try c.tab(m, "todos")
        try expectAction(popped, revision: before + 1, stack: ["todoList"])
        #expect(popped.json.ops == ["pop"])
        let noop = try c.tab(m, "todos")
        try expectAction(noop, revision: before + 1, stack: ["todoList"])
        #expect(noop.json["transitions"].array.isEmpty)
    }
}
