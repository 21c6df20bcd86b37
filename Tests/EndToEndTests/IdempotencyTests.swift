import Foundation
import Testing
import WayfinderStore

/// Issue 4, test 5: Idempotency-Key replays, reuse, scope, and no-op successes.
@Suite struct IdempotencyTests {
    @Test func replaysTheFirstAnswer() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let key = [("Idempotency-Key", "walk-1")]
        let first = try c.route(s, "next", headers: key)
        try expectAction(first, revision: 2, stack: ["walkthrough", "walkthrough"])
        #expect(first.header("Idempotent-Replayed") == nil)
        // The same request again: the same answer, marked, nothing changed.
        let again = try c.route(s, "next", headers: key)
        #expect(again.status == 200)
        #expect(again.header("Idempotent-Replayed") == "true")
        #expect(again.body == first.body)
        #expect(again.header("ETag") == "\"2\"")
        #expect(try c.get(s).header("ETag") == "\"2\"")
        // The same JSON written differently is the same body (canonical comparison).
        let spaced = try c.call("POST", s.path + "/routes", token: s.token, json: "{ \"route\" :\n \"next\" }", headers: key)
        #expect(spaced.status == 200)
        #expect(spaced.header("Idempotent-Replayed") == "true")
        #expect(spaced.body == first.body)
        // Replay comes before If-Match: a stale If-Match still replays.
        let staleReplay = try c.route(s, "next", headers: key + [("If-Match", "\"1\"")])
        #expect(staleReplay.status == 200)
        #expect(staleReplay.header("Idempotent-Replayed") == "true")
        // Different body, same key: 422.
        let reused = try c.route(s, "skip", headers: key)
        #expect(reused.status == 422)
        #expect(reused.code == "idempotency_key_reused")
        #expect(try c.get(s).header("ETag") == "\"2\"")
        // A new key applies again.
        let second = try c.route(s, "next", headers: [("Idempotency-Key", "walk-2")])
        try expectAction(second, revision: 3, stack: ["walkthrough", "walkthrough", "walkthrough"])
        // An error answer is not stored: the same key may succeed later.
        let refused = try c.back(s, screen: "s999", headers: [("Idempotency-Key", "back-1")])
        #expect(refused.status == 409)
        let top = try #require(second.state.top["id"].string)
        let retried = try c.back(s, screen: top, headers: [("Idempotency-Key", "back-1")])
        // Another body than the refused request, but nothing was stored for the key: it applies.
        try expectAction(retried, revision: 4, stack: ["walkthrough", "walkthrough"])
        #expect(retried.header("Idempotent-Replayed") == nil)
    }

    @Test func errorAnswersAreNotStored() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let key = [("Idempotency-Key", "err-1")]
        // Back at a root screen fails; after a push, the very same request succeeds with the same key.
        #expect(try c.back(s, headers: key).code == "nothing_to_pop")
        _ = try c.route(s, "next")
        let ok = try c.back(s, headers: key)
        try expectAction(ok, revision: 3, stack: ["walkthrough"])
        #expect(ok.header("Idempotent-Replayed") == nil)
        let replay = try c.back(s, headers: key)
        #expect(replay.status == 200)
        #expect(replay.header("Idempotent-Replayed") == "true")
        #expect(try c.get(s).header("ETag") == "\"3\"")
    }

    @Test func keysArePerSession() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let a = try c.createSession(), b = try c.createSession()
        let key = [("Idempotency-Key", "shared")]
        let ra = try c.route(a, "next", headers: key)
        let rb = try c.route(b, "next", headers: key)
        try expectAction(ra, revision: 2, stack: ["walkthrough", "walkthrough"])
        try expectAction(rb, revision: 2, stack: ["walkthrough", "walkthrough"])
        #expect(rb.header("Idempotent-Replayed") == nil)
        #expect(rb.state["session"].string == b.id)
        // And a different body on the other session is no reuse either.
        let other = try c.route(b, "skip", headers: [("Idempotency-Key", "only-a")])
        _ = try c.route(a, "next", headers: [("Idempotency-Key", "only-a")])
        #expect(other.status == 200)
        #expect(try c.get(a).json.revision == 3)
    }

    @Test func noOpSuccessWithAKeyReplays() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        let key = [("Idempotency-Key", "noop")]
        // Re-selecting the home tab at its root changes nothing.
        let first = try c.tab(s, "home", headers: key)
        try expectAction(first, revision: 1, stack: ["dashboard"])
        #expect(first.json["transitions"].array.isEmpty)
        _ = try c.tab(s, "todos")
        // Replayed even though the session moved on: the stored first answer, revision 1.
        let replay = try c.tab(s, "home", headers: key)
        #expect(replay.status == 200)
        #expect(replay.header("Idempotent-Replayed") == "true")
        #expect(replay.body == first.body)
        #expect(replay.header("ETag") == "\"1\"")
        #expect(try c.get(s).json.stackNames == ["todoList"])
        #expect(try c.get(s).header("ETag") == "\"2\"")
        // POST /v1/sessions ignores the header: two sessions.
        let one = try c.call("POST", "/v1/sessions", json: "{}", headers: key)
        let two = try c.call("POST", "/v1/sessions", json: "{}", headers: key)
        #expect(one.status == 201 && two.status == 201)
        #expect(one.json["id"].string != two.json["id"].string)
        #expect(two.header("Idempotent-Replayed") == nil)
    }

    /// Issue 47: a session's records keep their answers within a byte budget, newest first. A
    /// retry whose answer was dropped is refused, never run again; one whose answer is kept still
    /// replays; the drops are counted in `/metrics`.
    @Test(arguments: [false, true]) func aRetryWhoseAnswerWasDroppedIsRefusedNotRunAgain(sqlite: Bool) throws {
        let configuration = StoreConfiguration(idempotencyBytesPerSession: 8 * 1024)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store: any SessionStore =
            sqlite
            ? try SQLiteStore(path: directory.appendingPathComponent("s.sqlite").path, configuration: configuration)
            : MemoryStore(configuration: configuration)
        let server = try InProcessServer(store: .given(store))
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        func dropped() throws -> Int? {
            let line = try c.call("GET", "/metrics").text.split(separator: "\n").first { $0.hasPrefix("wayfinder_idempotency_answers_dropped_total ") }
            return line.flatMap { Int($0.split(separator: " ")[1]) }
        }
        #expect(try dropped() == 0)
        let first = try c.tab(s, "todos", headers: [("Idempotency-Key", "first")])
        try expectAction(first, revision: 2, stack: ["todoList"])
        // No-ops with fresh keys, each keeping its answer, until the first answer is dropped.
        var sent = 0
        while try dropped() == 0, sent < 100 {
            sent += 1
            #expect(try c.tab(s, "todos", headers: [("Idempotency-Key", "noop-\(sent)")]).status == 200)
        }
        #expect(try dropped() == 1, "the first answer dropped after \(sent) more")
        let retry = try c.tab(s, "todos", headers: [("Idempotency-Key", "first")])
        #expect(retry.status == 409)
        #expect(retry.code == "idempotency_answer_dropped")
        #expect(retry.header("Idempotent-Replayed") == nil)
        // Another request with that key is still another request.
        #expect(try c.tab(s, "home", headers: [("Idempotency-Key", "first")]).code == "idempotency_key_reused")
        // Nothing ran again: the revision is the first change's.
        #expect(try c.get(s).header("ETag") == "\"2\"")
        // The newest answer is kept and replays.
        let newest = try c.tab(s, "todos", headers: [("Idempotency-Key", "noop-\(sent)")])
        #expect(newest.status == 200 && newest.header("Idempotent-Replayed") == "true")
    }
}
