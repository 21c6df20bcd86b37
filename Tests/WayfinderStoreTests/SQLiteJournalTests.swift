import Glibc
import Testing
@testable import WayfinderStore

/// The SQLite journal's layout: entries in the log beside the file, each session's row listing
/// where its entries are, and the log's collector deleting the segments no window names anything
/// in — so the log holds about what the bounds allow, not every entry ever written.
@Suite("SQLite journal layout")
struct SQLiteJournalTests {
    /// Small segments, so a few hundred entries fill many of them.
    static let segmentBytes = 1_024

    static func open(_ path: String, entries: Int = 3, ttlMillis: Int64 = StoreConfiguration.day, shared: Bool = false) throws -> SQLiteStore {
        try SQLiteStore(
            path: path, configuration: StoreConfiguration(ttlMillis: ttlMillis, journalEntriesPerSession: entries),
            durability: .processCrash, readerCount: 2, busyTimeoutMillis: 5_000, rowCacheCapacity: shared ? 0 : 1_024,
            shared: shared, journalSegmentBytes: segmentBytes)
    }

    /// The log's segments, by number, with their sizes in bytes.
    static func segments(_ path: String) throws -> [UInt32: Int] {
        let log = SQLiteEntryLog(databasePath: path, durable: false)
        var sizes: [UInt32: Int] = [:]
        for segment in try log.segmentsOnDisk() {
            var info = stat()
            #expect(stat(log.path(of: segment), &info) == 0)
            sizes[segment] = Int(info.st_size)
        }
        return sizes
    }

    static func logBytes(_ path: String) throws -> Int {
        try segments(path).values.reduce(0, +)
    }

    static func save(_ store: SQLiteStore, _ session: inout StoredSession, times: Int) throws {
        for _ in 0..<times {
            let next = Fixture.next(session)
            try store.save(next, expectedRevision: session.revision, idempotency: nil, journal: JournalStoreTests.entry(next.revision))
            session = next
        }
    }

    @Test func aWindowSurvivesItsEncodingAndMalformedBytesAreRefused() throws {
        var window = SQLiteJournalWindow()
        for (rowid, revision) in [(7, 1), (9, 2), (3, 3), (70_000, 40)] {
            _ = window.append(.init(position: Int64(rowid), revision: revision, size: rowid * 3), maxEntries: 10, maxBytes: .max)
        }
        #expect(SQLiteJournalWindow(encoded: window.encoded) == window)
        #expect(SQLiteJournalWindow(encoded: [])?.items == [])
        #expect(SQLiteJournalWindow(encoded: [0x80]) == nil)  // a varint cut short
        #expect(SQLiteJournalWindow(encoded: [2, 1, 1, 2, 0, 1]) == nil)  // a revision that does not grow
        #expect(SQLiteJournalWindow(encoded: [1, 1, 1]) == nil)  // a rowid below 1
    }

    @Test func aWindowsStoredFormFollowsItsAppendsDropsAndReplacements() {
        // After every step of a long mix of appends, drops and replacements, with rowids that
        // jump and sizes across varint widths, the stored form decodes to the window's entries.
        var window = SQLiteJournalWindow()
        var rowid: Int64 = 1
        var revision = 0
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: UInt64) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % bound)
        }
        for step in 0..<2_000 {
            // Mostly the next revision; now and then one written again (a rollback's retry) or a
            // jump; rowids mostly grow, by one or by thousands, and sizes cross varint widths.
            revision = next(10) == 0 ? max(1, revision - next(4)) : revision + 1 + (next(20) == 0 ? 300 : 0)
            rowid += next(8) == 0 ? Int64(next(100_000)) : 1
            let size = next(6) == 0 ? 20_000 + next(200_000) : 100 + next(300)
            let maxBytes = step % 500 < 250 ? Int.max : 60_000
            _ = window.append(.init(position: rowid, revision: revision, size: size), maxEntries: 40, maxBytes: maxBytes)
            #expect(SQLiteJournalWindow(encoded: window.encoded)?.items == window.items)
        }
        #expect(window.items.count > 1)
    }

    @Test func aWindowKeepsTheNewestWithinItsBoundsAndReplacesARevisionWrittenAgain() {
        var window = SQLiteJournalWindow()
        for revision in 1...5 {
            _ = window.append(.init(position: Int64(revision), revision: revision, size: 10), maxEntries: 3, maxBytes: .max)
        }
        #expect(window.items.map(\.revision) == [3, 4, 5])
        #expect(window.append(.init(position: 6, revision: 4, size: 10), maxEntries: 3, maxBytes: .max) == 2)
        #expect(window.items.map(\.position) == [3, 6])
        #expect(window.bytes == 20)
    }

    @Test func theLogKeepsAboutWhatTheBoundsAllow() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/sessions.sqlite"
        let store = try Self.open(path)
        let first = try JournalStoreTests.walk(store, to: 400)
        let second = try JournalStoreTests.walk(store, to: 250)
        #expect(try store.journal(id: first.id, since: 0).map(\.revision) == [398, 399, 400])
        #expect(try store.journal(id: second.id, since: 0).map(\.revision) == [248, 249, 250])
        // 650 entries appended (about 30 KB in some 30 segments), 6 kept: what is left is the
        // newest few segments, not every entry written.
        let segments = try Self.segments(path)
        #expect(segments.keys.max()! > 20)
        #expect(segments.count <= 4, "\(segments)")
        #expect(try Self.logBytes(path) <= 4 * Self.segmentBytes)
    }

    @Test func segmentsLeftWhenTheStoreClosedAreCountedAndCollectedAfterOpening() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/sessions.sqlite"
        var session: StoredSession
        do {
            let store = try Self.open(path)
            session = try JournalStoreTests.walk(store, to: 60)
            try store.close()
        }
        let before = try Self.segments(path)
        // A crash tears the end of the last segment: bytes no window names.
        let log = SQLiteEntryLog(databasePath: path, durable: false)
        let torn = Glibc.open(log.path(of: before.keys.max()!), O_WRONLY | O_APPEND)
        #expect(torn >= 0)
        #expect(write(torn, [0x7f, 1, 2, 3], 4) == 4)
        close(torn)
        let store = try Self.open(path)
        #expect(try store.journal(id: session.id, since: 0).map(\.revision) == [58, 59, 60])
        // Nothing in memory knows those segments now; they are counted and collected as entries
        // are appended.
        try Self.save(store, &session, times: 200)
        #expect(try store.journal(id: session.id, since: 0) == (258...260).map { JournalStoreTests.entry($0) })
        let after = try Self.segments(path)
        #expect(Set(after.keys).isDisjoint(with: before.keys), "before \(before.keys.sorted()), after \(after.keys.sorted())")
    }

    @Test func theEntriesOfDeletedAndExpiredSessionsAreCollected() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/sessions.sqlite"
        let store = try Self.open(path, entries: 100, ttlMillis: 1_000)
        let deleted = try JournalStoreTests.walk(store, to: 60)
        _ = try JournalStoreTests.walk(store, to: 60)
        let before = try Self.segments(path)
        #expect(try store.delete(id: deleted.id))
        #expect(try store.expire(now: Fixture.t0 + 1_001) == 1)
        var session = Fixture.session()
        try store.create(session, maxSessions: 10, now: Fixture.t0 + 2_000, journal: JournalStoreTests.entry(1))
        try Self.save(store, &session, times: 80)
        #expect(try store.journal(id: session.id, since: 0).count == 81)
        // Every segment that held the two sessions' 120 entries is gone.
        #expect(Set(try Self.segments(path).keys).isDisjoint(with: before.keys.filter { $0 < before.keys.max()! }))
    }

    @Test func anIdleSessionsEntriesAreMovedForwardAndItsOldSegmentsDeleted() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/sessions.sqlite"
        let store = try Self.open(path, entries: 5)
        let idle = try JournalStoreTests.walk(store, to: 3)
        let kept = try store.journal(id: idle.id, since: 0)
        let first = try Self.segments(path).keys.min()!
        // Another session writes some 40 segments; the idle one's three entries are all that is
        // left of the first segment (about a sixth of it), so once it is eight segments old they
        // are copied forward and it is deleted.
        var busy = Fixture.session()
        try store.create(busy, maxSessions: 10, now: Fixture.t0, journal: JournalStoreTests.entry(1))
        try Self.save(store, &busy, times: 800)
        let segments = try Self.segments(path)
        #expect(segments[first] == nil)
        #expect(segments.count <= 6, "\(segments)")
        #expect(try store.journal(id: idle.id, since: 0) == kept)
        #expect(try store.journal(id: busy.id, since: 0).map(\.revision) == Array(797...801))
        // Another store on the file reads the same, from the windows it finds in the rows.
        try store.close()
        let reopened = try Self.open(path, entries: 5)
        #expect(try reopened.journal(id: idle.id, since: 0) == kept)
    }

    @Test func aRolledBackGroupsEntryIsNeverListedAndTheLogStillShrinks() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/sessions.sqlite"
        let store = try Self.open(path)
        var session = try JournalStoreTests.walk(store, to: 30)
        let duplicate = Fixture.session()
        try store.create(duplicate, maxSessions: 10, now: Fixture.t0, journal: nil)
        let loop = ManualLoop()
        let saved = Answer<Void>()
        let next = Fixture.next(session)
        store.save(next, expectedRevision: session.revision, idempotency: nil, journal: JournalStoreTests.entry(next.revision), on: loop, saved.done)
        // A statement that fails in the group rolls the save back, its entry with it.
        #expect(throws: StoreError.duplicateID) {
            try store.insertAll(count: 1) { _ in duplicate }
        }
        loop.endRound()
        #expect(throws: StoreError.self) { try saved.value() }
        #expect(try store.journal(id: session.id, since: 0).map(\.revision) == [28, 29, 30])
        // What the log knew is forgotten with the group; it counts its segments again and goes on.
        try Self.save(store, &session, times: 300)
        #expect(try store.journal(id: session.id, since: 0) == (328...330).map { JournalStoreTests.entry($0) })
        let segments = try Self.segments(path)
        #expect(segments.values.reduce(0, +) <= 4 * Self.segmentBytes, "\(segments)")
    }

    @Test func storesSharingAFileShareItsLog() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/sessions.sqlite"
        let one = try Self.open(path, entries: 4, shared: true)
        let two = try Self.open(path, entries: 4, shared: true)
        var session = Fixture.session()
        try one.create(session, maxSessions: 10, now: Fixture.t0, journal: JournalStoreTests.entry(1))
        for step in 0..<200 {
            try Self.save(step % 2 == 0 ? one : two, &session, times: 1)
        }
        let expected = (198...201).map { JournalStoreTests.entry($0) }
        #expect(try one.journal(id: session.id, since: 0) == expected)
        #expect(try two.journal(id: session.id, since: 0) == expected)
        // Each store appends to a segment of its own; the sealed ones are collected by either.
        #expect(try Self.segments(path).count <= 8)
    }

    @Test func aVersion2FileIsMigratedWithItsJournal() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/sessions.sqlite"
        let session = Fixture.session()
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute(SQLiteSchema.version1)
            try connection.execute(SQLiteSchema.version2)
            try connection.execute(
                """
                INSERT INTO sessions (id, token_hash, revision, state, last_used) VALUES ('\(session.id)', x'00', 3, x'00', \(Fixture.t0));
                INSERT INTO sessions (id, token_hash, revision, state, last_used) VALUES ('other', x'00', 1, x'00', \(Fixture.t0));
                INSERT INTO journal (session_id, revision, record, state) VALUES ('\(session.id)', 2, x'02', x'');
                INSERT INTO journal (session_id, revision, record, state) VALUES ('other', 1, x'01', x'aa');
                INSERT INTO journal (session_id, revision, record, state) VALUES ('\(session.id)', 3, x'03', x'');
                INSERT INTO journal (session_id, revision, record, state) VALUES ('\(session.id)', 1, x'01', x'bb');
                """)
        }
        let store = try SQLiteStore(path: path, configuration: StoreConfiguration(journalEntriesPerSession: 3))
        #expect(try store.journal(id: session.id, since: 0) == [
            JournalEntry(revision: 1, record: [1], state: [0xbb]),
            JournalEntry(revision: 2, record: [2], state: []),
            JournalEntry(revision: 3, record: [3], state: []),
        ])
        #expect(try store.journal(id: "other", since: 0) == [JournalEntry(revision: 1, record: [1], state: [0xaa])])
        // Appending after the migration applies the bound to the migrated entries too.
        var next = session
        next.revision = 4
        try store.save(next, expectedRevision: 3, idempotency: nil, journal: JournalStoreTests.entry(4))
        #expect(try store.journal(id: session.id, since: 0).map(\.revision) == [2, 3, 4])
        let connection = try SQLiteConnection(path: path)
        #expect(try connection.queryInt("PRAGMA user_version") == SQLiteSchema.currentVersion)
        #expect(try connection.queryInt("SELECT count(*) FROM sqlite_master WHERE name = 'journal'") == 0)
        #expect(try store.delete(id: "other"))
        #expect(try store.journal(id: "other", since: 0) == [])
    }
}
