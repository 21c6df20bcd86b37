import Foundation
import Synchronization
import Testing

/// Issue 4, test 9: many clients at once, on one session and on many.
@Suite struct ConcurrencyTests {
    struct Tally: Sendable {
        var changes = 0
        var statuses: [Int: Int] = [:]
        var problems: [String] = []
    }

    @Test(arguments: [InProcessServer.StoreKind.memory, .sqlite])
    func concurrentTriggers(store: InProcessServer.StoreKind) throws {
        let server = try InProcessServer(store: store)
        defer { server.stop() }
        let c = server.client()
        let shared = try c.signedInSession()
        let own = try (0..<8).map { _ in try c.signedInSession() }
        let perThread = 20
        let port = server.port
        let sharedTally = Mutex(Tally())
        let ownTallies = Mutex([String: Tally]())
        let group = DispatchGroup()

        // 16 threads on the shared session: tab switches (a change, or a no-op when that tab is
        // already shown), some with If-Match (412 when another thread was first), some with
        // Idempotency-Keys (replays change nothing), some stale backs (409 or 422).
        for t in 0..<16 {
            group.enter()
            Thread {
                defer { group.leave() }
                let client = Client(port: port)
                var lastETag = "\"1\""
                var lastKey: String?
                for i in 0..<perThread {
                    var headers: [(String, String)] = []
                    switch t % 4 {
                    case 0: headers.append(("If-Match", lastETag))
                    case 1:
                        let key = (i % 3 == 2 ? lastKey : nil) ?? "t\(t)-\(i)"
                        headers.append(("Idempotency-Key", key))
                        lastKey = key
                    default: break
                    }
                    let tab = (t + i) % 2 == 0 ? "todos" : "home"
                    do {
                        let r: Reply
                        if t % 4 == 2 && i % 5 == 4 {
                            r = try client.back(shared, screen: "s1")
                        } else if t % 4 == 1 && i % 3 == 2 && lastKey != nil {
                            // Replays the previous request (same key, same body).
                            r = try client.tab(shared, (t + i - 1) % 2 == 0 ? "todos" : "home", headers: headers)
                        } else {
                            r = try client.tab(shared, tab, headers: headers)
                        }
                        let outcome = check(r)
                        if let etag = r.header("ETag") { lastETag = etag }
                        sharedTally.withLock { tally in
                            tally.statuses[r.status, default: 0] += 1
                            if let problem = outcome.problem { tally.problems.append(problem) }
                            if outcome.changed { tally.changes += 1 }
                        }
                    } catch {
                        sharedTally.withLock { $0.problems.append("\(error)") }
                    }
                }
            }.start()
        }
        // 8 threads, each on its own session: every tab switch changes the state.
        for s in own {
            group.enter()
            Thread {
                defer { group.leave() }
                let client = Client(port: port)
                var tally = Tally()
                for i in 0..<perThread {
                    do {
                        let r = try client.tab(s, i % 2 == 0 ? "todos" : "profile")
                        let outcome = check(r)
                        tally.statuses[r.status, default: 0] += 1
                        if let problem = outcome.problem { tally.problems.append(problem) }
                        if outcome.changed { tally.changes += 1 }
                    } catch {
                        tally.problems.append("\(error)")
                    }
                }
                ownTallies.withLock { $0[s.id] = tally }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 60) == .success, "the workers did not finish")

        let tally = sharedTally.withLock { $0 }
        #expect(tally.problems == [])
        #expect(tally.statuses.values.reduce(0, +) == 16 * perThread)
        #expect(Set(tally.statuses.keys).isSubset(of: [200, 409, 412, 422]), "\(tally.statuses)")
        #expect(tally.changes > 0)
        let final = try c.get(shared)
        #expect(final.json.revision == 1 + tally.changes, "\(tally.statuses), \(tally.changes) changes")
        #expect(final.header("ETag") == "\"\(1 + tally.changes)\"")
        #expect(!final.json.stackNames.isEmpty)

        let tallies = ownTallies.withLock { $0 }
        #expect(tallies.count == 8)
        for s in own {
            let t = try #require(tallies[s.id])
            #expect(t.problems == [])
            #expect(t.statuses == [200: perThread])
            #expect(t.changes == perThread)
            let state = try c.get(s)
            #expect(state.json.revision == 1 + perThread)
            #expect(state.json.stackNames == ["dashboard"] || state.json.stackNames == ["profile"])
        }
    }

    /// Whether an answer changed the state, and what is wrong with it.
    private func check(_ r: Reply) -> (changed: Bool, problem: String?) {
        guard [200, 409, 412, 422].contains(r.status) else { return (false, "status \(r)") }
        guard r.status == 200 else {
            if r.code == nil { return (false, "no code: \(r)") }
            return (false, nil)
        }
        let state = r.state
        guard let revision = state.revision, r.header("ETag") == "\"\(revision)\"" else { return (false, "ETag: \(r)") }
        guard !state.stackNames.isEmpty, state["stack"].array.count == state.stackNames.count else { return (false, "stack: \(r)") }
        guard state.top["routes"].isArray else { return (false, "routes: \(r)") }
        let replayed = r.header("Idempotent-Replayed") == "true"
        return (!replayed && !r.json["transitions"].array.isEmpty, nil)
    }
}
