import Testing
import WayfinderStore

/// The behaviour every `SessionStore` shares, run against each implementation.
@Suite("SessionStore behaviour")
struct SessionStoreTests {
    @Test(arguments: StoreKind.allCases)
    func createdSessionLoadsBack(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session(state: "")
        try store.create(session, maxSessions: 10)
        #expect(try store.load(id: session.id, now: Fixture.t0) == session)
        #expect(try store.load(id: "absent", now: Fixture.t0) == nil)
        #expect(try store.count(now: Fixture.t0) == 1)
        try store.ping()
    }

    @Test(arguments: StoreKind.allCases)
    func createRefusesAnExistingID(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        #expect(throws: StoreError.duplicateID) { try store.create(Fixture.next(session), maxSessions: 10) }
        #expect(try store.load(id: session.id, now: Fixture.t0) == session)
        #expect(try store.count(now: Fixture.t0) == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func saveWithTheCurrentRevisionReplacesTheSession(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        let next = Fixture.next(session, at: Fixture.t0 + 5)
        try store.save(next, expectedRevision: 1, idempotency: nil)
        #expect(try store.load(id: session.id, now: Fixture.t0 + 5) == next)
    }

    @Test(arguments: StoreKind.allCases)
    func staleSaveReportsTheCurrentRevisionAndChangesNothing(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        let second = Fixture.next(session)
        try store.save(second, expectedRevision: 1, idempotency: nil)
        let rival = Fixture.next(session, state: #"{"rival":true}"#)
        #expect(throws: StoreError.conflict(currentRevision: 2)) {
            try store.save(rival, expectedRevision: 1, idempotency: Fixture.record(session.id))
        }
        #expect(try store.load(id: session.id, now: Fixture.t0) == second)
        #expect(try store.idempotencyRecord(sessionID: session.id, key: "key-1", now: Fixture.t0) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func saveOfAnAbsentSessionIsNotFound(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        #expect(throws: StoreError.notFound) {
            try store.save(Fixture.session(), expectedRevision: 1, idempotency: nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deleteRemovesTheSessionAndItsIdempotencyRecords(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session()
        let other = Fixture.session()
        try store.create(session, maxSessions: 10)
        try store.create(other, maxSessions: 10)
        try store.save(Fixture.next(session), expectedRevision: 1, idempotency: Fixture.record(session.id))
        try store.save(Fixture.next(other), expectedRevision: 1, idempotency: Fixture.record(other.id))

        #expect(try store.delete(id: session.id))
        #expect(try store.load(id: session.id, now: Fixture.t0) == nil)
        #expect(try store.idempotencyRecord(sessionID: session.id, key: "key-1", now: Fixture.t0) == nil)
        #expect(try store.delete(id: session.id) == false)
        #expect(try store.count(now: Fixture.t0) == 1)
        // The other session keeps its record.
        #expect(try store.idempotencyRecord(sessionID: other.id, key: "key-1", now: Fixture.t0) != nil)
        // Re-creating the id does not resurrect old records.
        try store.create(session, maxSessions: 10)
        #expect(try store.idempotencyRecord(sessionID: session.id, key: "key-1", now: Fixture.t0) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func sessionsIdleLongerThanTheTTLAreNotLoaded(kind: StoreKind) throws {
        let made = try kind.make(configuration: StoreConfiguration(ttlMillis: 1_000))
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        #expect(try store.load(id: session.id, now: Fixture.t0 + 1_000) == session)
        #expect(try store.load(id: session.id, now: Fixture.t0 + 1_001) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func touchKeepsASessionAliveWithoutChangingItsRevision(kind: StoreKind) throws {
        let made = try kind.make(configuration: StoreConfiguration(ttlMillis: 1_000))
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        try store.touch(id: session.id, now: Fixture.t0 + 900)
        try store.touch(id: session.id, now: Fixture.t0 + 100)  // never moves backwards
        let loaded = try #require(try store.load(id: session.id, now: Fixture.t0 + 1_500))
        #expect(loaded.revision == 1)
        #expect(loaded.lastUsed == Fixture.t0 + 900)
        #expect(try store.expire(now: Fixture.t0 + 1_900) == 0)
        #expect(try store.expire(now: Fixture.t0 + 1_901) == 1)
        #expect(throws: StoreError.notFound) { try store.touch(id: session.id, now: Fixture.t0 + 2_000) }
    }

    @Test(arguments: StoreKind.allCases)
    func aSaveNeverMovesLastUsedBackwards(kind: StoreKind) throws {
        let made = try kind.make(configuration: StoreConfiguration(ttlMillis: 1_000))
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        try store.touch(id: session.id, now: Fixture.t0 + 900)
        // A save carrying the lastUsed it loaded before the touch keeps the touch.
        var second = Fixture.next(session)
        second.lastUsed = Fixture.t0
        try store.save(second, expectedRevision: 1, idempotency: nil)
        let loaded = try #require(try store.load(id: session.id, now: Fixture.t0 + 1_500))
        #expect(loaded.revision == 2)
        #expect(loaded.state == second.state)
        #expect(loaded.lastUsed == Fixture.t0 + 900)
        // A later lastUsed is taken.
        var third = Fixture.next(loaded)
        third.lastUsed = Fixture.t0 + 1_200
        try store.save(third, expectedRevision: 2, idempotency: nil)
        #expect(try store.load(id: session.id, now: Fixture.t0 + 2_100)?.lastUsed == Fixture.t0 + 1_200)
        #expect(try store.expire(now: Fixture.t0 + 2_200) == 0)
        #expect(try store.expire(now: Fixture.t0 + 2_201) == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func expireDeletesIdleSessionsAndPublishesTheirDeletion(kind: StoreKind) throws {
        let made = try kind.make(configuration: StoreConfiguration(ttlMillis: 1_000))
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let idle = Fixture.session(lastUsed: Fixture.t0)
        let active = Fixture.session(lastUsed: Fixture.t0 + 500)
        try store.create(idle, maxSessions: 10)
        try store.create(active, maxSessions: 10)
        try store.save(Fixture.next(idle), expectedRevision: 1, idempotency: Fixture.record(idle.id))
        let recorder = ChangeRecorder()
        let subscription = store.changes.subscribe(idle.id) { recorder.record($0) }
        defer { subscription.cancel() }

        #expect(try store.expire(now: Fixture.t0 + 1_000) == 0)
        #expect(try store.expire(now: Fixture.t0 + 1_001) == 1)
        #expect(recorder.changes == [.deleted])
        #expect(try store.count(now: Fixture.t0 + 1_001) == 1)
        #expect(try store.load(id: idle.id, now: Fixture.t0) == nil)
        #expect(try store.idempotencyRecord(sessionID: idle.id, key: "key-1", now: Fixture.t0) == nil)
        #expect(try store.load(id: active.id, now: Fixture.t0 + 1_001) == active)
    }

    @Test(arguments: StoreKind.allCases)
    func createRefusesAtTheSessionCapUntilASessionIsDeleted(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let sessions = (0..<3).map { _ in Fixture.session() }
        for session in sessions { try store.create(session, maxSessions: 3) }
        let extra = Fixture.session()
        #expect(throws: StoreError.sessionLimit) { try store.create(extra, maxSessions: 3) }
        #expect(try store.count(now: Fixture.t0) == 3)
        #expect(try store.delete(id: sessions[0].id))
        try store.create(extra, maxSessions: 3)
        #expect(try store.count(now: Fixture.t0) == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func createAtTheCapReclaimsExpiredSessions(kind: StoreKind) throws {
        let made = try kind.make(configuration: StoreConfiguration(ttlMillis: 1_000))
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let old = Fixture.session(lastUsed: Fixture.t0)
        try store.create(old, maxSessions: 1)
        let recorder = ChangeRecorder()
        let subscription = store.changes.subscribe(old.id) { recorder.record($0) }
        defer { subscription.cancel() }
        // Still live at +1000: refused.
        #expect(throws: StoreError.sessionLimit) {
            try store.create(Fixture.session(lastUsed: Fixture.t0 + 1_000), maxSessions: 1)
        }
        // Expired at +2000 (and the reclaim gate's interval has passed): the old one makes room.
        let fresh = Fixture.session(lastUsed: Fixture.t0 + 2_000)
        try store.create(fresh, maxSessions: 1)
        #expect(recorder.changes == [.deleted])
        #expect(try store.count(now: Fixture.t0 + 2_000) == 1)
        #expect(try store.load(id: fresh.id, now: Fixture.t0 + 2_000) == fresh)
    }

    @Test(arguments: StoreKind.allCases)
    func idempotencyRecordRoundTripsWithTheSave(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        let record = Fixture.record(session.id)
        try store.save(Fixture.next(session), expectedRevision: 1, idempotency: record)
        #expect(try store.idempotencyRecord(sessionID: session.id, key: "key-1", now: Fixture.t0) == record)
        #expect(try store.idempotencyRecord(sessionID: session.id, key: "key-2", now: Fixture.t0) == nil)

        // Empty headers and body round-trip too; a record whose key has expired is replaced.
        var bare = Fixture.record(session.id, createdAt: Fixture.t0 + StoreConfiguration.day + 1, body: "")
        bare.headers = []
        bare.status = 204
        try store.save(Fixture.next(Fixture.next(session)), expectedRevision: 2, idempotency: bare)
        #expect(try store.idempotencyRecord(sessionID: session.id, key: "key-1", now: bare.createdAt) == bare)
    }

    /// Two requests racing with one key: the second save (a no-op keeping the revision, or a
    /// change) is refused whole, so only the first is ever answered from the store.
    @Test(arguments: StoreKind.allCases)
    func aSaveWithATakenIdempotencyKeyChangesNothing(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        let first = Fixture.record(session.id, body: "first")
        try store.save(session, expectedRevision: 1, idempotency: first)  // a no-op answer: revision kept
        #expect(throws: StoreError.idempotencyKeyTaken) {
            try store.save(Fixture.next(session), expectedRevision: 1, idempotency: Fixture.record(session.id, body: "second"))
        }
        #expect(try store.load(id: session.id, now: Fixture.t0)?.revision == 1)
        #expect(try store.idempotencyRecord(sessionID: session.id, key: "key-1", now: Fixture.t0) == first)
        // A stale revision is reported first, as for any save.
        #expect(throws: StoreError.conflict(currentRevision: 1)) {
            try store.save(Fixture.next(Fixture.next(session)), expectedRevision: 2, idempotency: Fixture.record(session.id))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aSessionKeepsItsNewestIdempotencyRecordsUpToTheCap(kind: StoreKind) throws {
        let made = try kind.make(configuration: StoreConfiguration(idempotencyRecordsPerSession: 3))
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        var session = Fixture.session()
        try store.create(session, maxSessions: 10)
        for n in 1...5 {
            let next = Fixture.next(session)
            try store.save(next, expectedRevision: session.revision, idempotency: Fixture.record(session.id, key: "k\(n)", createdAt: Fixture.t0 + Int64(n)))
            session = next
        }
        let kept = try (1...5).filter { try store.idempotencyRecord(sessionID: session.id, key: "k\($0)", now: Fixture.t0 + 5) != nil }
        #expect(kept == [3, 4, 5])
    }

    /// The answers of a session's records fit its byte budget, newest first: an older record
    /// keeps its fingerprint and status (so a retry is refused, not run again), and one answer
    /// larger than the budget is not kept even as the newest.
    @Test(arguments: StoreKind.allCases)
    func aSessionKeepsItsNewestAnswersWithinTheByteBudget(kind: StoreKind) throws {
        let made = try kind.make(configuration: StoreConfiguration(idempotencyBytesPerSession: 3000))
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        var session = Fixture.session()
        try store.create(session, maxSessions: 10)
        func add(_ n: Int, bytes: Int, at time: Int64? = nil) throws {
            let next = Fixture.next(session)
            let record = Fixture.record(
                session.id, key: "k\(n)", createdAt: time ?? Fixture.t0 + Int64(n), body: String(repeating: "\(n)", count: bytes))
            try store.save(next, expectedRevision: session.revision, idempotency: record)
            session = next
        }
        for n in 1...5 { try add(n, bytes: 1000) }
        let records = try (1...5).map { try #require(try store.idempotencyRecord(sessionID: session.id, key: "k\($0)", now: Fixture.t0 + 5)) }
        #expect(records.map(\.answerDropped) == [true, true, true, false, false])
        #expect(records[4] == Fixture.record(session.id, key: "k5", createdAt: Fixture.t0 + 5, body: String(repeating: "5", count: 1000)))
        let oldest = Fixture.record(session.id, key: "k1", createdAt: Fixture.t0 + 1, body: String(repeating: "1", count: 1000))
        #expect(records[0] == oldest.withoutAnswer)
        #expect(records[0].status == 200 && records[0].fingerprint == oldest.fingerprint)
        #expect(store.idempotencyAnswersDropped == 3)

        try add(6, bytes: 4000)
        let dropped = try (4...6).map { try store.idempotencyRecord(sessionID: session.id, key: "k\($0)", now: Fixture.t0 + 6)?.answerDropped }
        #expect(dropped == [true, true, true])
        #expect(store.idempotencyAnswersDropped == 6)

        // Records of one millisecond: the one just stored counts as the newest.
        for n in 7...9 { try add(n, bytes: 1000, at: Fixture.t0 + 7) }
        let sameTime = try (7...9).map { try store.idempotencyRecord(sessionID: session.id, key: "k\($0)", now: Fixture.t0 + 7)?.answerDropped }
        #expect(sameTime.last == false)
        #expect(sameTime.filter { $0 == true }.count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func deleteAtAStaleRevisionKeepsTheSession(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        let next = Fixture.next(session)
        try store.save(next, expectedRevision: 1, idempotency: nil)
        let recorder = ChangeRecorder()
        let subscription = store.changes.subscribe(session.id) { recorder.record($0) }
        defer { subscription.cancel() }
        #expect(throws: StoreError.conflict(currentRevision: 2)) { try store.delete(id: session.id, expectedRevision: 1) }
        #expect(try store.load(id: session.id, now: Fixture.t0) == next)
        #expect(recorder.changes.isEmpty)
        #expect(try store.delete(id: session.id, expectedRevision: 2))
        #expect(try store.load(id: session.id, now: Fixture.t0) == nil)
        #expect(try store.delete(id: session.id, expectedRevision: 2) == false)
        #expect(try store.count(now: Fixture.t0) == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func idempotencyRecordsExpireAfterTwentyFourHours(kind: StoreKind) throws {
        let made = try kind.make(configuration: StoreConfiguration(ttlMillis: 7 * StoreConfiguration.day))
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let day = StoreConfiguration.day
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        let record = Fixture.record(session.id)
        try store.save(Fixture.next(session), expectedRevision: 1, idempotency: record)
        #expect(try store.idempotencyRecord(sessionID: session.id, key: "key-1", now: Fixture.t0 + day) == record)
        #expect(try store.idempotencyRecord(sessionID: session.id, key: "key-1", now: Fixture.t0 + day + 1) == nil)

        #expect(try store.expire(now: Fixture.t0 + day + 1) == 0)
        // Removed, not merely hidden: an earlier clock no longer sees it.
        #expect(try store.idempotencyRecord(sessionID: session.id, key: "key-1", now: Fixture.t0) == nil)
        #expect(try store.load(id: session.id, now: Fixture.t0 + day + 1) != nil)
    }

    @Test(arguments: StoreKind.allCases)
    func subscribersReceiveSavesAndTheDeletionInOrderUntilCancelled(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session()
        let other = Fixture.session()
        try store.create(session, maxSessions: 10)
        try store.create(other, maxSessions: 10)
        let recorder = ChangeRecorder()
        let subscription = store.changes.subscribe(session.id) { recorder.record($0) }

        let second = Fixture.next(session)
        try store.save(second, expectedRevision: 1, idempotency: nil)
        try store.save(Fixture.next(other), expectedRevision: 1, idempotency: nil)
        let third = Fixture.next(second)
        try store.save(third, expectedRevision: 2, idempotency: nil)
        // A save that keeps the revision (e.g. to store an idempotency record) is not a change.
        try store.save(third, expectedRevision: 3, idempotency: Fixture.record(session.id))
        #expect(throws: StoreError.conflict(currentRevision: 3)) {
            try store.save(Fixture.next(third), expectedRevision: 2, idempotency: nil)
        }
        #expect(try store.delete(id: session.id))
        #expect(recorder.changes == [.saved(revision: 2), .saved(revision: 3), .deleted])

        subscription.cancel()
        try store.create(session, maxSessions: 10)
        try store.save(second, expectedRevision: 1, idempotency: nil)
        #expect(recorder.changes == [.saved(revision: 2), .saved(revision: 3), .deleted])
        #expect(store.changes.subscriberCount(session.id) == 0)
    }
}
