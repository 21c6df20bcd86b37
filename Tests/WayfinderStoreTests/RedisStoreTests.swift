import Foundation
import Synchronization
import Testing
import WayfinderStore

/// What only the Redis store does: several instances on one server, pub/sub, Redis TTLs, outages.
/// (The shared behaviour runs in `SessionStoreTests` with `StoreKind.redis`.)
@Suite("RedisStore")
struct RedisStoreTests {
    // MARK: URL

    @Test func urlsParse() throws {
        #expect(try RedisEndpoint(url: "redis://127.0.0.1:6380/3") == RedisEndpoint(host: "127.0.0.1", port: 6380, database: 3))
        #expect(try RedisEndpoint(url: "redis://cache") == RedisEndpoint(host: "cache", port: 6379, database: 0))
        #expect(try RedisEndpoint(url: "REDIS://cache:7000/") == RedisEndpoint(host: "cache", port: 7000, database: 0))
        #expect(try RedisEndpoint(url: "redis://[::1]:7000/2") == RedisEndpoint(host: "::1", port: 7000, database: 2))
        #expect(
            try RedisEndpoint(url: "redis://:s3cret@cache:7000")
                == RedisEndpoint(host: "cache", port: 7000, database: 0, user: nil, password: "s3cret"))
        #expect(
            try RedisEndpoint(url: "redis://app:s3cret@cache:7000/1")
                == RedisEndpoint(host: "cache", port: 7000, database: 1, user: "app", password: "s3cret"))
        #expect(try RedisEndpoint(url: "redis://:s3cret@cache:7000/1").description == "redis://cache:7000/1")

        for bad in [
            "", "cache:6379", "http://cache:6379", "redis://", "redis://:6379", "redis://cache:", "redis://cache:0",
            "redis://cache:65536", "redis://cache:port", "redis://cache:6379/x", "redis://cache:6379/-1",
            "redis://cache:6379/1?timeout=1", "redis://[::1", "redis://[::1]x",
        ] {
            #expect(throws: StoreError.self, "\(bad)") { try RedisStore(url: bad, configuration: StoreConfiguration()) }
        }
    }

    @Test func anUnreachableServerIsUnavailableQuicklyNotACrash() throws {
        let port = try RedisServer.freeLoopbackPort()  // nothing listens there
        let store = try RedisStore(url: "redis://127.0.0.1:\(port)", configuration: StoreConfiguration())
        defer { store.close() }
        let started = ContinuousClock.now
        let session = Fixture.session()
        expectUnavailable { try store.ping() }
        expectUnavailable { try store.create(session, maxSessions: 10) }
        expectUnavailable { _ = try store.load(id: session.id, now: Fixture.t0) }
        expectUnavailable { try store.save(Fixture.next(session), expectedRevision: 1, idempotency: nil) }
        expectUnavailable { _ = try store.count(now: Fixture.t0) }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(!store.isReceivingChanges)
    }

    // MARK: Two instances on one server

    @Test func twoInstancesShareSessionsAndIdempotencyRecords() throws {
        let (a, b) = try twoInstances()
        let session = Fixture.session()
        try a.create(session, maxSessions: 10)
        #expect(try b.load(id: session.id, now: Fixture.t0) == session)
        #expect(throws: StoreError.duplicateID) { try b.create(session, maxSessions: 10) }

        let second = Fixture.next(session, at: Fixture.t0 + 10)
        let record = Fixture.record(session.id)
        try b.save(second, expectedRevision: 1, idempotency: record)
        #expect(try a.load(id: session.id, now: Fixture.t0 + 10) == second)
        #expect(try a.idempotencyRecord(sessionID: session.id, key: "key-1", now: Fixture.t0) == record)
        #expect(throws: StoreError.conflict(currentRevision: 2)) {
            try a.save(Fixture.next(session), expectedRevision: 1, idempotency: nil)
        }

        try a.touch(id: session.id, now: Fixture.t0 + 50)
        #expect(try b.load(id: session.id, now: Fixture.t0 + 50)?.lastUsed == Fixture.t0 + 50)
        #expect(try a.delete(id: session.id))
        #expect(try b.load(id: session.id, now: Fixture.t0) == nil)
        #expect(try b.idempotencyRecord(sessionID: session.id, key: "key-1", now: Fixture.t0) == nil)
        #expect(try b.delete(id: session.id) == false)
    }

    @Test func theSessionCapIsCountedAcrossInstances() throws {
        let (a, b) = try twoInstances()
        let first = Fixture.session()
        try a.create(first, maxSessions: 3)
        try a.create(Fixture.session(), maxSessions: 3)
        try b.create(Fixture.session(), maxSessions: 3)
        #expect(try a.count(now: Fixture.t0) == 3)
        #expect(try b.count(now: Fixture.t0) == 3)
        #expect(throws: StoreError.sessionLimit) { try b.create(Fixture.session(), maxSessions: 3) }
        #expect(throws: StoreError.sessionLimit) { try a.create(Fixture.session(), maxSessions: 3) }
        #expect(try b.delete(id: first.id))
        try a.create(Fixture.session(), maxSessions: 3)
        #expect(try b.count(now: Fixture.t0) == 3)
    }

    @Test func racingSavesFromTwoInstancesLoseNoUpdate() throws {
        let (a, b) = try twoInstances()
        let session = Fixture.session(revision: 0)
        try a.create(session, maxSessions: 10)
        let successes = Atomic<Int>(0)
        let conflicts = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
        let threadsPerInstance = 8
        let attempts = 100

        runOnThreads(2 * threadsPerInstance) { thread in
            let store = thread < threadsPerInstance ? a : b
            for attempt in 0..<attempts {
                do {
                    guard let current = try store.load(id: session.id, now: Fixture.t0) else {
                        failures.withLock { $0.append("session vanished") }
                        return
                    }
                    var next = current
                    next.revision += 1
                    next.state = Array(#"{"thread":\#(thread),"attempt":\#(attempt)}"#.utf8)
                    try store.save(next, expectedRevision: current.revision, idempotency: nil)
                    successes.add(1, ordering: .relaxed)
                } catch StoreError.conflict {
                    conflicts.add(1, ordering: .relaxed)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }

        #expect(failures.withLock { $0 } == [])
        let final = try #require(try b.load(id: session.id, now: Fixture.t0))
        #expect(final.revision == successes.load(ordering: .relaxed))
        #expect(successes.load(ordering: .relaxed) + conflicts.load(ordering: .relaxed) == 2 * threadsPerInstance * attempts)
        #expect(successes.load(ordering: .relaxed) > 0)
    }

    @Test func changesMadeThroughOneInstanceReachSubscribersOfTheOther() throws {
        let (a, b) = try twoInstances()
        #expect(b.waitUntilReceivingChanges(timeout: .seconds(5)))
        let session = Fixture.session()
        try a.create(session, maxSessions: 10)
        let arrivals = ArrivalClock()
        let subscription = b.changes.subscribe(session.id) { arrivals.record($0) }
        defer { subscription.cancel() }
        // A subscriber reads after subscribing (as the API does): changes made after that read reach it.
        #expect(try b.load(id: session.id, now: Fixture.t0) == session)

        var current = session
        var latencies: [Duration] = []
        for _ in 0..<5 {
            let next = Fixture.next(current)
            let sent = ContinuousClock.now
            try a.save(next, expectedRevision: current.revision, idempotency: nil)
            let arrived = try #require(arrivals.wait(for: .saved(revision: next.revision), timeout: .seconds(2)))
            latencies.append(arrived - sent)
            current = next
        }
        // A save that keeps the revision publishes nothing; a deletion ends the stream.
        try a.save(current, expectedRevision: current.revision, idempotency: Fixture.record(session.id))
        #expect(try a.delete(id: session.id))
        #expect(arrivals.wait(for: .deleted, timeout: .seconds(2)) != nil)
        #expect(arrivals.changes == (2...6).map { .saved(revision: $0) } + [.deleted])
        // The issue asks for 100 ms; the best of five is measured, so a loaded machine does not flake.
        #expect(latencies.min()! < .milliseconds(100), "latencies \(latencies)")
    }

    @Test func anInstanceDeliversItsOwnChangesOnceAndInOrder() throws {
        let (a, b) = try twoInstances()
        #expect(a.waitUntilReceivingChanges(timeout: .seconds(5)))
        let mine = Fixture.session()
        let marker = Fixture.session()
        try a.create(mine, maxSessions: 10)
        try a.create(marker, maxSessions: 10)
        // Saved before subscribing: the subscriber must not get it late through pub/sub.
        try a.save(Fixture.next(mine), expectedRevision: 1, idempotency: nil)
        let recorder = ChangeRecorder()
        let subscription = a.changes.subscribe(mine.id) { recorder.record($0) }
        defer { subscription.cancel() }
        // Pub/sub keeps order: once B's later change to `marker` reached A, A's own message was seen.
        let markerArrivals = ArrivalClock()
        let markerSubscription = a.changes.subscribe(marker.id) { markerArrivals.record($0) }
        defer { markerSubscription.cancel() }
        _ = try a.load(id: marker.id, now: Fixture.t0)
        try b.save(Fixture.next(marker), expectedRevision: 1, idempotency: nil)
        #expect(markerArrivals.wait(for: .saved(revision: 2), timeout: .seconds(2)) != nil)
        #expect(recorder.changes == [])

        try a.save(Fixture.next(Fixture.next(mine)), expectedRevision: 2, idempotency: nil)
        #expect(recorder.changes == [.saved(revision: 3)])
    }

    @Test func expiryThroughOneInstanceNotifiesTheOther() throws {
        let configuration = StoreConfiguration(ttlMillis: 1_000)
        let (a, b) = try twoInstances(configuration: configuration)
        #expect(b.waitUntilReceivingChanges(timeout: .seconds(5)))
        let idle = Fixture.session()
        try a.create(idle, maxSessions: 10)
        let arrivals = ArrivalClock()
        let subscription = b.changes.subscribe(idle.id) { arrivals.record($0) }
        defer { subscription.cancel() }
        _ = try b.load(id: idle.id, now: Fixture.t0)
        #expect(try a.expire(now: Fixture.t0 + 1_001) == 1)
        #expect(arrivals.wait(for: .deleted, timeout: .seconds(2)) != nil)
        #expect(try b.count(now: Fixture.t0 + 1_001) == 0)
    }

    @Test func aChangeMadeWhileTheSubscriptionWasDownReachesSubscribersOnceItIsBack() throws {
        let server = try RedisServer.shared.get()
        let database = RedisServer.freshDatabase()
        let a = try RedisStore(url: server.url(database: database))
        let b = try RedisStore(url: server.url(database: database))
        #expect(b.waitUntilReceivingChanges(timeout: .seconds(5)))
        let session = Fixture.session()
        try a.create(session, maxSessions: 10)
        let arrivals = ArrivalClock()
        let subscription = b.changes.subscribe(session.id) { arrivals.record($0) }
        defer { subscription.cancel() }
        _ = try b.load(id: session.id, now: Fixture.t0)
        // Drop this database's pub/sub connections (B's among them), then change the session
        // while B is not subscribed: the message is published to nobody.
        for line in try server.cli(database: database, "CLIENT", "LIST", "TYPE", "pubsub").split(separator: "\n")
        where line.contains(" db=\(database) ") {
            guard let id = line.split(separator: " ").first(where: { $0.hasPrefix("id=") })?.dropFirst(3) else { continue }
            _ = try server.cli(database: database, "CLIENT", "KILL", "ID", String(id))
        }
        let deadline = ContinuousClock.now + .seconds(5)
        while b.isReceivingChanges && ContinuousClock.now < deadline { usleep(500) }
        try a.save(Fixture.next(session), expectedRevision: 1, idempotency: nil)
        #expect(b.waitUntilReceivingChanges(timeout: .seconds(5)))
        #expect(arrivals.wait(for: .saved(revision: 2), timeout: .seconds(5)) != nil)
    }

    @Test func theStoreIsNotReadyWhileRedisRefusesItsChangeSubscription() throws {
        // A server of its own: the ACL change below is server-wide.
        let server = try RedisServer(appendfsync: "everysec")
        let store = try RedisStore(url: server.url(), configuration: StoreConfiguration())
        defer { store.close() }
        #expect(store.waitUntilReceivingChanges(timeout: .seconds(5)))
        try store.ping()
        // The default user loses its pub/sub channels: its subscription is dropped and every new
        // `SUBSCRIBE` is refused, while `PING` and the session commands still work.
        _ = try server.cli(database: 0, "ACL", "SETUSER", "default", "resetchannels")
        _ = try server.cli(database: 0, "CLIENT", "KILL", "TYPE", "pubsub")
        let deadline = ContinuousClock.now + .seconds(5)
        while store.isReceivingChanges && ContinuousClock.now < deadline { usleep(1_000) }
        #expect(!store.isReceivingChanges)
        // Across several refused attempts (the back-off starts at 100 ms), it stays not ready,
        // and says why.
        for _ in 0..<3 {
            #expect(throws: StoreError.unavailable("redis \(server.url()): the change subscription is down (reconnecting)")) {
                try store.ping()
            }
            Thread.sleep(forTimeInterval: 0.3)
        }
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        #expect(try store.load(id: session.id, now: Fixture.t0) == session)
        // Channels back: a later attempt subscribes, and the store is ready again.
        _ = try server.cli(database: 0, "ACL", "SETUSER", "default", "allchannels")
        #expect(store.waitUntilReceivingChanges(timeout: .seconds(5)))
        try store.ping()
    }

    // MARK: Layout and Redis TTLs

    @Test func theKeyLayoutIsAsDocumentedAndNothingIsLeftBehind() throws {
        let server = try RedisServer.shared.get()
        let database = RedisServer.freshDatabase()
        let store = try RedisStore(url: server.url(database: database), configuration: StoreConfiguration(ttlMillis: 10_000))
        defer { store.close() }
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        try store.save(Fixture.next(session), expectedRevision: 1, idempotency: Fixture.record(session.id))
        #expect(try server.cli(database: database, "TYPE", "wf:s:{\(session.id)}") == "hash")
        #expect(try server.cli(database: database, "HGET", "wf:s:{\(session.id)}", "rev") == "2")
        #expect(try server.cli(database: database, "HGET", "wf:s:{\(session.id)}", "used") == String(Fixture.t0))
        #expect(try server.cli(database: database, "ZSCORE", "wf:live", session.id) == String(Fixture.t0))
        #expect(try server.cli(database: database, "ZSCORE", "wf:ik:{\(session.id)}", "key-1") == String(Fixture.t0))
        #expect(try server.cli(database: database, "EXISTS", "wf:i:{\(session.id)}:key-1") == "1")
        let ttl = try #require(Int(try server.cli(database: database, "PTTL", "wf:s:{\(session.id)}")))
        #expect((60_000...70_000).contains(ttl))  // 10 s TTL + 60 s allowance
        #expect(try server.cli(database: database, "DBSIZE") == "5")  // wf:s, wf:ik, wf:i, wf:live, wf:irec

        #expect(try store.delete(id: session.id))
        #expect(try server.cli(database: database, "DBSIZE") == "0")

        let idle = Fixture.session()
        try store.create(idle, maxSessions: 10)
        try store.save(Fixture.next(idle), expectedRevision: 1, idempotency: Fixture.record(idle.id))
        #expect(try store.expire(now: Fixture.t0 + 10_001) == 1)
        #expect(try server.cli(database: database, "DBSIZE") == "0")
    }

    @Test func redisDropsAbandonedKeysByTTLAndTheNextSweepCleansTheIndex() throws {
        let server = try RedisServer.shared.get()
        let database = RedisServer.freshDatabase()
        let store = try RedisStore(
            url: server.url(database: database), configuration: StoreConfiguration(ttlMillis: 200),
            keyExpiryAllowanceMillis: 0)
        defer { store.close() }
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        // By the callers' clock the session is live; Redis' own TTL (200 ms of real time) drops it.
        let deadline = ContinuousClock.now + .seconds(5)
        while try store.load(id: session.id, now: Fixture.t0) != nil, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(try store.load(id: session.id, now: Fixture.t0) == nil)
        #expect(try store.count(now: Fixture.t0) == 1)  // still indexed until a sweep
        let recorder = ChangeRecorder()
        let subscription = store.changes.subscribe(session.id) { recorder.record($0) }
        defer { subscription.cancel() }
        #expect(try store.expire(now: Fixture.t0 + 201) == 1)
        #expect(recorder.changes == [.deleted])
        #expect(try server.cli(database: database, "DBSIZE") == "0")
    }

    // MARK: Outage

    @Test func anOutageIsUnavailableQuicklyAndTheStoreRecoversByItself() throws {
        let server = try RedisServer(appendfsync: "always")
        let a = try RedisStore(url: server.url(), configuration: StoreConfiguration())
        let b = try RedisStore(url: server.url(), configuration: StoreConfiguration())
        defer {
            a.close()
            b.close()
        }
        let session = Fixture.session()
        try a.create(session, maxSessions: 10)
        let saved = Fixture.next(session)
        let record = Fixture.record(session.id)
        try a.save(saved, expectedRevision: 1, idempotency: record)
        #expect(b.waitUntilReceivingChanges(timeout: .seconds(5)))

        server.kill()  // SIGKILL: no shutdown, only what the append-only file already has
        for _ in 0..<3 {
            let started = ContinuousClock.now
            // Readiness names the unreachable node, not the subscription that went with it.
            do {
                try a.ping()
                Issue.record("expected .unavailable, the call succeeded")
            } catch StoreError.unavailable(let message) {
                #expect(!message.contains("subscription"), "\(message)")
            } catch {
                Issue.record("expected .unavailable, got \(error)")
            }
            expectUnavailable { _ = try a.load(id: session.id, now: Fixture.t0) }
            expectUnavailable { try a.save(Fixture.next(saved), expectedRevision: 2, idempotency: nil) }
            expectUnavailable { try a.create(Fixture.session(), maxSessions: 10) }
            expectUnavailable { _ = try b.delete(id: session.id) }
            expectUnavailable { _ = try b.expire(now: Fixture.t0) }
            #expect(ContinuousClock.now - started < .seconds(1))
        }

        try server.start()  // same port and directory
        // Each store's connections come back after their back-off (at most a second).
        let deadline = ContinuousClock.now + .seconds(5)
        while (try? a.ping()) == nil || (try? b.ping()) == nil, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        try a.ping()
        try b.ping()
        // The data saved before the outage is there, and the same store objects work again.
        #expect(try a.load(id: session.id, now: Fixture.t0) == saved)
        #expect(try b.idempotencyRecord(sessionID: session.id, key: "key-1", now: Fixture.t0) == record)
        #expect(b.waitUntilReceivingChanges(timeout: .seconds(5)))
        let arrivals = ArrivalClock()
        let subscription = b.changes.subscribe(session.id) { arrivals.record($0) }
        defer { subscription.cancel() }
        _ = try b.load(id: session.id, now: Fixture.t0)  // the watch is registered before this read (as a stream reads after subscribing)
        try a.save(Fixture.next(saved), expectedRevision: 2, idempotency: nil)
        #expect(arrivals.wait(for: .saved(revision: 3), timeout: .seconds(2)) != nil)
        #expect(try b.count(now: Fixture.t0) == 1)
    }

    // MARK: Helpers

    private func twoInstances(configuration: StoreConfiguration = StoreConfiguration()) throws -> (RedisStore, RedisStore) {
        let url = try RedisServer.shared.get().url(database: RedisServer.freshDatabase())
        return (
            try RedisStore(url: url, configuration: configuration),
            try RedisStore(url: url, configuration: configuration)
        )
    }

    private func expectUnavailable(
        _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            try body()
            Issue.record("expected .unavailable, the call succeeded", sourceLocation: sourceLocation)
        } catch StoreError.unavailable {
        } catch {
            Issue.record("expected .unavailable, got \(error)", sourceLocation: sourceLocation)
        }
    }
}

/// Records changes with their arrival time and lets a test wait for one (bounded, no fixed sleep).
final class ArrivalClock: Sendable {
    private let condition = NSCondition()
    private let received = Mutex<[(SessionChange, ContinuousClock.Instant)]>([])

    func record(_ change: SessionChange) {
        condition.lock()
        received.withLock { $0.append((change, .now)) }
        condition.broadcast()
        condition.unlock()
    }

    var changes: [SessionChange] {
        received.withLock { $0.map(\.0) }
    }

    /// When `change` arrived, waiting at most `timeout` for it; nil if it did not.
    func wait(for change: SessionChange, timeout: Duration) -> ContinuousClock.Instant? {
        let deadline = Date(timeIntervalSinceNow: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = received.withLock({ $0.first { $0.0 == change }?.1 }) { return found }
            if !condition.wait(until: deadline) {
                return received.withLock { $0.first { $0.0 == change }?.1 }
            }
        }
    }
}
