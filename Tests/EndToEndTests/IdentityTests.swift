import Foundation
import Testing
import WayfinderAPI
import WayfinderCore
import WayfinderHTTP

/// Who the user is: proven by a verified JWT (or the team's own authenticator), never claimed in
/// the context; found again by user through the operator key. On the memory store (Redis when
/// the suite runs on it) and SQLite.
@Suite struct IdentityTests {
    static let stores: [InProcessServer.StoreKind] = [.memory, .sqlite]

    func problem(_ r: Reply, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == status, "\(r)", sourceLocation: sourceLocation)
        #expect(r.contentType?.hasPrefix("application/problem+json") == true, "\(r)", sourceLocation: sourceLocation)
        #expect(r.code == code, "\(r)", sourceLocation: sourceLocation)
    }

    @Test(arguments: stores) func aClientCannotClaimToBeSignedIn(store: InProcessServer.StoreKind) throws {
        let server = try InProcessServer(store: store)
        defer { server.stop() }
        let c = server.client()
        for context in [#"{"onboarded":true,"authenticated":true,"user":"admin@example.com"}"#, #"{"user":"admin@example.com"}"#, #"{"authenticated":false}"#] {
            let r = try c.call("POST", "/v1/sessions", json: #"{"context":\#(context)}"#)
            problem(r, 422, "context_not_settable")
            #expect(r.json["param"].string?.hasPrefix("context.") == true, "\(r)")
            #expect(r.header("Location") == nil)
        }
        #expect(try c.activeSessions() == 0, "nothing of a refused create is stored")
        // The members a client may set still go through.
        let hinted = try c.createSession(#"{"context":{"onboarded":true,"platform":"tablet","variant":"B"}}"#)
        #expect(hinted.created.state["context"]["platform"].string == "tablet")
        #expect(hinted.created.state["context"]["authenticated"].bool == false)
        #expect(hinted.created.state.top["name"].string == "login")
    }

    @Test(arguments: stores) func aVerifiedTokenSignsTheSessionIn(store: InProcessServer.StoreKind) throws {
        let server = try InProcessServer(store: store)
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession(subject: "ada", email: "ada@example.com")
        #expect(s.created.state["context"]["authenticated"].bool == true)
        #expect(s.created.state["context"]["user"].string == "ada@example.com")
        #expect(s.created.state.top["name"].string == "dashboard")
        #expect(!s.created.state["identity"].exists, "the identity is never shown in a state")
        // Requests on the session need only its token: the identity was bound when it was created.
        #expect(try c.tab(s, "todos").status == 200)
        // The journal records the identity with the start, so a replay runs as the same user.
        let history = try c.call("GET", s.path + "/history", token: s.token)
        #expect(history.json["entries"][0]["actions"][0]["identity"]["sub"].string == "ada")
    }

    @Test(arguments: stores) func forgedTokensAreRefusedAndLeaveNoTrace(store: InProcessServer.StoreKind) throws {
        let server = try InProcessServer(store: store)
        defer { server.stop() }
        let c = server.client()
        let unsigned = {
            let header = Array(#"{"alg":"none","typ":"JWT"}"#.utf8)
            let now = Int(Date().timeIntervalSince1970)
            let claims = Array(#"{"iss":"\#(TestIdentity.issuer)","aud":"\#(TestIdentity.audience)","sub":"ada","exp":\#(now + 600)}"#.utf8)
            return base64URL(header) + "." + base64URL(claims) + "."
        }()
        let cases: [(String, String)] = [
            (TestIdentity.token(subject: "ada", key: Array("another secret of the same length, 32+ bytes".utf8)), "token_signature_invalid"),
            (unsigned, "token_algorithm_not_allowed"),
            (TestIdentity.token(subject: "ada", lifetime: -3600), "token_expired"),
            (TestIdentity.token(subject: "ada", audience: "another-app"), "token_audience_mismatch"),
            ("not-a-jwt", "token_malformed"),
        ]
        for (token, code) in cases {
            let r = try c.call("POST", "/v1/sessions", token: token, json: #"{"context":{"onboarded":true}}"#)
            problem(r, 401, code)
            #expect(r.header("WWW-Authenticate")?.hasPrefix("Bearer error=\"invalid_token\"") == true, "\(r)")
        }
        let basic = try c.call("POST", "/v1/sessions", json: "{}", headers: [("Authorization", "Basic YWRhOnNlY3JldA==")])
        problem(basic, 401, "token_malformed")
        #expect(try c.activeSessions() == 0)
    }

    @Test func aSessionTokenOpensOnlyItsSession() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let a = try c.signedInSession(subject: "ada", email: "ada@example.com")
        let b = try c.signedInSession(subject: "bob", email: "bob@example.com")
        problem(try c.call("GET", b.path, token: a.token), 404, "not_found")
        problem(try c.call("POST", b.path + "/tab", token: a.token, json: #"{"tab":"todos"}"#), 404, "not_found")
        problem(try c.call("GET", b.path + "/history", token: a.token), 404, "not_found")
        #expect(try c.get(b).header("ETag") == "\"1\"", "b is unchanged")
    }

    @Test(arguments: stores) func theOperatorFindsAndEndsAUsersSessions(store: InProcessServer.StoreKind) throws {
        let server = try InProcessServer(store: store)
        defer { server.stop() }
        let c = server.client()
        let phone = try c.signedInSession(subject: "ada|1", email: "ada@example.com")
        let laptop = try c.signedInSession(platform: "tablet", subject: "ada|1", email: "ada@example.com")
        let bob = try c.signedInSession(subject: "bob", email: "bob@example.com")
        let anonymous = try c.createSession()
        let path = "/v1/users/ada%7C1/sessions"

        // Without the operator key, with a wrong one, and with a session's token.
        problem(try c.call("GET", path), 401, "operator_unauthorized")
        problem(try c.call("GET", path, token: "not-the-operator-key-but-as-long-as-one-0123"), 401, "operator_unauthorized")
        problem(try c.call("DELETE", path, token: phone.token), 401, "operator_unauthorized")
        #expect(try c.activeSessions() == 4, "a refused operator request ends nothing")

        let listed = try c.call("GET", path, token: TestIdentity.operatorKey)
        #expect(listed.status == 200, "\(listed)")
        #expect(Set(listed.json["sessions"].array.compactMap { $0["id"].string }) == [phone.id, laptop.id])
        #expect(listed.json["sessions"].array.allSatisfy { $0["revision"].int == 1 })
        // The operator reads any session's history.
        #expect(try c.call("GET", bob.path + "/history", token: TestIdentity.operatorKey).status == 200)

        // Signing Ada out everywhere ends both sessions and their streams, with a last event.
        let stream = EventReader(url: c.base + phone.path + "/events", headers: [phone.auth])
        #expect(stream.next()?.event == "state")
        let ended = try c.call("DELETE", path, token: TestIdentity.operatorKey)
        #expect(ended.status == 200, "\(ended)")
        #expect(ended.json["ended"].int == 2)
        #expect(stream.waitUntilFinished(within: 10), "the stream outlived its session")
        #expect(stream.pending.map(\.event) == ["ended"])
        problem(try c.get(phone), 404, "not_found")
        problem(try c.get(laptop), 404, "not_found")
        #expect(try c.get(bob).status == 200)
        #expect(try c.get(anonymous).status == 200)
        #expect(try c.call("GET", path, token: TestIdentity.operatorKey).json["sessions"].array.isEmpty)
        // The operator ends one session by its id.
        #expect(try c.call("DELETE", bob.path, token: TestIdentity.operatorKey).status == 204)
        problem(try c.get(bob), 404, "not_found")
    }

    @Test func operatorEndpointsAreOffWithoutAKey() throws {
        let server = try InProcessServer { $0.operatorKey = nil }
        defer { server.stop() }
        let c = server.client()
        problem(try c.call("GET", "/v1/users/ada/sessions", token: TestIdentity.operatorKey), 404, "not_found")
        let s = try c.signedInSession()
        problem(try c.call("GET", s.path + "/history", token: TestIdentity.operatorKey), 404, "not_found")
    }

    @Test(arguments: stores) func aRewindNeverRestoresASignedInState(store: InProcessServer.StoreKind) throws {
        let server = try InProcessServer(store: store)
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession(#"{"context":{"onboarded":true}}"#)
        var r = try c.route(s, "login", ["email": "a@b.c", "password": "password1"])
        #expect(r.state.top["name"].string == "dashboard")
        r = try c.tab(s, "profile")
        r = try c.route(s, "logout")
        #expect(r.state["context"]["authenticated"].bool == false)
        let revision = try #require(r.state["revision"].int)
        for signedIn in 2..<revision {
            let refused = try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision":\#(signedIn)}"#)
            problem(refused, 409, "rewind_across_sign_in")
        }
        #expect(try c.get(s).header("ETag") == "\"\(revision)\"", "a refused rewind changes nothing")
        // Back to the sign-in screen of revision 1 is allowed: it was signed out then too.
        let allowed = try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision":1}"#)
        #expect(allowed.status == 200, "\(allowed)")
        #expect(allowed.state["context"]["authenticated"].bool == false)
        // Signed in again, as someone else: their session may go back to the sign-in screen (nobody
        // was signed in then), never to the screens of the first user.
        r = try c.route(s, "login", ["email": "b@b.c", "password": "password1"])
        #expect(r.state["context"]["user"].string == "b@b.c")
        problem(try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision":3}"#), 409, "rewind_across_sign_in")
        let toSignIn = try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision":1}"#)
        #expect(toSignIn.status == 200, "\(toSignIn)")
        #expect(toSignIn.state.top["name"].string == "login")
    }

    /// A team's own check (a signed cookie): another user's cookie on a session is `403`.
    struct CookieAuthenticator: Authenticator {
        func authenticate(_ request: AuthenticationRequest) -> Authentication {
            guard let cookie = request.header("Cookie"), cookie.hasPrefix("user=") else { return .none }
            let user = String(cookie.dropFirst(5))
            guard user.allSatisfy(\.isLetter) else { return .refused(code: "cookie_invalid", detail: "The sign-in cookie does not verify.") }
            return .verified(Identity(subject: user, issuer: "cookies", claims: ["email": .string(user + "@example.com")]))
        }
    }

    @Test func anotherUsersCredentialOnASessionIsForbidden() throws {
        let server = try InProcessServer { $0.authenticator = CookieAuthenticator() }
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession(#"{"context":{"onboarded":true}}"#, headers: [("Cookie", "user=ada")])
        #expect(s.created.state["context"]["user"].string == "ada@example.com")
        #expect(try c.call("GET", s.path, token: s.token, headers: [("Cookie", "user=ada")]).status == 200)
        #expect(try c.call("GET", s.path, token: s.token).status == 200, "no credential: the session token is enough")
        problem(try c.call("POST", s.path + "/tab", token: s.token, json: #"{"tab":"todos"}"#, headers: [("Cookie", "user=bob")]), 403, "identity_mismatch")
        problem(try c.call("GET", s.path, token: s.token, headers: [("Cookie", "user=b0b")]), 401, "cookie_invalid")
        #expect(try c.get(s).header("ETag") == "\"1\"", "nothing of a refused request is stored")
        // An anonymous session stays anonymous: a credential later does not sign it in.
        let anonymous = try c.createSession()
        problem(try c.call("GET", anonymous.path, token: anonymous.token, headers: [("Cookie", "user=ada")]), 403, "identity_mismatch")
    }

    private func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
