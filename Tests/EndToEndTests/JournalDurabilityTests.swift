import Foundation
import Synchronization
import Testing
import WayfinderCore

/// Issue 17 on the real binary: journal and state agree after `kill -9` (SQLite), passwords are
/// in neither the journal nor the log, and `wayfinder replay` reports per revision.
@Suite struct JournalDurabilityTests {
    static func folder(_ name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func journalAndStateAgreeAfterKill9MidStream() throws {
        let folder = try Self.folder("journal-crash")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = ["--store", "sqlite:\(folder)/s.sqlite", "--log-level", "error", "--public", folder, "--openapi", folder + "/none.yaml"]
        let first = try BinaryServer(arguments: arguments)
        let c = Client(port: first.port)
        let sessions = try (0..<8).map { _ in try c.signedInSession() }
        // Four workers act until the server is killed under them.
        let answered = Mutex(0)
        let group = DispatchGroup()
        let port = first.port
        for worker in 0..<4 {
            let mine = sessions.enumerated().filter { $0.offset % 4 == worker }.map(\.element)
            group.enter()
            Thread {
                defer { group.leave() }
                let client = Client(port: port, timeoutMilliseconds: 2_000)
                for round in 0..<2_000 {
                    for s in mine {
                        let status: Int?
                        switch round % 4 {
                        case 0: status = try? client.tab(s, "todos").status
                        case 1: status = try? client.route(s, "addTodo").status
                        case 2: status = try? client.back(s).status
                        default: status = try? client.tab(s, "home").status
                        }
                        guard status == 200 else { return }
                        answered.withLock { $0 += 1 }
                    }
                }
            }.start()
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while answered.withLock({ $0 }) < 400, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
        first.kill9()
        #expect(group.wait(timeout: .now() + 30) == .success)
        try #require(answered.withLock { $0 } >= 400)

        let second = try BinaryServer(arguments: arguments)
        defer { second.kill9() }
        let d = Client(port: second.port)
        for s in sessions {
            let current = try d.get(s)
            let revision = try #require(current.json.revision)
            let bundle = try d.call("GET", s.path + "/history?format=bundle", token: s.token)
            let parsed = try ReplayBundle(bytes: bundle.body)
            #expect(parsed.entries.last?.revision == revision, "\(s.id): the newest entry is the session's revision")
            #expect(parsed.entries.last?.screens == current.json.stackNames)
            let report = Replay(demoEngine).run(parsed)
            #expect(report.isClean, "\(s.id): \(report)")
        }
    }

    @Test func passwordsAreInNeitherTheJournalNorTheLog() throws {
        let folder = try Self.folder("journal-secrets")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/out.log"
        let server = try BinaryServer(
            arguments: ["--store", "sqlite:\(folder)/s.sqlite", "--log-level", "debug", "--public", folder, "--openapi", folder + "/none.yaml"],
            logFile: log)
        defer { server.kill9() }
        let c = Client(port: server.port)
        let passwords = ["Login-Pw-4711", "Signup-Pw-4712", "Changed-Pw-4713", "Confirm-Pw-4714", "tiny-1"]
        let s = try c.createSession(#"{"context": {"onboarded": true}}"#)
        #expect(try c.route(s, "register").status == 200)
        #expect(try c.route(s, "signUp", ["name": "Ada", "email": "ada@b.c", "password": passwords[1]]).status == 200)
        let code = try #require(mailedCode(in: folder + "/demo-mail.jsonl"))
        #expect(try c.route(s, "confirmSignUp", ["code": code]).status == 200)
        let other = try c.createSession(#"{"context": {"onboarded": true}}"#)
        #expect(try c.route(other, "login", ["email": "ada@b.c", "password": passwords[4]]).status == 200)
        #expect(try c.route(other, "login", ["email": "ada@b.c", "password": passwords[0]]).status == 200)
        #expect(try c.tab(s, "profile").status == 200)
        #expect(try c.route(s, "changePassword").status == 200)
        #expect(try c.route(s, "savePassword", ["current": passwords[1], "password": passwords[2], "confirm": passwords[3]]).status == 200)
        #expect(try c.route(s, "savePassword", ["current": passwords[1], "password": passwords[2], "confirm": passwords[2]]).status == 200)
        var texts: [String] = []
        for session in [s, other] {
            let history = try c.call("GET", session.path + "/history", token: session.token)
            #expect(history.json["entries"].array.count >= 3)
            texts.append(history.text)
            texts.append(try c.call("GET", session.path + "/history?format=bundle", token: session.token).text)
        }
        #expect(texts[0].contains(JournalAction.redacted))
        func read() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        // The last four requests read the journal: wait for their log lines.
        #expect(eventually(within: 10) { read().components(separatedBy: "/history").count - 1 >= 4 })
        texts.append(read())
        texts.append(try String(contentsOfFile: folder + "/s.sqlite-wal", encoding: .isoLatin1))
        for text in texts {
            for password in passwords + [code] { #expect(!text.contains(password), "\(password) was written") }
        }
    }

    @Test func replayExitsNonZeroAndNamesTheRevisionOnADivergence() throws {
        let fixture = InProcessServer.packageRoot + "/Tests/bundles/walkthrough.json"
        let clean = try Self.replay(fixture)
        #expect(clean.status == 0, "\(clean.output)")
        #expect(clean.output.contains("r17 ok rewind to r9"))
        #expect(clean.output.hasSuffix("19 revisions replayed, no divergence\n"))

        // The same bundle with revision 8's route changed: the state it computes is another.
        let folder = try Self.folder("replay")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = try String(contentsOfFile: fixture, encoding: .utf8)
        let tampered = text.replacingOccurrences(of: #""route":"addTodo","params":{}"#, with: #""route":"showTodo","params":{"id":"1"}"#)
        #expect(tampered != text)
        try tampered.write(toFile: folder + "/b.json", atomically: true, encoding: .utf8)
        let diverged = try Self.replay(folder + "/b.json")
        #expect(diverged.status == 1)
        #expect(diverged.output.contains("r8 diverged route showTodo"))
        #expect(diverged.output.contains("revision 8 diverged: the computed state differs from the recorded one"))
        #expect(diverged.output.contains("screens: todoList > todoAdd → todoList > todoDetail"), "\(diverged.output)")

        let unreadable = try Self.replay(folder + "/absent.json")
        #expect(unreadable.status == 2)
    }

    /// Runs `wayfinder replay PATH`; its exit status and standard output.
    static func replay(_ path: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BinaryServer.executablePath)
        process.arguments = ["replay", path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
