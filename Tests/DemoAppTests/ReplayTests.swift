@testable import DemoApp
import Foundation
import Testing
import WayfinderCore
import WayfinderTesting

/// Replay bundles against the sample app: the committed bundle of the full walkthrough
/// (`Tests/bundles/walkthrough.json`, recorded from a live server) replays clean, and against a
/// deliberately changed flow it names the first revision that differs.
@Suite struct ReplayTests {
    static let walkthrough: String = {
        // This file is Tests/DemoAppTests/ReplayTests.swift.
        var path = Substring(#filePath)
        for _ in 0..<2 { path = path[..<(path.lastIndex(of: "/") ?? path.startIndex)] }
        return path + "/bundles/walkthrough.json"
    }()

    static func bundle() throws -> ReplayBundle {
        try ReplayBundle(bytes: Array(try #require(FileManager.default.contents(atPath: walkthrough))))
    }

    @Test func theRecordedWalkthroughReplaysClean() throws {
        let report = try TestSession.replay(bundleAt: Self.walkthrough, on: demoApplication)
        #expect(report.steps.count == 19)
        #expect(report.steps.allSatisfy { $0.verdict != .diverged })
    }

    @Test func aChangedFlowDivergesAtTheFirstRevisionItChanges() throws {
        // The same version with one flow changed, as while fixing a bug.
        let changed = try Application(
            scheme: "wayfinder", version: demoApplication.version, root: AppFlow(),
            flows: [TwoPageOnboardingFlow(), AuthFlow(), ChangePasswordFlow(), MainFlow(), HomeFlow(), TodosFlow(), ProfileFlow()])
        let report = Replay(Engine(changed)).run(try Self.bundle())
        #expect(report.steps.map(\.verdict) == [.ok, .ok, .diverged])
        let divergence = try #require(report.divergence)
        #expect(divergence.revision == 3)
        // The readable account: the screens, then the state's paths that differ.
        #expect(divergence.differences.first == "screens: walkthrough > walkthrough > walkthrough → login")
        #expect(divergence.differences.contains { $0.hasPrefix("$.context.onboarded: false → true") })
        #expect(report.description.contains("revision 3 diverged: the computed state differs from the recorded one"))
    }

    @Test func aBundleWhoseJournalDroppedItsStartReplaysFromItsOldestState() throws {
        var bundle = try Self.bundle()
        bundle.entries.removeFirst(6)
        let report = Replay(demoEngine).run(bundle)
        #expect(report.isClean, "\(report)")
        #expect(report.steps.first?.revision == 7)
        #expect(report.steps.count == 13)
    }

    @Test func aGapInTheBundleIsADivergenceNamingTheMissingRevision() throws {
        var bundle = try Self.bundle()
        bundle.entries.remove(at: 9)
        let report = Replay(demoEngine).run(bundle)
        #expect(report.divergence?.revision == 11)
        #expect(report.divergence?.reason == "the bundle has no entry for revision 10")
    }

    @Test func whatIsNotABundleIsRefusedWithItsReason() throws {
        #expect(throws: JournalError.malformed("the bundle's format is not wayfinder-replay/1")) {
            try ReplayBundle(bytes: Array(#"{"entries":[]}"#.utf8))
        }
        #expect(throws: JournalError.malformed("the bundle has no entries")) {
            try ReplayBundle(bytes: Array(#"{"format":"wayfinder-replay/1","session":"x","entries":[]}"#.utf8))
        }
        #expect(throws: JournalError.malformed("unknown action kind 'jump'")) {
            try ReplayBundle(bytes: Array(#"{"format":"wayfinder-replay/1","session":"x","entries":[{"revision":1,"digest":"0","actions":[{"kind":"jump"}]}]}"#.utf8))
        }
    }

    @Test func everyActionKindReadsBackAsWritten() throws {
        let secrets = SecretParams(demoApplication)
        let actions: [JournalAction] = [
            .start(context: ["onboarded": true], deepLink: "wayfinder://todos"),
            .action(.trigger(RouteRequest("saveTodo", params: ["title": "x"]))),
            .action(.back(screen: "s3")), .action(.back(screen: nil)), .action(.selectTab("todos")),
            .action(.openDeepLink("wayfinder://profile")),
            .action(.completeEffect(id: "e1", .success(.string("signedIn")))),
            .action(.completeEffect(id: "e2", .failure(.timedOut))),
            .action(.completeEffect(id: "e3", .failure(.unavailable("down: for now")))),
            .action(.completeEffect(id: "e4", .failure(.interrupted))),
            .abandonEffect("e5"), .rewind(revision: 4),
        ]
        for action in actions {
            var w = JSONWriter()
            action.write(to: &w, redacting: secrets)
            #expect(try JournalAction(json: try JSONParser.parse(w.bytes)) == action)
        }
        var w = JSONWriter()
        JournalAction.action(.trigger(RouteRequest("signUp", params: ["name": "A", "email": "a@b.c", "password": "p4ssw0rd-x"])))
            .write(to: &w, redacting: secrets)
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"kind":"route","route":"signUp","params":{"email":"a@b.c","name":"A","password":"[redacted]"}}"#)
    }
}

/// The sample app's onboarding with two pages where it has three: a deliberate change.
struct TwoPageOnboardingFlow: DemoFlow {
    typealias Screen = OnboardingFlow.Screen
    typealias Route = OnboardingFlow.Route
    static var name: String { "onboarding" }

    func routes(on screen: Screen.Name) -> [Route.Name] { [.next, .skip] }

    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.walkthrough(page: 1)) }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        if route == .next, case .walkthrough(let page) = screen, page < 2 { return flow.push(.walkthrough(page: page + 1)) }
        flow.context.onboarded = true
        try flow.finish()
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        ScreenContent(title: "Welcome", components: [flow.button("Next", route: .next)])
    }
}
