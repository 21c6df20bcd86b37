@testable import NotesApp
import Testing
import WayfinderCore

/// What building an ``Application`` checks in its version, migrations and update-required
/// screen: what the compiler cannot see there.
@Suite struct VersionCheckTests {
    func problems(_ make: () throws -> Application) -> [String] {
        do {
            _ = try make()
            return []
        } catch let error as ApplicationError {
            return error.problems
        } catch {
            return ["\(error)"]
        }
    }

    func v2(version: String = "2", _ migrations: [Migration<NotesV2.App>], updateRequired: ScreenContent = .updateRequired) throws -> Application {
        try Application(
            scheme: "notes", version: version, root: NotesV2.AppFlow(), flows: [NotesV2.AuthFlow(), NotesV2.NotesFlow(), NotesV2.HelpFlow()],
            migrations: migrations, updateRequired: updateRequired)
    }

    @Test func aVersionIsDottedNumbersAndNoMigrationIsForALaterOne() {
        #expect(problems { try v2(version: "2.x", []) } == ["version '2.x' is not a version: use dotted numbers such as 2 or 1.4.0"])
        #expect(problems { try v2([Migration(to: "3", []), Migration(to: "two", [])]) } == [
            "migration to 3 is for a version after this application's 2",
            "migration to two: 'two' is not a version: use dotted numbers such as 2 or 1.4.0",
        ])
    }

    @Test func anOldNameThatIsStillInUseIsNamed() {
        #expect(problems {
            try v2([
                Migration(to: "2", [
                    .renamed(flow: "help", to: NotesV2.AuthFlow.self),
                    .renamed(screen: "detail", to: .notes, in: NotesV2.NotesFlow.self),
                    .removed(route: "open", in: NotesV2.NotesFlow.self),
                    .renamed(param: "text", to: "body", of: .add, in: NotesV2.NotesFlow.self),
                    .removed(param: "text", of: .add, in: NotesV2.NotesFlow.self),
                    .removed(deepLink: "notes/{id}"),
                ])
            ])
        } == [
            "migration to 2: flow 'help' is renamed but a flow of that name is still registered",
            "migration to 2: screen 'detail' of flow 'notes' is renamed but the flow still has a screen of that name",
            "migration to 2: route 'open' of flow 'notes' is renamed or removed but the flow still has a route of that name",
            "migration to 2: param 'text' of route 'add' of flow 'notes' is renamed but the route still has it",
            "migration to 2: param 'text' of route 'add' of flow 'notes' is removed but the route still has it",
            "migration to 2: deep link 'notes/{id}' is removed but it is still a pattern of the application",
        ])
    }

    @Test func aTargetThatIsNotRegisteredOrCapturesOtherValuesIsNamed() {
        #expect(problems {
            try v2([
                Migration(to: "2", [
                    .converted(param: "colour", of: .add, in: NotesV2.NotesFlow.self) { $0 },
                    .renamed(deepLink: "note/{name}", to: .note),
                ])
            ])
        } == [
            "migration to 2: the route has no param 'colour' of route 'add' of flow 'notes'",
            "migration to 2: deep link 'note/{name}' is renamed to 'notes/{id}', which captures other values",
        ])
        #expect(problems {
            try Application(
                scheme: "notes", version: "2", root: NotesV2.AppFlow(), flows: [NotesV2.AuthFlow(), NotesV2.NotesFlow(), NotesV2.HelpFlow()],
                migrations: [Migration(to: "2", [.removed(flow: "tips", replacedBy: Unregistered.self)])])
        } == ["migration to 2: flow 'unregistered' is not registered in the application"])
    }

    @Test func theUpdateRequiredScreenUsesWhatEveryClientRenders() {
        let withButton = ScreenContent(title: "Update", components: [.text("Please"), .button("Update", route: "update")])
        #expect(problems { try v2([], updateRequired: withButton) } == [
            "the update-required screen shows a button: use headings, text and notices, which every client renders"
        ])
    }
}

private struct Unregistered: Flow {
    typealias App = NotesV2.App
    func start(_ flow: inout FlowContext<Self>) throws {}
}
