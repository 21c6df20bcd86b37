@testable import NotesApp
import Testing
import WayfinderCore
import WayfinderTesting

/// The safe fallback: a stored state that no migration covers (a flow or screen the new version
/// lacks, values that do not decode, bytes that are not a state, a migration that fails) is
/// launched again with its context and model, with a new revision; a state of a newer version is
/// never touched.
@Suite struct RebuildTests {
    let v1: Application
    let model = Sessions.twoNotes

    init() throws { v1 = try NotesV1.makeApplication() }

    func v2(without omitted: Set<String>, adding extra: [Migration<NotesV2.App>.Change] = []) throws -> Application {
        try NotesV2.makeApplication(migrations: NotesV2.migrations(without: omitted, adding: extra))
    }

    func onSecondNote() throws -> TestSession { try Sessions.v1OnSecondNote() }

    @Test func anUnknownFlowStartsTheSessionAgainWithItsContext() throws {
        var session = try TestSession(v1)
        try session.send(NotesV1.SigninFlow.Route.signIn(mail: "nope")) {
            $0.notice = Notice(.error, "Enter an email address.")
            $0.transitions = ["update form"]
        }
        let revision = session.state.revision
        let outcome = try session.upgrade(to: try v2(without: ["flow signin"])) {
            $0.coordinators = "app(auth)"
            $0.transitions = ["setRoot form"]
            $0.notice = nil
        }
        guard case .rebuilt(let from, .unknownFlow, let detail) = outcome else { Issue.record("\(outcome)"); return }
        #expect(from == "1")
        #expect(detail == "coordinator c1 runs flow 'signin', which the application does not have")
        #expect(session.state.revision == revision + 1)
        #expect(session.topScreen?.routes == ["login"])
    }

    @Test func aSignedInUserStaysSignedInAndKeepsTheMigratedModel() throws {
        var session = try onSecondNote()
        let outcome = try session.upgrade(to: try v2(without: ["screen list"])) {
            $0.stack = ["notes"]
            $0.navigation = "[notes]"
            $0.transitions = ["setRoot notes"]
            $0.model = model
        }
        guard case .rebuilt(_, .unknownScreen, let detail) = outcome else { Issue.record("\(outcome)"); return }
        #expect(detail == "screen s1 is 'list', which flow 'notes' does not have")
        #expect(session.state.context == ["signedIn": true, "user": "ada@example.com"])
        #expect(session.topScreen?.routes == ["add", "open", "help"])
    }

    @Test func aScreenWhoseValuesDoNotDecodeIsRebuilt() throws {
        var session = try onSecondNote()
        let outcome = try session.upgrade(to: try v2(without: ["screen value note"])) {
            $0.stack = ["notes"]
            $0.navigation = "[notes]"
            $0.transitions = ["setRoot notes"]
            $0.model = model
        }
        guard case .rebuilt(_, .undecodableScreen, let detail) = outcome else { Issue.record("\(outcome)"); return }
        #expect(detail.hasPrefix(#"screen 'detail' of flow 'notes' does not read its values {"note":"2"}"#), "\(detail)")
    }

    @Test func aFailingModelChangeRebuildsAndKeepsTheModelAsItWas() throws {
        struct Refused: Error {}
        var session = try onSecondNote()
        let outcome = try session.upgrade(
            to: try v2(without: ["model"], adding: [.model(from: NotesV1.Model1.self) { _ in throw Refused() }])
        ) {
            $0.stack = ["notes"]
            $0.navigation = "[notes]"
            $0.transitions = ["setRoot notes"]
        }
        guard case .rebuilt(_, .failedMigration, _) = outcome else { Issue.record("\(outcome)"); return }
        #expect(session.state.model == ["notes": ["Milk", "Eggs"]])
    }

    @Test func bytesThatAreNotAStateAreRebuiltFromWhatTheyStillHold() throws {
        let engine = Engine(try NotesV2.makeApplication())
        let broken = Array(#"{"v":1,"app":"2","context":{"signedIn":true},"model":{"items":[],"nextID":7},"coordinators":42}"#.utf8)
        let loaded = try engine.load(broken, session: "s", revision: 9)
        #expect(loaded.state.revision == 10)
        #expect(loaded.state.context == ["signedIn": true, "user": nil])
        #expect(loaded.state.model == ["items": [], "nextID": 7])
        #expect(loaded.state.navigation.topScreen?.name == "notes")
        #expect(loaded.transitions == [Transition(.setRoot, ["s1"])])
        guard case .rebuilt("2", .undecodableState, _) = loaded.outcome else { Issue.record("\(loaded.outcome)"); return }

        let garbage = try engine.load(Array("not json".utf8), session: "s", revision: 3)
        #expect(garbage.state.navigation.topScreen?.name == "form")
        #expect(garbage.state.revision == 4)
    }

    @Test func aStateOfANewerVersionIsRefusedAndLeftAsItIs() throws {
        var session = try TestSession(try NotesV2.makeApplication(), context: ["signedIn": true])
        let before = session.state
        #expect(throws: SessionVersionAhead(stateVersion: "2", appVersion: "1")) { try session.upgrade(to: v1) }
        #expect(session.state == before)
        let newerLayout = Array(#"{"v":2,"context":{},"whatever":true}"#.utf8)
        #expect(throws: SessionVersionAhead(stateVersion: "layout 2", appVersion: "2")) {
            try Engine(try NotesV2.makeApplication()).load(newerLayout, session: "s", revision: 1)
        }
    }

    @Test func versionsCompareAsNumbers() throws {
        let ten = try Application(scheme: "notes", version: "1.10", root: NotesV1.AppFlow(), flows: [NotesV1.SigninFlow(), NotesV1.NotesFlow(), NotesV1.TipsFlow()])
        var state = try Engine(ten).start(session: "s", context: [:])
        state.appVersion = "1.9"
        #expect(try Engine(ten).upgrade(state).outcome == .migrated(from: "1.9"))
        state.appVersion = "1.10.0"
        #expect(try Engine(ten).upgrade(state).outcome == .migrated(from: "1.10.0"))
        state.appVersion = "1.11"
        #expect(throws: SessionVersionAhead.self) { try Engine(ten).upgrade(state) }
    }
}
