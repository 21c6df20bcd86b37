import Foundation
import Synchronization
import Testing

/// Issue 4, test 8: kill -9 the real binary (SQLite store) and every acknowledged change is there.
@Suite struct CrashTests {
    /// The last acknowledged answer of one session.
    struct Acknowledged: Sendable {
        var revision: Int
        var state: String  // canonical State JSON
        var stack: [String]
    }

    /// Tokens and query strings never appear in the logs (the binary at log level debug).
    @Test func logsCarryNoTokensOrQueries() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-logs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/out.log"
        let server = try BinaryServer(arguments: ["--store", "memory", "--log-level", "debug", "--public", folder, "--openapi", folder + "/none.yaml"], logFile: log)
        let c = Client(port: server.port)
        let s = try c.createSession()
        let reader = EventReader(url: c.base + s.path + "/events?access_token=" + s.token + "&marker=q-secret-1")
        #expect(reader.next()?.id == "1")
        _ = try c.call("GET", s.path + "?marker=q-secret-2", token: s.token)
        _ = try c.route(s, "login", ["email": "a@b.c", "password": "p-secret-3"])
        _ = try c.call("GET", s.path, headers: [("Authorization", "Bearer wrong-token-4")])
        #expect(try c.call("DELETE", s.path, token: s.token).status == 204)
        #expect(reader.waitUntilFinished(within: 10))
        func read() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        // The DELETE is the last request: wait for its log line.
        #expect(eventually(within: 10) { read().contains(#""method":"DELETE""#) }, "\(read())")
        let logged = read()
        server.kill9()
        #expect(logged.components(separatedBy: #""event":"request""#).count - 1 >= 5, "every request is logged at debug level")
        for secret in [s.token, "q-secret-1", "q-secret-2", "p-secret-3", "wrong-token-4", "access_token"] {
            #expect(!logged.contains(secret), "\(secret) is in the log")
        }
    }

    @Test func everyAcknowledgedChangeSurvivesKill9() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-crash-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = ["--store", "sqlite:\(folder)/s.sqlite", "--log-level", "warn", "--public", folder, "--openapi", folder + "/none.yaml"]

        let first = try BinaryServer(arguments: arguments)
        let c = Client(port: first.port)
        let sessions = try (0..<20).map { i in
            try c.createSession(
                jsonText(["context": ["onboarded": true, "platform": i % 2 == 0 ? "phone" : "tablet"]]),
                identity: TestIdentity.token(subject: "user-\(i)", email: "u\(i)@b.c"))
        }
        // Every session gets the same cycle of always-changing steps, 4 threads at once.
        let acknowledged = Mutex<[String: Acknowledged]>([:])
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        let port = first.port
        for worker in 0..<4 {
            let mine = sessions.enumerated().filter { $0.offset % 4 == worker }.map(\.element)
            group.enter()
            Thread {
                defer { group.leave() }
                let client = Client(port: port)
                for round in 0..<3 {
                    for s in mine {
                        let steps: [() throws -> Reply] = [
                            { try client.tab(s, "todos") },
                            { try client.route(s, "addTodo") },
                            { try client.route(s, "saveTodo", ["title": "todo \(round)"]) },
                            { try client.route(s, "showTodo", ["id": "2"]) },
                            { try client.route(s, "updateTodo", ["title": "renamed \(round)", "completed": round % 2 == 0]) },
                            { try client.tab(s, "profile") },
                            { try client.route(s, "changePassword") },
                            { try client.deepLink(s, "wayfinder://todos/4") },
                            { try client.back(s) },
                            { try client.deepLink(s, "wayfinder://profile") },
                            { try client.tab(s, "home") },
                        ]
                        for step in steps {
                            do {
                                let r = try step()
                                guard r.status == 200, let revision = r.state.revision else {
                                    failures.withLock { $0.append("\(s.id): \(r)") }
                                    continue
                                }
                                let record = Acknowledged(revision: revision, state: r.state.canonical, stack: r.state.stackNames)
                                acknowledged.withLock { acks in
                                    if (acks[s.id]?.revision ?? 0) < revision { acks[s.id] = record }
                                }
                            } catch {
                                failures.withLock { $0.append("\(s.id): \(error)") }
                            }
                        }
                    }
                }
            }.start()
        }
        #expect(group.wait(timeout: .now() + 60) == .success, "the workers did not finish")
        #expect(failures.withLock { $0 } == [])
        let acks = acknowledged.withLock { $0 }
        #expect(acks.count == 20)
        #expect(acks.values.allSatisfy { $0.revision == 1 + 3 * 11 }, "every step changes the state")

        first.kill9()
        #expect(first.process.terminationReason == .uncaughtSignal)

        let second = try BinaryServer(arguments: arguments)
        defer { second.kill9() }
        let d = Client(port: second.port)
        for s in sessions {
            let r = try d.get(s)
            let ack = try #require(acks[s.id])
            #expect(r.status == 200, "\(s.id): \(r)")
            #expect(r.header("ETag") == "\"\(ack.revision)\"")
            #expect(r.json.revision == ack.revision)
            #expect(r.json.stackNames == ack.stack)
            #expect(r.json.canonical == ack.state)
        }
        // The restarted server goes on from there.
        let next = try d.tab(sessions[0], "todos")
        try expectAction(next, revision: acks[sessions[0].id]!.revision + 1, stack: ["todoList"])
    }
}
