import Testing
@testable import WayfinderStore

/// The SQLite journal's layout: no index, each session's row lists its entries, and the sweep
/// deletes the rows no session lists — so the file holds what the bounds allow, not every entry
/// ever written.
@Suite("SQLite journal layout")
struct SQLiteJournalTests {
    private static func journalRows(_ path: String) throws -> Int64? {
        try SQLiteConnection(path: path).queryInt("SELECT count(*) FROM journal")
    }

    @Test func aWindowSurvivesItsEncodingAndMalformedBytesAreRefused() throws {
        var window = SQLiteJournalWindow()
        for (rowid, revision) in [(7, 1), (9, 2), (3, 3), (70_000, 40)] {
            _ = window.append(.init(rowid: Int64(rowid), revision: revision, size: rowid * 3), maxEntries: 10, maxBytes: .max)
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
            _ = window.append(.init(rowid: rowid, revision: revision, size: size), maxEntries: 40, maxBytes: maxBytes)
            #expect(SQLiteJournalWindow(encoded: window.encoded)?.items == window.items)
        }
        #expect(window.items.count > 1)
    }

    @Test func aWindowKeepsTheNewestWithinItsBoundsAndReplacesARevisionWrittenAgain() {
        var window = SQLiteJournalWindow()
        for revision in 1...5 {
            _ = window.append(.init(rowid: Int64(revision), revision: revision, size: 10), maxEntries: 3, maxBytes: .max)
        }
        #expect(window.items.map(\.revision) == [3, 4, 5])
        #expect(window.append(.init(rowid: 6, revision: 4, size: 10), maxEntries: 3, maxBytes: .max) == 2)
        #expect(window.items.map(\.rowid) == [3, 6])
        #expect(window.bytes == 20)
    }

    @Test func theFileKeepsOnlyTheEntriesTheBoundsAllow() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/sessions.sqlite"
        let store = try SQLiteStore(path: path, configuration: StoreConfiguration(journalEntriesPerSession: 3))
        let first = try JournalStoreTests.walk(store, to: 400)
        let second = try JournalStoreTests.walk(store, to: 250)
        #expect(try store.journal(id: first.id, since: 0).map(\.revision) == [398, 399, 400])
        #expect(try store.journal(id: second.id, since: 0).map(\.revision) == [248, 249, 250])
        // 650 entries appended, 6 kept: what waits for the sweep is less than one walk's worth
        // (two rows walked per entry dropped), not the 644 dropped.
        #expect(try Self.journalRows(path)! < 6 + SQLiteJournalWriter.walkBatch / 2)
    }

    @Test func rowsLeftWaitingWhenTheStoreClosedAreFoundAfterOpening() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/sessions.sqlite"
        let configuration = StoreConfiguration(journalEntriesPerSession: 3)
        var session: StoredSession
        do {
            let store = try SQLiteStore(path: path, configuration: configuration)
            // 40 dropped: fewer than a batch, so they wait, and the store closes with them.
            session = try JournalStoreTests.walk(store, to: 43)
            #expect(try Self.journalRows(path) == 43)
            try store.close()
        }
        let store = try SQLiteStore(path: path, configuration: configuration)
        // Nothing in memory knows those rows now; the walk finds them as entries are appended.
        for _ in 0..<30 {
            let next = Fixture.next(session)
            try store.save(next, expectedRevision: session.revision, idempotency: nil, journal: JournalStoreTests.entry(next.revision))
            session = next
        }
        #expect(try store.journal(id: session.id, since: 0).map(\.revision) == [71, 72, 73])
        #expect(try Self.journalRows(path)! < 3 + 30)
    }

    @Test func theEntriesOfDeletedAndExpiredSessionsAreSwept() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/sessions.sqlite"
        let store = try SQLiteStore(path: path, configuration: StoreConfiguration(ttlMillis: 1_000))
        let deleted = try JournalStoreTests.walk(store, to: 5)
        _ = try JournalStoreTests.walk(store, to: 4)
        #expect(try Self.journalRows(path) == 9)
        #expect(try store.delete(id: deleted.id))
        #expect(try Self.journalRows(path) == 4)
        #expect(try store.expire(now: Fixture.t0 + 1_001) == 1)
        #expect(try Self.journalRows(path) == 0)
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
        #expect(try SQLiteConnection(path: path).queryInt("PRAGMA user_version") == 3)
        #expect(try store.delete(id: "other"))
        #expect(try store.journal(id: "other", since: 0) == [])
    }
}
