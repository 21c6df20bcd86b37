import Foundation
import Testing
import WayfinderHTTP

/// Issue 21: the API's named limits, each refused with its status and problem code and nothing
/// changed (docs/limits.md lists them).
@Suite struct LimitTests {
    /// Issue 47: the journal keeps the newest entry whatever its size, so one entry alone must fit
    /// the session limit too. A to-do title the sample app cuts to 200 characters still reaches the
    /// journal as sent: past the limit it is refused and nothing is stored, the journal included.
    @Test func aChangeWhoseJournalEntryAlonePassesTheLimitIsRefusedAndNothingIsStored() throws {
        let server = try InProcessServer { $0.maxSessionBytes = 16 * 1024 }
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        _ = try c.tab(s, "todos")
        _ = try c.route(s, "addTodo")
        let before = try c.get(s)
        let history = try c.call("GET", s.path + "/history", token: s.token)
        let refused = try c.route(s, "saveTodo", ["title": String(repeating: "t", count: 20_000)], headers: [("Idempotency-Key", "huge")])
        #expect(refused.status == 422)
        #expect(refused.code == "session_too_large")
        #expect(try c.get(s).body == before.body)
        #expect(try c.call("GET", s.path + "/history", token: s.token).body == history.body)
        // No record was stored for its key: a smaller request with it runs.
        let saved = try c.route(s, "saveTodo", ["title": String(repeating: "t", count: 2_000)], headers: [("Idempotency-Key", "huge")])
        #expect(saved.status == 200)
        #expect(saved.header("Idempotent-Replayed") == nil)
    }

    @Test func aChangePastTheSessionSizeLimitIsRefusedAndTheSessionIsUnchanged() throws {
        let server = try InProcessServer { $0.maxSessionBytes = 4096 }
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        _ = try c.tab(s, "todos")
        var refused: Reply?
        var sheetOpen = false
        for n in 1...40 {
            // Opening the sheet grows the state too: the limit may be passed there first.
            let opening = try c.get(s)
            let opened = try c.route(s, "addTodo")
            if opened.status != 200 {
                refused = opened
                #expect(try c.get(s).body == opening.body, "the refused change left the session as it was")
                break
            }
            sheetOpen = true
            let before = try c.get(s)
            let saved = try c.route(s, "saveTodo", ["title": "To-do \(n) " + String(repeating: "x", count: 150)])
            if saved.status != 200 {
                refused = saved
                let after = try c.get(s)
                #expect(after.status == before.status)
                #expect(after.body == before.body, "the refused change left the session as it was")
                break
            }
            sheetOpen = false
        }
        let answer = try #require(refused, "40 to-dos of 160 characters never passed 4096 bytes")
        #expect(answer.status == 422)
        #expect(answer.code == "session_too_large")
        #expect(answer.contentType == "application/problem+json")
        // Smaller changes still go through.
        #expect(try (sheetOpen ? c.route(s, "cancel") : c.tab(s, "home")).status == 200)
    }

    @Test func aSessionStartedPastTheSizeLimitIsNotCreated() throws {
        let server = try InProcessServer { $0.maxSessionBytes = 2048 }
        defer { server.stop() }
        let c = server.client()
        let long = TestIdentity.token(subject: "user-long", email: String(repeating: "u", count: 3000) + "@example.com")
        let refused = try c.call("POST", "/v1/sessions", token: long, json: jsonText(["context": ["onboarded": true]]))
        #expect(refused.status == 422)
        #expect(refused.code == "session_too_large")
        #expect(try c.activeSessions() == 0)
    }

    @Test func anIdempotencyKeyPastItsLimitIsRefused() throws {
        let server = try InProcessServer { $0.maxIdempotencyKeyBytes = 16 }
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        let long = try c.tab(s, "todos", headers: [("Idempotency-Key", String(repeating: "k", count: 17))])
        #expect(long.status == 400)
        #expect(long.code == "idempotency_key_too_long")
        #expect(try c.get(s).json.revision == 1, "nothing changed")
        #expect(try c.tab(s, "todos", headers: [("Idempotency-Key", String(repeating: "k", count: 16))]).status == 200)
    }

    /// A server that lets each client address create 3 sessions, reading the address from
    /// `X-Real-IP` when the peer is in `trusted`.
    private func createLimited(trusting trusted: String) throws -> InProcessServer {
        try InProcessServer {
            $0.createRatePerSecond = 0.001
            $0.createBurst = 3
            $0.clientAddressHeader = "X-Real-IP"
            $0.trustedProxies = [AddressRange(trusted)!]
        }
    }

    @Test func sessionCreationIsLimitedPerClientAddress() throws {
        let server = try createLimited(trusting: "127.0.0.0/8")
        defer { server.stop() }
        let c = server.client()
        let one = [("X-Real-IP", "192.0.2.1")]
        for _ in 0..<3 { #expect(try c.call("POST", "/v1/sessions", json: "{}", headers: one).status == 201) }
        let limited = try c.call("POST", "/v1/sessions", json: "{}", headers: one)
        #expect(limited.status == 429)
        #expect(limited.code == "rate_limited")
        let retry = try #require(limited.header("Retry-After").flatMap { Int($0) })
        #expect(retry >= 1)
        // Another address has its own bucket; a list counts by its last element.
        #expect(try c.call("POST", "/v1/sessions", json: "{}", headers: [("X-Real-IP", "192.0.2.2")]).status == 201)
        #expect(try c.call("POST", "/v1/sessions", json: "{}", headers: [("X-Real-IP", "192.0.2.2, 192.0.2.1")]).status == 429)
        #expect(try c.activeSessions() == 4)
    }

    /// Issue 47: from a peer that is not a trusted proxy the header could name anyone, so it is
    /// not read: every request counts as the peer's.
    @Test func theClientAddressHeaderIsReadOnlyFromTrustedProxies() throws {
        let server = try createLimited(trusting: "192.0.2.0/24")
        defer { server.stop() }
        let c = server.client()
        for n in 0..<3 { #expect(try c.call("POST", "/v1/sessions", json: "{}", headers: [("X-Real-IP", "198.51.100.\(n)")]).status == 201) }
        let limited = try c.call("POST", "/v1/sessions", json: "{}", headers: [("X-Real-IP", "198.51.100.9")])
        #expect(limited.status == 429)
        #expect(limited.code == "rate_limited")
    }

    @Test func eventStreamsAreCappedPerAddress() throws {
        let server = try InProcessServer {
            $0.maxStreamsPerAddress = 2
            $0.heartbeatSeconds = 5
        }
        defer { server.stop() }
        let c = server.client()
        let a = try c.createSession(), b = try c.createSession()
        let readers = [a, b].map { EventReader(url: c.base + $0.path + "/events?access_token=" + $0.token) }
        for reader in readers { #expect(reader.next()?.id == "1") }
        let third = try c.call("GET", a.path + "/events", token: a.token)
        #expect(third.status == 429)
        #expect(third.code == "address_stream_limit")
        #expect(third.header("Retry-After") == "5")
        withExtendedLifetime(readers) {}
    }

    /// A session's actions are rate-limited (a token bucket): past the burst, `429
    /// session_rate_limited` with `Retry-After`, and nothing changes; reads are not limited and
    /// other sessions keep their own buckets.
    @Test func aSessionsActionsAreRateLimited() throws {
        let server = try InProcessServer {
            $0.routeRatePerSecond = 0.001
            $0.routeBurst = 3
        }
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession(), other = try c.signedInSession(subject: "user-b")
        for tab in ["todos", "home", "todos"] { #expect(try c.tab(s, tab).status == 200) }
        let before = try c.get(s)
        let limited = try c.tab(s, "home")
        #expect(limited.status == 429)
        #expect(limited.code == "session_rate_limited")
        #expect(try #require(limited.header("Retry-After").flatMap { Int($0) }) >= 1)
        #expect(try c.get(s).body == before.body, "nothing changed")
        #expect(try c.route(s, "addTodo").code == "session_rate_limited")
        #expect(try c.tab(other, "todos").status == 200)
        // A stranger's request takes nothing from the bucket: it is refused before.
        let stranger = try c.call("POST", other.path + "/tab", token: String(repeating: "A", count: 43), json: #"{"tab":"home"}"#)
        #expect(stranger.status == 404)
    }

    @Test func eventStreamsAreCappedPerSessionAndInAll() throws {
        let server = try InProcessServer {
            $0.maxStreamsPerSession = 2
            $0.maxStreams = 3
            $0.heartbeatSeconds = 5
        }
        defer { server.stop() }
        let c = server.client()
        let a = try c.createSession(), b = try c.createSession()
        let readers = [a, a, b].map { EventReader(url: c.base + $0.path + "/events?access_token=" + $0.token) }
        for reader in readers { #expect(reader.next()?.id == "1") }
        let third = try c.call("GET", a.path + "/events", token: a.token)
        #expect(third.status == 429)
        #expect(third.code == "session_stream_limit")
        #expect(third.header("Retry-After") == "5")
        let c2 = try c.createSession()
        let fourth = try c.call("GET", c2.path + "/events", token: c2.token)
        #expect(fourth.status == 503)
        #expect(fourth.code == "stream_limit")
        #expect(fourth.header("Retry-After") == "5")
        // A stream that ends gives its place back, once the server has seen it close (the
        // client's close reaches the server's loop after the client is done with it).
        readers[0].stop()
        #expect(readers[0].waitUntilFinished())
        // A refused reader (429) finishes at once; an admitted one is kept and given time for its
        // first event (a slow one stopped still holds the place for up to a second).
        var again: EventReader?
        #expect(eventually(within: 30, interval: 0.1) {
            let reader = EventReader(url: c.base + a.path + "/events?access_token=" + a.token)
            guard let first = reader.next(within: 10) else {
                reader.stop()
                return false
            }
            again = reader
            return first.id == "1"
        })
        for reader in readers + [again].compactMap({ $0 }) { reader.stop() }
    }

    @Test func aSessionNeverUsedAgainExpiresLongBeforeTheTTL() throws {
        let server = try InProcessServer(ttlMillis: 100_000) { $0.unusedSessionTTLMillis = 1_000 }
        defer { server.stop() }
        let c = server.client()
        let used = try c.createSession(), unused = try c.createSession()
        #expect(try c.get(used).status == 200)  // its second request: from now on the full TTL
        // Watched through /metrics: a request to it would be its second one.
        #expect(try eventually(within: 20) { try c.activeSessions() == 1 }, "the unused session did not expire")
        #expect(try c.get(unused).status == 404)
        #expect(try c.get(used).status == 200)
    }
}
