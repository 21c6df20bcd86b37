import Foundation
import Testing
@testable import WayfinderStore

@Suite("SQLiteStore")
struct SQLiteStoreTests {
    @Test func dataSurvivesClosingAndReopening() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/nested/dir/sessions.sqlite"
        let session = Fixture.session()
        let gone = Fixture.session()
        let record = Fixture.record(session.id)
        do {
            let store = try SQLiteStore(path: path)
            try store.create(session, maxSessions: 10)
            try store.create(gone, maxSessions: 10)
            try store.save(Fixture.next(session), expectedRevision: 1, idempotency: record)
            #expect(try store.delete(id: gone.id))
        }
        let reopened = try SQLiteStore(path: path)
        #expect(try reopened.load(id: session.id, now: Fixture.t0) == Fixture.next(session))
        #expect(try reopened.load(id: gone.id, now: Fixture.t0) == nil)
        #expect(try reopened.idempotencyRecord(sessionID: session.id, key: "key-1", now: Fixture.t0) == record)
        #expect(try reopened.count(now: Fixture.t0) == 1)
        #expect(throws: StoreError.conflict(currentRevision: 2)) {
            try reopened.save(Fixture.next(session), expectedRevision: 1, idempotency: nil)
        }
    }

    @Test func aSchemaNewerThanTheServerIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/sessions.sqlite"
        do {
            let store = try SQLiteStore(path: path)
            try store.create(Fixture.session(), maxSessions: 10)
        }
        do {
            let connection = try SQLiteConnection(path: path)
            #expect(try connection.queryInt("PRAGMA user_version") == SQLiteSchema.currentVersion)
            #expect(try connection.queryText("PRAGMA journal_mode") == "wal")
            try connection.execute("PRAGMA user_version = 99")
        }
        #expect {
            _ = try SQLiteStore(path: path)
        } throws: { error in
            guard case StoreError.unavailable(let message) = error else { return false }
            return message.contains("schema version 99")
        }
    }

    @Test func openingAPathThatCannotBeCreatedIsUnavailable() {
        #expect {
            _ = try SQLiteStore(path: "/proc/wayfinder-no-such-dir/sessions.sqlite")
        } throws: { error in
            guard case StoreError.unavailable(let message) = error else { return false }
            return !message.isEmpty
        }
    }

    @Test func aFileThatIsNotADatabaseIsUnavailable() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/garbage.sqlite"
        try Data(repeating: 0x5a, count: 8_192).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteStore(path: path)
        } throws: { error in
            guard case StoreError.unavailable(let message) = error else { return false }
            return message.contains("not a database")
        }
    }

    /// A million stored sessions: opening reads no rows (count from the counter table), and one
    /// load by id works. Timing is reported on stdout, never asserted.
    @Test func openingAMillionRowDatabaseNeedsNoScan() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/big.sqlite"
        let rows = 1_000_000
        let state: [UInt8] = Array(#"{"stack":["dashboard"],"revision":1}"#.utf8)
        let token: [UInt8] = digest("token")
        var clock = ContinuousClock.now
        do {
            let store = try SQLiteStore(path: path, readerCount: 1)
            try store.insertAll(count: rows) { index in
                StoredSession(
                    id: "session-\(1_000_000 + index)", tokenHash: token, revision: 1, state: state,
                    lastUsed: Fixture.t0 + Int64(index / 1_000))
            }
            #expect(try store.count(now: Fixture.t0) == rows)
        }
        let built = ContinuousClock.now - clock

        clock = ContinuousClock.now
        let store = try SQLiteStore(path: path)
        let opened = ContinuousClock.now - clock
        clock = ContinuousClock.now
        let loaded = try store.load(id: "session-1765432", now: Fixture.t0)
        let firstLoad = ContinuousClock.now - clock
        print("[measure] 1M rows: built in \(built), opened in \(opened), first load in \(firstLoad)")

        #expect(loaded?.state == state)
        #expect(loaded?.lastUsed == Fixture.t0 + 765)
        #expect(try store.count(now: Fixture.t0) == rows)
        #expect(throws: StoreError.sessionLimit) {
            try store.create(Fixture.session(lastUsed: Fixture.t0), maxSessions: rows)
        }
    }

    @Test func checkpointsRunOnTheBackgroundThread() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/wal.sqlite"
        let store = try SQLiteStore(path: path)
        var session = Fixture.session()
        try store.create(session, maxSessions: 10)
        // 3,000 saves stay below the wake-up mark: the thread's once-a-second pass folds them in.
        for _ in 0..<3_000 {
            let next = Fixture.next(session, state: String(repeating: "x", count: 900))
            try store.save(next, expectedRevision: session.revision, idempotency: nil)
            session = next
        }
        var waited = 0
        while store.backgroundCheckpoints == 0 && waited < 200 {
            usleep(50_000)
            waited += 1
        }
        #expect(store.backgroundCheckpoints > 0)
        #expect(try store.load(id: session.id, now: Fixture.t0) == session)
    }

    /// A steady stream of commits (one at a time, over many sessions, each with a journal entry,
    /// so the file grows) must not keep the WAL from starting over: before the writer finished
    /// the thread's checkpoints, the WAL grew to the inline backstop (65,536 pages) while the
    /// thread, woken by every commit, checkpointed back to back.
    @Test func theWALStartsOverUnderASteadyStreamOfCommits() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/steady.sqlite"
        let store = try SQLiteStore(path: path)
        var sessions = (0..<2_000).map { Fixture.session("steady-\($0)", state: String(repeating: "s", count: 900)) }
        for session in sessions { try store.create(session, maxSessions: 10_000, now: Fixture.t0, journal: nil) }
        let record = Array(String(repeating: "r", count: 300).utf8)
        let frame = 4_096 + 24
        var largestWAL = 0
        for i in 0..<60_000 {
            let index = i % sessions.count
            let next = Fixture.next(sessions[index], state: String(repeating: "s", count: 900))
            try store.save(
                next, expectedRevision: sessions[index].revision, idempotency: nil,
                journal: JournalEntry(revision: next.revision, record: record, state: []))
            sessions[index] = next
            if i % 500 == 0 {
                let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
                largestWAL = max(largestWAL, size / frame)
            }
        }
        #expect(store.backgroundCheckpoints > 0)
        #expect(largestWAL > Int(SQLiteCheckpointer.wakePages))
        #expect(largestWAL < 3 * Int(SQLiteCheckpointer.wakePages), "the WAL reached \(largestWAL) pages")
        #expect(try store.load(id: sessions[7].id, now: Fixture.t0) == sessions[7])
    }

    @Test func closingFoldsTheWALIntoTheDatabase() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/close.sqlite"
        let store = try SQLiteStore(path: path)
        var session = Fixture.session()
        try store.create(session, maxSessions: 10)
        for _ in 0..<200 {
            let next = Fixture.next(session)
            try store.save(next, expectedRevision: session.revision, idempotency: nil)
            session = next
        }
        let walSize = { (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0 }
        #expect(walSize() > 0)
        try store.close()
        #expect(walSize() == 0)
        #expect(try SQLiteStore(path: path).load(id: session.id, now: Fixture.t0) == session)
    }
}
