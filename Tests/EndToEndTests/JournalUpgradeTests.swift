import Foundation
@testable import NotesApp
import Testing
import WayfinderCore
import WayfinderStore

/// The journal across a deploy: version 2 of the notes app loads a session version 1 saved,
/// migrates it and saves it — a revision the journal records as a migration. Its bundle names
/// the version and replays on version 2 (the entries version 1 made are taken as recorded, the
/// migration and what follows are computed again); a rewind reaches no revision before it.
@Suite struct JournalUpgradeTests {
    let store = MemoryStore(configuration: StoreConfiguration())

    /// Version 1 keeps the state of every entry, so that the migration can be replayed from the
    /// state before it.
    func servers() throws -> (old: InProcessServer, new: InProcessServer) {
        (
            try InProcessServer(store: .given(store), engine: Engine(try NotesV1.makeApplication())) { $0.journalStateInterval = 1 },
            try InProcessServer(store: .given(store), engine: Engine(try NotesV2.makeApplication()))
        )
    }

    /// A session of version 1 at revision 3 (a note added and opened), then deleted through
    /// version 2: the migration is revision 4, the deletion 5.
    func migratedSession(_ old: InProcessServer, _ new: InProcessServer) throws -> Session {
        let a = old.client(), b = new.client()
        let s = try a.createSession(#"{"context":{"signedIn":true}}"#)
        #expect(try a.route(s, "add", ["text": "Milk"]).status == 200)
        #expect(try a.route(s, "open", ["note": "1"]).status == 200)
        let deleted = try b.route(s, "delete", headers: [("If-Match", "\"3\"")])
        #expect(deleted.status == 200, "\(deleted)")
        #expect(deleted.state["revision"].int == 5)
        return s
    }

    @Test func aMigrationOnLoadIsAJournalEntryAndTheBundleReplaysOnTheNewVersion() throws {
        let (old, new) = try servers()
        defer {
            old.stop()
            new.stop()
        }
        let s = try migratedSession(old, new)
        let b = new.client()
        let history = try b.call("GET", s.path + "/history", token: s.token)
        #expect(history.status == 200)
        let entries = history.json["entries"].array
        #expect(entries.compactMap { $0["revision"].int } == [1, 2, 3, 4, 5])
        let migration = entries[3]["actions"][0]
        #expect(migration["kind"].string == "migration")
        #expect(migration["from"].string == "1" && migration["to"].string == "2")
        #expect(migration["rebuilt"].string == nil)
        #expect(entries[3]["transitions"].array.isEmpty == false, "the migration's transitions are recorded")
        #expect(entries[4]["actions"][0]["route"].string == "delete")

        let bundle = try b.call("GET", s.path + "/history?format=bundle", token: s.token)
        #expect(bundle.json["app"]["version"].string == "2")
        let report = Replay(Engine(try NotesV2.makeApplication())).run(try ReplayBundle(bytes: bundle.body))
        #expect(report.isClean, "\(report)")
        #expect(report.steps.map(\.verdict) == [.earlier, .earlier, .earlier, .ok, .ok], "\(report)")
        #expect(report.description.contains("r4 ok migration from version 1 to 2"), "\(report)")
    }

    @Test func aBundleOfAnotherVersionDivergesNamingBothVersions() throws {
        let (old, new) = try servers()
        defer {
            old.stop()
            new.stop()
        }
        let a = old.client()
        let s = try a.createSession(#"{"context":{"signedIn":true}}"#)
        #expect(try a.route(s, "add", ["text": "Milk"]).status == 200)
        let bundle = try a.call("GET", s.path + "/history?format=bundle", token: s.token)
        #expect(bundle.json["app"]["version"].string == "1")
        #expect(Replay(Engine(try NotesV1.makeApplication())).run(try ReplayBundle(bytes: bundle.body)).isClean)
        let report = Replay(Engine(try NotesV2.makeApplication())).run(try ReplayBundle(bytes: bundle.body))
        #expect(report.divergence?.revision == 1, "\(report)")
        #expect(report.divergence?.reason.contains("recorded by version 1 of the app; this is version 2") == true, "\(report)")
    }

    @Test func aRewindReachesNoRevisionBeforeTheMigration() throws {
        let (old, new) = try servers()
        defer {
            old.stop()
            new.stop()
        }
        let s = try migratedSession(old, new)
        let b = new.client()
        let before = try b.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision": 3}"#)
        #expect(before.status == 410 && before.code == "revision_not_journaled", "\(before)")
        #expect(before.json["oldestRevision"].int == 4)
        let after = try b.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision": 4}"#)
        #expect(after.status == 200, "\(after)")
        #expect(after.state["revision"].int == 6)
    }
}
