import Foundation
import Synchronization
import Testing
import WayfinderStore

/// The journal and the state never disagree, whatever stops: a writer killed with SIGKILL
/// (SQLite) or Redis killed and restarted from its append-only file under writers.
///
/// Each save writes revision `n` of a session with the state `{"revision":n}` and an entry of
/// record `r<n> ` and that state, so after the crash every session must hold, as its newest entry, the
/// entry of its own revision, with the entries before it contiguous.
@Suite("Journal crash safety")
struct JournalCrashTests {
    static let databaseVariable = "WAYFINDER_JOURNAL_CRASH_WRITER_DB"
    static let sessionIDs = (0..<4).map { "journal-crash-\($0)" }

    static func state(_ revision: Int) -> [UInt8] { Array(#"{"revision":\#(revision)}"#.utf8) }
    static func entry(_ revision: Int) -> JournalEntry { JournalEntry(revision: revision, record: Array("r\(revision) ".utf8), state: state(revision)) }

    /// The journal of every session agrees with its state (and holds at least `minimum` entries).
    static func expectAgreement(_ store: any SessionStore, ids: [String], keep: Int) throws {
        for id in ids {
            let session = try #require(try store.load(id: id, now: Fixture.t0), "session \(id)")
            #expect(session.state == state(session.revision))
            let journal = try store.journal(id: id, since: 0)
            #expect(journal.last == entry(session.revision), "session \(id) at \(session.revision): newest entry \(journal.last?.revision ?? 0)")
            let first = max(1, session.revision - keep + 1)
            #expect(journal == (first...session.revision).map(entry), "session \(id)")
        }
    }

    @Test func aWriterKilledWithSIGKILLLeavesJournalAndStateInAgreement() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/crash/sessions.sqlite"
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = ["--testing-library", "swift-testing", "--filter", "JournalCrashTests/journalWriter"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.databaseVariable] = path
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        // Killed mid-stream, once it has acknowledged 1,500 saves.
        var lines = 0
        let reader = output.fileHandleForReading
        while lines < 1_500 {
            let data = reader.availableData
            if data.isEmpty { break }
            lines += data.filter { $0 == UInt8(ascii: "\n") }.count
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        try #require(lines >= 1_500, "the writer stopped after \(lines) saves")
        #expect(child.terminationReason == .uncaughtSignal)

        let reopened = try SQLiteStore(path: path, configuration: StoreConfiguration(journalEntriesPerSession: 50))
        try Self.expectAgreement(reopened, ids: Self.sessionIDs, keep: 50)
    }

    /// The child side of the SQLite test; skipped unless run by it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[databaseVariable] != nil))
    func journalWriter() throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.databaseVariable])
        let store = try SQLiteStore(path: path, configuration: StoreConfiguration(journalEntriesPerSession: 50))
        var revisions = Array(repeating: 1, count: Self.sessionIDs.count)
        for id in Self.sessionIDs {
            let session = StoredSession(id: id, tokenHash: [1], revision: 1, state: Self.state(1), lastUsed: Fixture.t0)
            try store.create(session, maxSessions: 100, now: Fixture.t0, journal: Self.entry(1))
        }
        for round in 0..<200_000 {  // bounded so an orphaned child cannot run forever
            let index = round % Self.sessionIDs.count
            let next = revisions[index] + 1
            let session = StoredSession(id: Self.sessionIDs[index], tokenHash: [1], revision: next, state: Self.state(next), lastUsed: Fixture.t0)
            try store.save(session, expectedRevision: revisions[index], idempotency: nil, journal: Self.entry(next))
            revisions[index] = next
            FileHandle.standardOutput.write(Data("ACK \(session.id) \(next)\n".utf8))
        }
    }

    @Test func redisKilledUnderWritersComesBackWithJournalAndStateInAgreement() throws {
        let server = try RedisServer()
        let configuration = StoreConfiguration(journalEntriesPerSession: 50)
        let store = try RedisStore(url: server.url(), configuration: configuration)
        defer { store.close() }
        let ids = (0..<4).map { "redis-journal-\($0)" }
        for id in ids {
            try store.create(
                StoredSession(id: id, tokenHash: [1], revision: 1, state: Self.state(1), lastUsed: Fixture.t0), maxSessions: 100,
                now: Fixture.t0, journal: Self.entry(1))
        }
        // One writer per session saves until Redis goes away (then its save fails: unknown outcome).
        let saved = Mutex(0)
        let group = DispatchGroup()
        for id in ids {
            group.enter()
            Thread {
                defer { group.leave() }
                var revision = 1
                for _ in 0..<100_000 {
                    let next = revision + 1
                    let session = StoredSession(id: id, tokenHash: [1], revision: next, state: Self.state(next), lastUsed: Fixture.t0)
                    do { try store.save(session, expectedRevision: revision, idempotency: nil, journal: Self.entry(next)) } catch { return }
                    revision = next
                    saved.withLock { $0 += 1 }
                }
            }.start()
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while saved.withLock({ $0 }) < 1_000, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        server.kill()  // SIGKILL mid-stream: Redis keeps only what its append-only file has
        #expect(group.wait(timeout: .now() + 30) == .success)
        try #require(saved.withLock { $0 } >= 1_000)
        try server.start()
        let back = ContinuousClock.now + .seconds(5)
        while (try? store.ping()) == nil, ContinuousClock.now < back { Thread.sleep(forTimeInterval: 0.02) }
        try Self.expectAgreement(store, ids: ids, keep: 50)
    }
}
