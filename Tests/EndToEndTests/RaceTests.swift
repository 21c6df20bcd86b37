import Foundation
import Synchronization
import Testing
import WayfinderAPI
import WayfinderHTTP
import WayfinderStore

/// Issue 21: requests that race another client's write. The other write is made on cue, between
/// two steps of the request under test (`InterleavingStore`), so each race is played the same
/// way every time; each of these tests failed on the code before its fix.
@Suite struct RaceTests {
    enum Kind: CaseIterable { case memory, sqlite }

    /// A server on an interleaving store, and the store.
    func server(_ kind: Kind) throws -> (InProcessServer, InterleavingStore) {
        let base: any SessionStore
        switch kind {
        case .memory:
            base = MemoryStore()
        case .sqlite:
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-race-\(UUID().uuidString)")
            base = try SQLiteStore(path: dir.appendingPathComponent("s.sqlite").path)
        }
        let store = InterleavingStore(base)
        return (try InProcessServer(store: .given(store)), store)
    }

    /// Another client's request, answered by the API on the calling thread.
    static func call(
        _ api: WayfinderAPI, _ method: String, _ path: String, token: String, json: String, headers: HTTPHeaders = [:]
    ) -> HTTPResponse {
        var all = headers
        all.add("Host", "127.0.0.1")
        all.add("Authorization", "Bearer \(token)")
        all.add("Content-Type", "application/json")
        return api.handle(HTTPRequest(method: method, target: path, headers: all, body: Array(json.utf8)))
    }

    @Test(arguments: Kind.allCases)
    func deleteWithIfMatchLosesToAChangeMadeAfterItsRead(kind: Kind) throws {
        let (server, store) = try server(kind)
        defer { server.stop() }
        let api = server.api
        let c = server.client()
        let s = try c.signedInSession()
        // The DELETE reads revision 1; then another client changes the session to revision 2.
        store.arm(after: .load(s.id)) {
            #expect(Self.call(api, "POST", s.path + "/tab", token: s.token, json: #"{"tab":"todos"}"#).status == 200)
        }
        let deleted = try c.call("DELETE", s.path, token: s.token, headers: [("If-Match", "\"1\"")])
        #expect(deleted.status == 412, "\(deleted)")
        #expect(deleted.code == "revision_mismatch")
        #expect(deleted.header("ETag") == "\"2\"")
        let after = try c.get(s)
        #expect(after.status == 200)
        #expect(after.json["revision"].int == 2)
        // With the current revision it goes.
        #expect(try c.call("DELETE", s.path, token: s.token, headers: [("If-Match", "\"2\"")]).status == 204)
        #expect(try c.get(s).status == 404)
    }

    @Test(arguments: Kind.allCases)
    func oneIdempotencyKeyHasOneWinnerWhenANoOpAndAChangeRace(kind: Kind) throws {
        let (server, store) = try server(kind)
        defer { server.stop() }
        let api = server.api
        let c = server.client()
        let s = try c.signedInSession()
        // Both requests carry key K. The change (to-dos tab) finds no record for K; before it is
        // saved, a no-op with K (the home tab, shown already) is answered and stored.
        let noOp = Mutex<HTTPResponse?>(nil)
        store.arm(after: .idempotencyLookup("K")) {
            let answer = Self.call(api, "POST", s.path + "/tab", token: s.token, json: #"{"tab":"home"}"#, headers: ["Idempotency-Key": "K"])
            noOp.withLock { $0 = answer }
        }
        let change = try c.tab(s, "todos", headers: [("Idempotency-Key", "K")])
        let first = try #require(noOp.withLock { $0 })
        #expect(first.status == 200)
        #expect(change.status == 422, "the key was taken by the no-op: \(change)")
        #expect(change.code == "idempotency_key_reused")
        #expect(try c.get(s).json["revision"].int == 1, "the change was not applied")
        let replay = try c.tab(s, "home", headers: [("Idempotency-Key", "K")])
        #expect(replay.status == 200)
        #expect(replay.header("Idempotent-Replayed") == "true")
    }

    /// A stream resumed at revision 1 (`Last-Event-ID: 1`) whose authorising read is followed by
    /// another client's request (`method` on the session's `suffix`) before it subscribes.
    func resumedStream(after method: String, _ suffix: String, json: String, status: Int) throws -> (InProcessServer, EventReader) {
        let (server, store) = try server(.memory)
        let api = server.api
        let c = server.client()
        let s = try c.signedInSession()
        store.arm(after: .load(s.id)) {
            #expect(Self.call(api, method, s.path + suffix, token: s.token, json: json).status == status)
        }
        return (server, EventReader(url: c.base + s.path + "/events", headers: [s.auth, ("Last-Event-ID", "1")]))
    }

    @Test func aResumedStreamSeesAChangeMadeBeforeItSubscribed() throws {
        let (server, reader) = try resumedStream(after: "POST", "/tab", json: #"{"tab":"todos"}"#, status: 200)
        defer { reader.stop(); server.stop() }
        let event = try #require(reader.next(), "no event: the change was missed")
        #expect(event.id == "2")
        #expect(event.json["revision"].int == 2)
    }

    @Test func aResumedStreamEndsWhenTheSessionWasDeletedBeforeItSubscribed() throws {
        let (server, reader) = try resumedStream(after: "DELETE", "", json: "", status: 204)
        defer { reader.stop(); server.stop() }
        #expect(reader.waitUntilFinished(), "the stream outlived its deleted session")
        #expect(reader.pending.map(\.event) == ["ended"], "its last event says the session ended")
    }
}
