import Foundation
import Testing
import WayfinderStore

/// The scenario of issue 16, on the release shape (the `wayfinder` binary, the SQLite store): a
/// stored session whose coordinator names a flow the app no longer has answers a usable screen
/// and accepts its routes; a signed-in user stays signed in and keeps the to-dos; a row saved
/// before states had versions is read and stamped.
@Suite struct StrandedSessionTests {
    /// Rewrites one stored row with the binary stopped, as a deploy that renamed a flow leaves it.
    func rewrite(_ path: String, _ id: String, _ change: (String) -> String) throws {
        let store = try SQLiteStore(path: path)
        let row = try #require(try store.load(id: id, now: Int64(Date().timeIntervalSince1970 * 1000)))
        var edited = row
        edited.state = Array(change(String(decoding: row.state, as: UTF8.self)).utf8)
        #expect(edited.state != row.state, "the rewrite changed nothing")
        try store.save(edited, expectedRevision: row.revision, idempotency: nil)
        try store.close()
    }

    @Test func aSessionNamingAFlowTheAppNoLongerHasAnswersAUsableScreen() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-stranded-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = folder + "/s.sqlite", log = folder + "/out.log"
        let arguments = ["--store", "sqlite:" + database, "--public", folder, "--openapi", folder + "/none.yaml"]

        try seedDemoAccount(in: folder)
        let before = try BinaryServer(arguments: arguments)
        var c = Client(port: before.port)
        let signedOut = try c.createSession(jsonText(["context": ["onboarded": true]]))
        let signedIn = try c.signedInSession()
        #expect(try c.tab(signedIn, "todos").status == 200)
        #expect(try c.route(signedIn, "addTodo").status == 200)
        #expect(try c.route(signedIn, "saveTodo", ["title": "Oat milk"]).state["stack"].last["name"].string == "todoList")
        let unversioned = try c.createSession(jsonText(["context": ["onboarded": true]]))
        let revisions = try [signedOut, signedIn, unversioned].map { try #require(c.get($0).json["revision"].int) }
        before.kill9()

        // As if `auth` had been renamed `signin` (and `todos` `todoList`) by a release that is gone.
        try rewrite(database, signedOut.id) { $0.replacingOccurrences(of: #""flow":"auth""#, with: #""flow":"signin""#) }
        try rewrite(database, signedIn.id) { $0.replacingOccurrences(of: #""flow":"todos""#, with: #""flow":"todoList""#) }
        try rewrite(database, unversioned.id) { $0.replacingOccurrences(of: #""app":"1","#, with: "") }

        let after = try BinaryServer(arguments: arguments, logFile: log)
        defer { after.kill9() }
        c = Client(port: after.port)
        let login = try c.get(signedOut)
        #expect(login.status == 200, "\(login)")
        #expect(login.header("ETag") == "\"\(revisions[0] + 1)\"")
        let top = login.json["stack"].last
        #expect(top["name"].string == "login")
        #expect(top["routes"].array.compactMap(\.string) == ["login", "register", "forgotPassword"])
        #expect(top["components"].array.count > 3)
        #expect(login.json["coordinators"]["children"][0]["flow"].string == "auth")
        let signIn = try c.route(signedOut, "login", ["email": "ada@example.com", "password": "password1"])
        #expect(signIn.status == 200, "\(signIn)")
        #expect(signIn.state["stack"].last["name"].string == "dashboard")

        let home = try c.get(signedIn)
        #expect(home.status == 200, "\(home)")
        #expect(home.json["context"]["authenticated"].bool == true)
        #expect(home.json["stack"].last["name"].string == "dashboard")
        let todos = try c.tab(signedIn, "todos")
        let titles = todos.state["stack"].last["components"][0]["items"].array.compactMap { $0["title"].string }
        #expect(titles.last == "Oat milk", "\(todos)")

        let stamped = try c.get(unversioned)
        #expect(stamped.status == 200 && stamped.header("ETag") == "\"\(revisions[2])\"", "only the version stamp changed")

        let metrics = try c.call("GET", "/metrics").text
        #expect(metrics.contains(#"wayfinder_session_upgrades_total{outcome="rebuilt",reason="unknown_flow"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"wayfinder_session_upgrades_total{outcome="migrated",reason=""} 1"#))
        #expect(!metrics.contains(#"status="5"#), "no 5xx answer")
        let logged = try String(contentsOfFile: log, encoding: .utf8)
        #expect(logged.contains(#""event":"session_rebuilt""#) && logged.contains(#""reason":"unknown_flow""#))
        #expect(logged.contains("runs flow 'signin', which the application does not have"), "\(logged)")
    }
}
