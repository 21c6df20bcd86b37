import Testing
import WayfinderStore

/// The journal every `SessionStore` keeps: appended in the same step as the state, bounded by
/// entries and bytes (oldest out, newest kept), gone with its session.
@Suite("SessionStore journal")
struct JournalStoreTests {
    /// An entry for `revision` of `size` bytes, record and state (the store never reads them).
    static func entry(_ revision: Int, size: Int = 10) -> JournalEntry {
        let record = Array("r\(revision): ".utf8)
        return JournalEntry(revision: revision, record: record, state: [UInt8](repeating: UInt8(ascii: "x"), count: max(0, size - record.count)))
    }

    /// Creates a session with entry 1, then saves revisions 2...`last` with an entry each.
    static func walk(_ store: any SessionStore, to last: Int, size: Int = 10, idempotencyEvery: Int = 0) throws -> StoredSession {
        var session = Fixture.session()
        try store.create(session, maxSessions: 10, now: Fixture.t0, journal: entry(1, size: size))
        for revision in stride(from: 2, through: last, by: 1) {
            let next = Fixture.next(session)
            let record = idempotencyEvery > 0 && revision % idempotencyEvery == 0 ? Fixture.record(session.id, key: "k\(revision)") : nil
            try store.save(next, expectedRevision: session.revision, idempotency: record, journal: entry(revision, size: size))
            session = next
        }
        return session
    }

    @Test(arguments: StoreKind.allCases)
    func entriesComeBackOldestFirstFromTheRevisionAsked(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = try Self.walk(store, to: 5, idempotencyEvery: 2)
        #expect(try store.journal(id: session.id, since: 0) == (1...5).map { Self.entry($0) })
        #expect(try store.journal(id: session.id, since: 4) == [Self.entry(4), Self.entry(5)])
        #expect(try store.journal(id: session.id, since: 6) == [])
        #expect(try store.journal(id: "absent", since: 0) == [])
        // The idempotency records saved alongside are there too.
        #expect(try store.idempotencyRecord(sessionID: session.id, key: "k4", now: Fixture.t0) != nil)
    }

    @Test(arguments: StoreKind.allCases)
    func largerEntriesComeBackAsWrittenWithinTheBound(kind: StoreKind) throws {
        // Entries of 400 bytes under a bound of five: the history from the start and from a
        // revision is the newest entries as they were written, in every store.
        let made = try kind.make(configuration: StoreConfiguration(journalEntriesPerSession: 5))
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = try Self.walk(store, to: 20, size: 400)
        #expect(try store.journal(id: session.id, since: 0) == (16...20).map { Self.entry($0, size: 400) })
        #expect(try store.journal(id: session.id, since: 18) == (18...20).map { Self.entry($0, size: 400) })
        let roomy = try Self.walk(store, to: 4, size: 400)
        #expect(try store.journal(id: roomy.id, since: 2) == (2...4).map { Self.entry($0, size: 400) })
    }

    @Test(arguments: StoreKind.allCases)
    func theEntryBoundDropsTheOldest(kind: StoreKind) throws {
        let made = try kind.make(configuration: StoreConfiguration(journalEntriesPerSession: 3))
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = try Self.walk(store, to: 7)
        #expect(try store.journal(id: session.id, since: 0).map(\.revision) == [5, 6, 7])
    }

    @Test(arguments: StoreKind.allCases)
    func theByteBoundDropsTheOldestButKeepsTheNewest(kind: StoreKind) throws {
        let made = try kind.make(configuration: StoreConfiguration(journalBytesPerSession: 250))
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = try Self.walk(store, to: 6, size: 100)
        #expect(try store.journal(id: session.id, since: 0).map(\.revision) == [5, 6])
        // One entry larger than the bound on its own still stays: it is the newest.
        var next = Fixture.next(session)
        try store.save(next, expectedRevision: session.revision, idempotency: nil, journal: Self.entry(7, size: 400))
        #expect(try store.journal(id: session.id, since: 0).map(\.revision) == [7])
        let after = Fixture.next(next)
        try store.save(after, expectedRevision: next.revision, idempotency: nil, journal: Self.entry(8, size: 100))
        #expect(try store.journal(id: session.id, since: 0).map(\.revision) == [8])
        next = after
        try store.save(Fixture.next(next), expectedRevision: next.revision, idempotency: nil, journal: Self.entry(9, size: 100))
        #expect(try store.journal(id: session.id, since: 0).map(\.revision) == [8, 9])
    }

    @Test(arguments: StoreKind.allCases)
    func aRefusedSaveAppendsNothing(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = try Self.walk(store, to: 2)
        #expect(throws: StoreError.conflict(currentRevision: 2)) {
            try store.save(Fixture.next(session), expectedRevision: 1, idempotency: nil, journal: Self.entry(9))
        }
        let keyed = Fixture.next(session)
        try store.save(keyed, expectedRevision: 2, idempotency: Fixture.record(session.id), journal: Self.entry(3))
        #expect(throws: StoreError.idempotencyKeyTaken) {
            try store.save(Fixture.next(keyed), expectedRevision: 3, idempotency: Fixture.record(session.id), journal: Self.entry(4))
        }
        #expect(try store.journal(id: session.id, since: 0).map(\.revision) == [1, 2, 3])
    }

    @Test(arguments: StoreKind.allCases)
    func theJournalGoesWithItsSession(kind: StoreKind) throws {
        let made = try kind.make(configuration: StoreConfiguration(ttlMillis: 1_000))
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let deleted = try Self.walk(store, to: 3)
        #expect(try store.delete(id: deleted.id))
        #expect(try store.journal(id: deleted.id, since: 0) == [])
        let expired = try Self.walk(store, to: 3)
        #expect(try store.expire(now: Fixture.t0 + 1_001) == 1)
        #expect(try store.journal(id: expired.id, since: 0) == [])
    }

    @Test(arguments: StoreKind.allCases)
    func savesWithoutAnEntryLeaveTheJournalAsItIs(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = try Self.walk(store, to: 2)
        try store.save(Fixture.next(session), expectedRevision: 2, idempotency: Fixture.record(session.id))
        #expect(try store.journal(id: session.id, since: 0).map(\.revision) == [1, 2])
    }

    @Test func theSQLiteJournalOutlivesTheStore() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/db/sessions.sqlite"
        let id: String
        do {
            let store = try SQLiteStore(path: path, configuration: StoreConfiguration(journalEntriesPerSession: 4))
            id = try Self.walk(store, to: 6).id
            try store.close()
        }
        let reopened = try SQLiteStore(path: path, configuration: StoreConfiguration(journalEntriesPerSession: 4))
        #expect(try reopened.journal(id: id, since: 0).map(\.revision) == [3, 4, 5, 6])
    }

    @Test func twoStoresSharingOneSQLiteFileKeepTheBoundsBetweenThem() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/shared.sqlite"
        let configuration = StoreConfiguration(journalEntriesPerSession: 3)
        let stores = [
            try SQLiteStore(path: path, configuration: configuration, shared: true),
            try SQLiteStore(path: path, configuration: configuration, shared: true),
        ]
        var session = Fixture.session()
        try stores[0].create(session, maxSessions: 10, now: Fixture.t0, journal: Self.entry(1))
        // Each appends after the other's entries, which it has never seen.
        for revision in 2...8 {
            let next = Fixture.next(session)
            try stores[revision % 2].save(next, expectedRevision: session.revision, idempotency: nil, journal: Self.entry(revision))
            session = next
        }
        for store in stores { #expect(try store.journal(id: session.id, since: 0).map(\.revision) == [6, 7, 8]) }
    }
}
