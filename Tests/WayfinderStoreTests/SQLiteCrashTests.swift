import Foundation
import Testing
import WayfinderStore

/// A change acknowledged by `save` survives `kill -9` of the process.
///
/// The test re-runs its own test binary with `crashWriter` selected and an environment variable
/// naming the database. That child saves revisions in a loop and prints `ACK <id> <revision>` after
/// each `save` returns; the parent SIGKILLs it mid-stream, reopens the file and checks that every
/// session holds at least its last acknowledged revision.
@Suite("SQLiteStore crash safety")
struct SQLiteCrashTests {
    static let databaseVariable = "WAYFINDER_STORE_CRASH_WRITER_DB"
    static let sessionIDs = (0..<4).map { "crash-session-\($0)" }

    @Test func acknowledgedSavesSurviveKillDashNine() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/crash/sessions.sqlite"
        let acknowledgementsBeforeKill = 2_000

        let child = Process()
        child.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = ["--testing-library", "swift-testing", "--filter", "SQLiteCrashTests/crashWriter"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.databaseVariable] = path
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()

        var acknowledged: [String: Int] = [:]
        var count = 0
        var pending = Data()
        let reader = output.fileHandleForReading
        func consume(_ data: Data) {
            pending.append(data)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                let fields = line.split(separator: " ")
                guard fields.count == 3, fields[0] == "ACK", let revision = Int(fields[2]) else { continue }
                acknowledged[String(fields[1]), default: 0] = max(acknowledged[String(fields[1]), default: 0], revision)
                count += 1
            }
        }
        while count < acknowledgementsBeforeKill {
            let data = reader.availableData
            if data.isEmpty { break }  // the child ended early: reported below
            consume(data)
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        consume(reader.readDataToEndOfFile())

        try #require(count >= acknowledgementsBeforeKill, "the writer stopped after \(count) acknowledgements")
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGKILL)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "killed with the WAL not checkpointed")

        let reopened = try SQLiteStore(path: path)
        for id in Self.sessionIDs {
            let lastAcknowledged = try #require(acknowledged[id])
            let session = try #require(try reopened.load(id: id, now: Fixture.t0))
            #expect(session.revision >= lastAcknowledged, "session \(id)")
            #expect(session.state == Array(#"{"revision":\#(session.revision)}"#.utf8))
        }
        #expect(try reopened.count(now: Fixture.t0) == Self.sessionIDs.count)
    }

    /// The child side of `acknowledgedSavesSurviveKillDashNine`; skipped unless run by it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[databaseVariable] != nil))
    func crashWriter() throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.databaseVariable])
        let store = try SQLiteStore(path: path)
        var sessions = Self.sessionIDs.map { id in
            StoredSession(
                id: id, tokenHash: digest(id), revision: 1,
                state: Array(#"{"revision":1}"#.utf8), lastUsed: Fixture.t0)
        }
        for session in sessions {
            try store.create(session, maxSessions: 100)
            FileHandle.standardOutput.write(Data("ACK \(session.id) 1\n".utf8))
        }
        // Bounded so an orphaned child cannot run forever.
        for round in 0..<200_000 {
            let index = round % sessions.count
            var next = sessions[index]
            next.revision += 1
            next.state = Array(#"{"revision":\#(next.revision)}"#.utf8)
            let record = IdempotencyRecord(
                sessionID: next.id, key: "k\(next.revision)", fingerprint: [1, 2, 3], status: 200,
                headers: [], body: next.state, createdAt: Fixture.t0)
            try store.save(next, expectedRevision: sessions[index].revision, idempotency: record)
            sessions[index] = next
            FileHandle.standardOutput.write(Data("ACK \(next.id) \(next.revision)\n".utf8))
        }
    }
}
