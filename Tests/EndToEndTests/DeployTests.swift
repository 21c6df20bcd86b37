import Foundation
@testable import NotesApp
import Testing
import WayfinderCore
import WayfinderStore

/// A deploy through HTTP: version 1 and version 2 of the notes app serving one store at once. The
/// first load by version 2 migrates a session and saves it (its clients are told: transitions and
/// an event); version 1 then refuses the session (`409 version_ahead`, `Retry-After`) and never
/// changes it.
@Suite struct DeployTests {
    let store = MemoryStore(configuration: StoreConfiguration())

    func servers() throws -> (old: InProcessServer, new: InProcessServer) {
        (
            try InProcessServer(store: .given(store), engine: Engine(try NotesV1.makeApplication())),
            try InProcessServer(store: .given(store), engine: Engine(try NotesV2.makeApplication()))
        )
    }

    func names(_ state: J) -> [String] { state["stack"].array.compactMap { $0["name"].string } }

    @Test func theFirstActionOnTheNewVersionCarriesTheMigrationAndTheOldVersionThenRefuses() throws {
        let (old, new) = try servers()
        defer {
            old.stop()
            new.stop()
        }
        let a = old.client(), b = new.client()
        let s = try a.createSession(#"{"context":{"signedIn":true}}"#)
        #expect(try a.route(s, "add", ["text": "Milk"]).status == 200)
        let opened = try a.route(s, "open", ["note": "1"])
        #expect(names(opened.state) == ["list", "detail"])
        let revision = try #require(opened.state["revision"].int)
        let ids = opened.state["stack"].array.compactMap { $0["id"].string }
        let oldStream = EventReader(url: a.base + s.path + "/events?access_token=" + s.token)
        defer { oldStream.stop() }
        #expect(oldStream.next()?.id == String(revision))

        // The client still shows version 1's screen; its next action reaches version 2, with the
        // revision it saw in If-Match.
        let deleted = try b.route(s, "delete", headers: [("If-Match", "\"\(revision)\"")])
        #expect(deleted.status == 200, "\(deleted)")
        #expect(deleted.json.transitions == [T(op: "update", screens: ids), T(op: "pop", screens: [ids[1]])])
        #expect(names(deleted.state) == ["notes"] && deleted.state["revision"].int == revision + 2)
        #expect(oldStream.waitUntilFinished(within: 10), "version 1's event stream ends when version 2 saved the session")

        let refused = try a.get(s)
        #expect(refused.status == 409 && refused.code == "version_ahead" && refused.header("Retry-After") == "1", "\(refused)")
        #expect(refused.contentType == "application/problem+json")
        #expect(try a.route(s, "add", ["text": "Eggs"]).code == "version_ahead")
        #expect(try a.call("GET", s.path + "/events?access_token=" + s.token).status == 409)
        let kept = try b.get(s)
        #expect(kept.json["revision"].int == revision + 2, "version 1 changed nothing")
        #expect(kept.json["stack"].last["components"][0]["items"].array.isEmpty)
        #expect(try b.route(s, "add", ["text": "Eggs", "priority": "high"]).status == 200)

        let newMetrics = try b.call("GET", "/metrics").text, oldMetrics = try a.call("GET", "/metrics").text
        #expect(newMetrics.contains(#"wayfinder_session_upgrades_total{outcome="migrated",reason=""} 1"#), "\(newMetrics)")
        // The three requests, and the event stream's loads after version 2's saves (at least
        // one: the stream ends after it, though a save or two may reach it first).
        let refusals = oldMetrics.split(separator: "\n").first { $0.hasPrefix(#"wayfinder_session_upgrades_total{outcome="refused",reason=""} "#) }
        #expect(refusals.flatMap { Int($0.split(separator: " ").last ?? "") }.map { (4...6).contains($0) } == true, "\(oldMetrics)")
        #expect(!newMetrics.contains(#"status="5"#) && !oldMetrics.contains(#"status="5"#))
    }

    @Test func aReadMigratesAndSavesAtOnceSoEveryServerAgreesOnTheRevision() throws {
        let (old, new) = try servers()
        defer {
            old.stop()
            new.stop()
        }
        let a = old.client(), b = new.client()
        let s = try a.createSession(#"{"context":{"signedIn":false}}"#)
        let stream = EventReader(url: b.base + s.path + "/events?access_token=" + s.token)
        defer { stream.stop() }
        let first = try #require(stream.next())
        #expect(first.id == "2" && first.json["coordinators"]["children"][0]["flow"].string == "auth", "the event carries the migrated state")
        // A client that still has revision 1 gets the new revision, not 304.
        let read = try b.get(s, headers: [("If-None-Match", "\"1\"")])
        #expect(read.status == 200 && read.header("ETag") == "\"2\"")
        #expect(try b.get(s, headers: [("If-None-Match", "\"2\"")]).status == 304)
        #expect(try a.get(s).code == "version_ahead")
        // An old client's route and param, renamed by the migration.
        let signedIn = try b.route(s, "signIn", ["mail": "ada@example.com"])
        #expect(names(signedIn.state) == ["notes"] && signedIn.state["context"]["user"].string == "ada@example.com")
        #expect(try b.call("GET", "/metrics").text.contains(#"wayfinder_session_upgrades_total{outcome="migrated",reason=""} 1"#))
    }
}
