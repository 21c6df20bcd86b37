import Testing
import WayfinderCore

private enum Memo: AppSchema {}

/// Pages that can be pushed and a note in the model. With `readsNavigation`, a page's title
/// shows how deep its stack is: it reads the navigation while rendering, so its screens must
/// never come from the memo; without, its screens are reused.
private struct PageFlow: Flow {
    typealias App = Memo
    let readsNavigation: Bool
    enum Screen: FlowScreen {
        case page
        enum CodingKeys: CodingKey, CaseIterable { case page }
    }
    enum Route: FlowRoute {
        case deeper, note(text: String)
        enum CodingKeys: CodingKey, CaseIterable { case deeper, note }
    }

    func routes(on screen: Screen.Name) -> [Route.Name] { [.deeper, .note] }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.page)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .deeper: flow.push(.page)
        case .note(let text): flow.model["note"] = .string(text)
        }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        let note = flow.model["note"]?.stringValue ?? ""
        let title = readsNavigation ? "Page of \(flow.ownScreens.count)" : "Page \(flow.screen?.id ?? "")"
        return ScreenContent(title: title, components: [.text(note)])
    }
}

/// A root screen and a sheet that comes and goes over it. With `readsNavigation`, the root says
/// whether the sheet covers it: it reads the navigation, and the sheet changes what it shows
/// without changing the root; without, nothing reads the navigation.
private struct CoverFlow: Flow {
    typealias App = Memo
    var readsNavigation = true
    enum Screen: FlowScreen {
        case base, sheet
        enum CodingKeys: CodingKey, CaseIterable { case base, sheet }
    }
    enum Route: FlowRoute {
        case open, close
        enum CodingKeys: CodingKey, CaseIterable { case open, close }
    }

    func routes(on screen: Screen.Name) -> [Route.Name] { screen == .base ? [.open] : [.close] }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.base)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .open: flow.present(.sheet, style: .sheet)
        case .close: try flow.dismiss()
        }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        guard screen == .base else { return ScreenContent(title: "Sheet \(flow.screen?.id ?? "")", components: []) }
        guard readsNavigation else { return ScreenContent(title: "Base", components: []) }
        return ScreenContent(title: flow.topScreen?.id == flow.screen?.id ? "On top" : "Covered", components: [])
    }
}

/// The application coordinator: starts `Child` at the root.
private struct RootFlow<Child: Flow>: Flow where Child.App == Memo {
    typealias App = Memo
    static var name: String { "app" }
    var children: [any Flow.Type] { [Child.self] }

    func start(_ flow: inout FlowContext<Self>) throws {
        try flow.startChild(Child.self, placement: .root)
    }
}

@Suite struct RenderMemoTests {
    private func engine<F: Flow>(_ flow: F) throws -> Engine where F.App == Memo {
        Engine(try Application(scheme: "memo", root: RootFlow<F>(), flows: [flow]))
    }

    @Test func screensThatReadTheNavigationAreRenderedEveryTime() throws {
        let engine = try engine(PageFlow(readsNavigation: true))
        var memo = RenderMemo()
        var state = try engine.start(session: "s", context: [:])
        #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes))
        state = try engine.reduce(state, .trigger(RouteRequest("deeper"))).state
        let bytes = engine.renderJSON(state, memo: &memo)
        #expect(text(bytes) == text(engine.render(state).jsonBytes))
        #expect(memo.lastReused == 0)
        // The first page now says "Page of 2": a stale copy would still say "Page of 1".
        #expect(engine.render(state).stack.map(\.title) == ["Page of 2", "Page of 2"])
    }

    @Test func aRootWhoseScreensReadTheNavigationIsRenderedAgainUnderAModal() throws {
        let engine = try engine(CoverFlow())
        var memo = RenderMemo()
        var state = try engine.start(session: "s", context: [:])
        #expect(text(engine.renderJSON(state, memo: &memo)).contains(#""title":"On top""#))
        state = try engine.reduce(state, .trigger(RouteRequest("open"))).state
        let covered = text(engine.renderJSON(state, memo: &memo))
        #expect(covered == text(engine.render(state).jsonBytes))
        #expect(covered.contains(#""title":"Covered""#))
        state = try engine.reduce(state, .trigger(RouteRequest("close"))).state
        #expect(text(engine.renderJSON(state, memo: &memo)).contains(#""title":"On top""#))
    }

    @Test func unchangedScreensAreReusedAndAChangedModelRendersAgain() throws {
        let engine = try engine(PageFlow(readsNavigation: false))
        var memo = RenderMemo()
        var state = try engine.start(session: "s", context: [:])
        _ = engine.renderJSON(state, memo: &memo)
        state = try engine.reduce(state, .trigger(RouteRequest("deeper"))).state
        #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes))
        #expect(memo.lastReused == 1)  // the first page; the pushed one is new

        state = try engine.reduce(state, .trigger(RouteRequest("note", params: ["text": "hi"]))).state
        #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes))
        #expect(memo.lastReused == 0)  // the model changed: both pages again
        #expect(engine.render(state).stack.map(\.components) == [[.text("hi")], [.text("hi")]])

        state = try engine.reduce(state, .back(screen: nil)).state
        #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes))
        #expect(memo.lastReused == 1)
    }

    @Test func aSheetComingAndGoingReusesTheRootAndTheMemoHoldsOnlyWhatIsShown() throws {
        let engine = try engine(CoverFlow(readsNavigation: false))
        var memo = RenderMemo()
        var state = try engine.start(session: "s", context: [:])
        _ = engine.renderJSON(state, memo: &memo)
        for round in 0..<50 {
            state = try engine.reduce(state, .trigger(RouteRequest("open"))).state
            #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes), "round \(round)")
            #expect(memo.lastReused == 1)  // the base; every sheet is a new screen
            #expect(memo.heldScreens == 2)
            state = try engine.reduce(state, .trigger(RouteRequest("close"))).state
            #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes), "round \(round)")
            #expect(memo.lastReused == 1)
            #expect(memo.heldScreens == 1, "the closed sheet is forgotten")
        }
    }

    @Test func aMemoFromAnotherSessionChangesNothing() throws {
        let engine = try engine(PageFlow(readsNavigation: false))
        var memo = RenderMemo()
        var other = try engine.start(session: "a", context: [:])
        other = try engine.reduce(other, .trigger(RouteRequest("note", params: ["text": "other"]))).state
        _ = engine.renderJSON(other, memo: &memo)
        let state = try engine.start(session: "b", context: [:])
        #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes))
    }
}

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
