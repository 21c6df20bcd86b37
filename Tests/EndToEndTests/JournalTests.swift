import DemoApp
import Foundation
import Testing
import WayfinderCore
import WayfinderStore

/// Issue 17: the journal over HTTP — the full walkthrough's history and bundle, rewind.
@Suite struct JournalTests {
    /// Passwords typed during the walkthrough: none may be found in the journal or a bundle.
    static let passwords = ["shrt-S3", "Pw-Walk-Through-1", "New-Pw-Secret-9", "New-Pw-Secret-8"]

    /// The sample app's full walkthrough; returns the kinds of the entries it makes, in order
    /// (`route next`, `tab todos`, …), revision 1 first.
    static func walkthrough(_ c: Client, _ s: Session) throws -> [String] {
        var expected = ["start"]
        func step(_ reply: Reply, _ summary: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(reply.status == 200, "\(summary): \(reply)", sourceLocation: sourceLocation)
            expected.append(summary)
        }
        for _ in 0..<3 { step(try c.route(s, "next"), "route next") }
        step(try c.route(s, "login", ["email": "walk@b.c", "password": passwords[0]]), "route login")  // too short: a notice
        step(try c.route(s, "login", ["email": "walk@b.c", "password": passwords[1]]), "route login, effect e1 result")
        step(try c.tab(s, "todos"), "tab todos")
        step(try c.route(s, "addTodo"), "route addTodo")
        step(try c.route(s, "saveTodo", ["title": "Fix the bike", "description": "Two litres"]), "route saveTodo")
        step(try c.deepLink(s, "wayfinder://todos/2"), "deep link wayfinder://todos/2")
        step(try c.back(s), "back")
        step(try c.tab(s, "profile"), "tab profile")
        step(try c.route(s, "changePassword"), "route changePassword")
        step(try c.route(s, "savePassword", ["current": passwords[1], "password": passwords[2], "confirm": passwords[3]]), "route savePassword")  // no match
        step(try c.route(s, "savePassword", ["current": passwords[1], "password": passwords[2], "confirm": passwords[2]]), "route savePassword, effect e2 result")
        step(try c.route(s, "done"), "route done")
        step(try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision": 9}"#), "rewind to r9")
        step(try c.tab(s, "profile"), "tab profile")
        step(try c.route(s, "logout"), "route logout")
        return expected
    }

    @Test func theJournalOfTheWalkthroughMatchesItsActionsAndItsBundleReplaysClean() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let expected = try Self.walkthrough(c, s)

        let history = try c.call("GET", s.path + "/history", token: s.token)
        #expect(history.status == 200)
        #expect(history.json["revision"].int == expected.count)
        let entries = history.json["entries"].array
        #expect(entries.compactMap { $0["revision"].int } == Array(1...expected.count))
        let summaries = entries.map { entry in
            entry["actions"].array.map { action -> String in
                let kind = action["kind"].string ?? "?"
                switch kind {
                case "route": return "route " + (action["route"].string ?? "?")
                case "tab": return "tab " + (action["tab"].string ?? "?")
                case "deepLink": return "deep link " + (action["url"].string ?? "?")
                case "effect": return "effect \(action["effect"].string ?? "?") result"
                case "rewind": return "rewind to r\(action["revision"].int ?? 0)"
                default: return kind
                }
            }.joined(separator: ", ")
        }
        #expect(summaries == expected)
        #expect(entries.allSatisfy { $0["requestId"].string?.isEmpty == false && $0["digest"].string?.count == 16 })
        #expect(entries[5]["actions"][0]["params"]["password"].string == JournalAction.redacted)
        #expect(entries[4]["screens"].array.compactMap(\.string) == ["login"])
        #expect(entries[5]["screens"].array.compactMap(\.string) == ["dashboard"])
        #expect(entries[16]["transitions"][0]["op"].string == "setRoot")
        // ?since=N starts there.
        let since = try c.call("GET", s.path + "/history?since=17", token: s.token)
        #expect(since.json["entries"].array.compactMap { $0["revision"].int } == [17, 18, 19])

        let bundle = try c.call("GET", s.path + "/history?format=bundle", token: s.token)
        #expect(bundle.status == 200)
        #expect(bundle.header("Content-Disposition")?.hasPrefix("attachment;") == true)
        for text in [history.text, bundle.text] {
            for password in Self.passwords { #expect(!text.contains(password), "\(password) is in the journal") }
        }
        let report = Replay(demoEngine).run(try ReplayBundle(bytes: bundle.body))
        #expect(report.isClean, "\(report)")
        #expect(report.steps.count == expected.count)
        // The too-short password and the passwords that did not match cannot be judged again
        // without their values: their recorded states are taken.
        #expect(report.steps.filter { $0.verdict == .recorded }.map(\.revision) == [5, 14])
        if let path = ProcessInfo.processInfo.environment["WAYFINDER_WRITE_WALKTHROUGH_BUNDLE"] {
            try Data(bundle.body).write(to: URL(fileURLWithPath: path))
        }
    }

    /// Stores kept entries as JSON before the stored form: a journal written so (the walkthrough's
    /// entries copied as their JSON into another store, as an older server left them) serves the
    /// same history, a bundle that replays clean, and rewinds.
    @Test func aJournalStoredAsJSONByAnOlderServerStillServesHistoryBundleAndRewind() throws {
        let written = MemoryStore(configuration: StoreConfiguration())
        let server = try InProcessServer(store: .given(written))
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let expected = try Self.walkthrough(c, s)
        let history = try c.call("GET", s.path + "/history", token: s.token)

        let older = MemoryStore(configuration: StoreConfiguration())
        let entries = written.journal(id: s.id, since: 0)
        guard let session = written.load(id: s.id, now: 0), entries.count == expected.count else {
            Issue.record("the walkthrough's session or entries are missing")
            return
        }
        for entry in entries {
            #expect(entry.record.first != UInt8(ascii: "{"), "the server stores the compact form")
            let json = JournalEntry(revision: entry.revision, record: try JournalRecord.joined(record: entry.record, state: []), state: entry.state)
            var at = session
            at.revision = entry.revision
            if entry.revision == 1 {
                try older.create(at, maxSessions: 10, now: session.lastUsed, journal: json)
            } else {
                try older.save(at, expectedRevision: entry.revision - 1, idempotency: nil, journal: json)
            }
        }
        try older.save(session, expectedRevision: session.revision, idempotency: nil, journal: nil)
        #expect(older.journal(id: s.id, since: 0).allSatisfy { $0.record.first == UInt8(ascii: "{") })

        let olderServer = try InProcessServer(store: .given(older))
        defer { olderServer.stop() }
        let o = olderServer.client()
        let read = try o.call("GET", s.path + "/history", token: s.token)
        #expect(read.status == 200)
        #expect(read.json == history.json)
        let bundle = try o.call("GET", s.path + "/history?format=bundle", token: s.token)
        let report = Replay(demoEngine).run(try ReplayBundle(bytes: bundle.body))
        #expect(report.isClean && report.steps.count == expected.count, "\(report)")
        // The walkthrough ends signed out: a rewind goes back to a signed-out revision, never past
        // the sign-in (r6 to r15).
        let rewound = try o.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision": 4}"#)  // r4: the sign-in screen
        #expect(rewound.status == 200, "\(rewound)")
        #expect(rewound.state.stackNames == ["login"])
        let signedIn = try o.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision": 8}"#)  // r8: the new to-do form
        #expect(signedIn.status == 409, "\(signedIn)")
        #expect(signedIn.code == "rewind_across_sign_in")
    }

    @Test func rewindRestoresTheEarlierScreensAndKeepsTheModel() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        _ = try c.tab(s, "todos")  // r2
        let before = try c.route(s, "addTodo")  // r3: the new to-do form
        #expect(before.state.stackNames == ["todoList", "todoAdd"])
        let saved = try c.route(s, "saveTodo", ["title": "Kept after the rewind"])  // r4
        let todos = saved.state["model"]
        let rewound = try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision": 3}"#, headers: [("If-Match", "\"4\"")])
        #expect(rewound.status == 200, "\(rewound)")
        #expect(rewound.header("ETag") == "\"5\"")
        #expect(rewound.state.stackNames == ["todoList", "todoAdd"])
        #expect(rewound.state["model"] == todos, "the to-dos are as they are now")
        #expect(rewound.json.ops == ["setRoot"])
        // Ids keep counting: the restored screens' ids are those of revision 3.
        #expect(rewound.state.stackIDs == before.state.stackIDs)
        let entry = try c.call("GET", s.path + "/history?since=5", token: s.token).json["entries"][0]
        #expect(entry["actions"][0]["kind"].string == "rewind")
        #expect(entry["actions"][0]["revision"].int == 3)
    }

    @Test func rewindWithAStaleIfMatchIs412AndChangesNothing() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        _ = try c.tab(s, "todos")
        let stale = try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision": 1}"#, headers: [("If-Match", "\"1\"")])
        #expect(stale.status == 412)
        #expect(stale.code == "revision_mismatch")
        #expect(stale.header("ETag") == "\"2\"")
        let after = try c.get(s)
        #expect(after.json.revision == 2)
        #expect(after.json.stackNames == ["todoList"])
    }

    @Test func rewindToARevisionTheJournalDroppedIs410WithTheOldestItHolds() throws {
        let server = try InProcessServer(store: .given(MemoryStore(configuration: StoreConfiguration(journalEntriesPerSession: 3)))) {
            $0.journalStateInterval = 1  // as the server sets it for 3 entries: each keeps its state
        }
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        for tab in ["todos", "profile", "home", "todos"] { _ = try c.tab(s, tab) }  // r2...r5; entries 3, 4, 5 kept
        let gone = try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision": 2}"#)
        #expect(gone.status == 410)
        #expect(gone.code == "revision_not_journaled")
        #expect(gone.json["oldestRevision"].int == 3)
        #expect(try c.call("GET", s.path + "/history", token: s.token).json["entries"].array.compactMap { $0["revision"].int } == [3, 4, 5])
        let future = try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision": 9}"#)
        #expect(future.status == 422)
        #expect(future.json["param"].string == "revision")
        let bad = try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision": "3"}"#)
        #expect(bad.status == 422)
        #expect(try c.get(s).json.revision == 5)
    }

    @Test func rewindWhileAnEffectIsPendingIs409() throws {
        let services = try DemoServices(users: .testAccounts(), delay: .seconds(2)).effects
        let server = try InProcessServer(services: services) { $0.effectWait = .milliseconds(20) }
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession(#"{"context": {"onboarded": true}}"#)
        let busy = try c.route(s, "login", ["email": "slow@b.c", "password": "password1"])
        #expect(busy.status == 202)
        let refused = try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision": 1}"#)
        #expect(refused.status == 409)
        #expect(refused.code == "effects_pending")
    }

    @Test func aRewoundScreenDoesNotWaitForAnEffectThatIsDone() throws {
        let services = try DemoServices(users: .testAccounts(), delay: .milliseconds(300)).effects
        let server = try InProcessServer(services: services) { $0.effectWait = .milliseconds(20) }
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        #expect(try c.tab(s, "profile").status == 200)  // r2
        let busy = try c.route(s, "emailTodos")  // r3: waits for e1
        #expect(busy.status == 202)
        #expect(busy.state.top["busy"].bool == true)
        let done = try c.get(s, headers: [("If-None-Match", "\"3\""), ("Prefer", "wait=10")])  // r4: the result came
        #expect(done.json.top["components"].array.contains { $0["type"].string == "notice" })
        let rewound = try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision": 3}"#)
        #expect(rewound.status == 200, "\(rewound)")
        #expect(rewound.state.stackNames == ["profile"])
        #expect(rewound.state.top["busy"].bool != true, "the profile screen does not wait for e1 any more")
        #expect(try c.route(s, "changePassword").status == 200, "its routes are offered again")
    }

    @Test func withTheJournalOffNothingIsRecorded() throws {
        let server = try InProcessServer { $0.journal = false }
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        _ = try c.tab(s, "todos")
        let history = try c.call("GET", s.path + "/history", token: s.token)
        #expect(history.status == 200)
        #expect(history.json["entries"].array.isEmpty)
        #expect(try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision": 1}"#).status == 410)
    }

    @Test func historyNeedsTheSessionsToken() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        #expect(try c.call("GET", s.path + "/history").status == 401)
        #expect(try c.call("GET", s.path + "/history", token: "wrong").status == 404)
        #expect(try c.call("GET", s.path + "/history?since=-1", token: s.token).status == 422)
        #expect(try c.call("GET", s.path + "/history?format=xml", token: s.token).status == 422)
    }
}
