@testable import NotesApp
import Testing
import WayfinderCore
import WayfinderTesting

/// Each kind of migration, on a session of version 1 of the notes app served next by version 2
/// (``TestSession/upgrade(to:sourceLocation:_:)`` stores the state and reads it back as a
/// server of version 2 does).
@Suite struct MigrationTests {
    let v1: Application
    let v2: Application

    init() throws {
        v1 = try NotesV1.makeApplication()
        v2 = try NotesV2.makeApplication()
    }

    func signedIn() throws -> TestSession { try Sessions.v1WithTwoNotes() }

    @Test func aRenamedFlowKeepsItsUserOnTheSameScreenWithWhatItShowed() throws {
        var session = try TestSession(v1)
        try session.send(NotesV1.SigninFlow.Route.signIn(mail: "nope")) {
            $0.notice = Notice(.error, "Enter an email address.")
            $0.transitions = ["update form"]
        }
        let outcome = try session.upgrade(to: v2) {
            $0.coordinators = "app(auth)"
            $0.transitions = ["update form"]
        }
        #expect(outcome == .migrated(from: "1"))
        #expect(session.state.appVersion == "2")
        try session.send(NotesV2.AuthFlow.Route.login(email: "ada@example.com")) {
            $0.stack = ["notes"]
            $0.navigation = "[notes]"
            $0.coordinators = "app(notes)"
            $0.transitions = ["setRoot notes"]
            $0.context = ["signedIn": true, "user": "ada@example.com"]
            $0.notice = nil
        }
    }

    @Test func anOldClientsRenamedRouteAndParamStillApply() throws {
        var session = try TestSession(v1)
        try session.upgrade(to: v2) {
            $0.coordinators = "app(auth)"
            $0.transitions = ["update form"]
        }
        // The client still shows version 1's form: it sends `signIn` with `mail`.
        try session.send(.trigger(RouteRequest("signIn", params: ["mail": "ada@example.com"]))) {
            $0.stack = ["notes"]
            $0.navigation = "[notes]"
            $0.coordinators = "app(notes)"
            $0.transitions = ["setRoot notes"]
            $0.context = ["signedIn": true, "user": "ada@example.com"]
        }
    }

    @Test func renamedScreensAndScreenValuesAndTheModelChangeTogether() throws {
        var session = try Sessions.v1OnSecondNote()
        try session.upgrade(to: v2) {
            $0.stack = ["notes", #"detail(id: "2")"#]
            $0.navigation = #"[notes, detail(id: "2")]"#
            $0.transitions = [#"update notes, detail(id: "2")"#]
            $0.model = Sessions.twoNotes
        }
        #expect(session.topScreen?.title == "Note 2")
        try session.send(NotesV2.NotesFlow.Route.delete) {
            $0.stack = ["notes"]
            $0.navigation = "[notes]"
            $0.transitions = [#"pop detail(id: "2")"#]
            $0.model = ["items": [["id": "1", "text": "Milk"]], "nextID": 3]
        }
    }

    @Test func aRemovedScreenWithAReplacementShowsItInItsPlace() throws {
        var session = try signedIn()
        try session.send(NotesV1.NotesFlow.Route.showStats) {
            $0.stack = ["list", "stats"]
            $0.navigation = "[list, stats]"
            $0.transitions = ["push stats"]
        }
        let replaced = try #require(session.state.navigation.topScreen?.id)
        try session.upgrade(to: v2) {
            $0.stack = ["notes", "notes"]
            $0.navigation = "[notes, notes]"
            $0.transitions = ["update notes, notes"]
            $0.model = Sessions.twoNotes
        }
        #expect(session.state.navigation.topScreen?.id == replaced, "the same screen, shown differently")
    }

    @Test func aRemovedScreenWithoutAReplacementIsTakenOffItsStack() throws {
        var session = try signedIn()
        try session.send(NotesV1.NotesFlow.Route.showArchive) {
            $0.stack = ["list", "archive"]
            $0.navigation = "[list, archive]"
            $0.transitions = ["push archive"]
        }
        try session.upgrade(to: v2) {
            $0.stack = ["notes"]
            $0.navigation = "[notes]"
            $0.transitions = ["pop archive", "update notes"]
            $0.model = Sessions.twoNotes
        }
    }

    @Test func aRemovedFlowWithAReplacementStartsItWhereTheOldOneWas() throws {
        var session = try signedIn()
        try session.send(NotesV1.NotesFlow.Route.tips) {
            $0.stack = ["list", "tip(page: 1)"]
            $0.navigation = "[list, tip(page: 1)]"
            $0.coordinators = "app(notes(tips))"
            $0.transitions = ["push tip(page: 1)"]
        }
        try session.send(NotesV1.TipsFlow.Route.next) {
            $0.stack = ["list", "tip(page: 1)", "tip(page: 2)"]
            $0.navigation = "[list, tip(page: 1), tip(page: 2)]"
            $0.transitions = ["push tip(page: 2)"]
        }
        try session.upgrade(to: v2) {
            $0.stack = ["notes", "help"]
            $0.navigation = "[notes, help]"
            $0.coordinators = "app(notes(help))"
            $0.transitions = ["pop tip(page: 1), tip(page: 2)", "push help", "update notes"]
            $0.model = Sessions.twoNotes
        }
        try session.send(NotesV2.HelpFlow.Route.close) {
            $0.stack = ["notes"]
            $0.navigation = "[notes]"
            $0.coordinators = "app(notes)"
            $0.transitions = ["pop help"]
        }
    }

    @Test func aRemovedFlowWithoutAReplacementLetsItsParentDecide() throws {
        let v2 = try NotesV2.makeApplication(migrations: NotesV2.migrations(without: ["flow tips"], adding: [.removed(flow: "tips")]))
        var session = try signedIn()
        try session.send(NotesV1.NotesFlow.Route.tips) {
            $0.stack = ["list", "tip(page: 1)"]
            $0.navigation = "[list, tip(page: 1)]"
            $0.coordinators = "app(notes(tips))"
            $0.transitions = ["push tip(page: 1)"]
        }
        try session.upgrade(to: v2) {
            $0.stack = ["notes"]
            $0.navigation = "[notes]"
            $0.coordinators = "app(notes)"
            $0.transitions = ["pop tip(page: 1)", "update notes"]
            $0.model = Sessions.twoNotes
        }
    }

    @Test func aRetypedParamIsConvertedAndANewlyRequiredOneGetsItsDefault() throws {
        var session = try Sessions.v2WithTwoNotes()
        // Version 1's clients send an integer priority, or none.
        try session.send(.trigger(RouteRequest("add", params: ["text": "Tea", "priority": 2]))) {
            $0.model = ["items": [["id": "1", "text": "Milk"], ["id": "2", "text": "Eggs"], ["id": "3", "text": "Tea !"]], "nextID": 4]
        }
        try session.send(.trigger(RouteRequest("add", params: ["text": "Jam"]))) {
            $0.model = [
                "items": [["id": "1", "text": "Milk"], ["id": "2", "text": "Eggs"], ["id": "3", "text": "Tea !"], ["id": "4", "text": "Jam"]],
                "nextID": 5,
            ]
        }
        #expect(throws: NavigationError.invalidParams([InvalidParam(name: "priority", reason: "must be one of low, normal, high")])) {
            try session.send(.trigger(RouteRequest("add", params: ["text": "Tea", "priority": "urgent"])))
        }
        #expect(throws: NavigationError.routeUnavailable(route: "showStats", available: ["add", "open", "help"])) {
            try session.send(.trigger(RouteRequest("showStats")))
        }
    }

    @Test func anOldDeepLinkOpensItsNewDestination() throws {
        var session = try Sessions.v2WithTwoNotes()
        try session.send(.openDeepLink("notes://note/1")) {
            $0.stack = ["notes", #"detail(id: "1")"#]
            $0.navigation = #"[notes, detail(id: "1")]"#
            $0.transitions = [#"push detail(id: "1")"#]
        }
        #expect(v2.match(deepLink: "notes://note/1")?.pattern == "notes/{id}")
    }

    @Test func aStateOfThisVersionIsServedAsItIs() throws {
        var session = try TestSession(v2, context: ["signedIn": true])
        let before = session.state
        let outcome = try session.upgrade(to: v2)
        #expect(outcome == .current)
        #expect(session.state == before)
    }

    @Test func aStateWithoutAVersionGetsEveryMigrationAndOnlyItsStampWhenNothingElseChanges() throws {
        var session = try TestSession(v2, context: ["signedIn": true])
        var unversioned = session.state
        unversioned.appVersion = nil
        let loaded = try Engine(v2).upgrade(unversioned)
        #expect(loaded.outcome == .migrated(from: nil))
        #expect(loaded.state == session.state, "nothing to change but the stamp: same revision")
        #expect(loaded.transitions.isEmpty && loaded.changed)
        #expect(try session.upgrade(to: v2) == .current)
    }
}
