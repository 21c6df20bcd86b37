import Testing
import WayfinderCore

/// Pages that can be pushed and a note in the model. With `readsNavigation`, a page's title
/// shows how deep its stack is: it reads the navigation while rendering, so its screens must
/// never come from the memo; without, its screens are reused.
private struct PageFlow: Flow {
    let name: String
    let readsNavigation: Bool
    let screens = ["page"]
    let routes = [RouteSpec("deeper", on: ["page"]), RouteSpec("note", params: [ParamSpec("text")], on: ["page"])]

    func start(_ context: inout FlowContext, option: JSONValue) throws {
        context.show("page")
    }

    func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws {
        switch route.name {
        case "deeper": context.push("page")
        default: context.model["note"] = .string(route.string("text") ?? "")
        }
    }

    func render(_ screen: ScreenInstance, _ context: FlowContext) -> ScreenContent {
        let note = context.model["note"]?.stringValue ?? ""
        let title = readsNavigation ? "Page of \(context.ownScreens.count)" : "Page \(screen.id)"
        return ScreenContent(title: title, components: [.text(note)])
    }
}

/// A root screen and a sheet that comes and goes over it. With `readsNavigation`, the root says
/// whether the sheet covers it: it reads the navigation, and the sheet changes what it shows
/// without changing the root; without, nothing reads the navigation.
private struct CoverFlow: Flow {
    let name = "cover"
    var readsNavigation = true
    let screens = ["base", "sheet"]
    let routes = [RouteSpec("open", on: ["base"]), RouteSpec("close", on: ["sheet"])]

    func start(_ context: inout FlowContext, option: JSONValue) throws {
        context.show("base")
    }

    func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws {
        if route.name == "open" { context.present("sheet", style: .sheet) } else { try context.dismiss() }
    }

    func render(_ screen: ScreenInstance, _ context: FlowContext) -> ScreenContent {
        guard screen.name == "base" else { return ScreenContent(title: "Sheet \(screen.id)", components: []) }
        guard readsNavigation else { return ScreenContent(title: "Base", components: []) }
        return ScreenContent(title: context.topScreen?.id == screen.id ? "On top" : "Covered", components: [])
    }
}

private struct RootFlow: Flow {
    let name = "app"
    let isContainer = true
    let routes: [RouteSpec] = []
    let child: String

    func start(_ context: inout FlowContext, option: JSONValue) throws {
        try context.startChild(child, placement: .root)
    }
}

@Suite struct RenderMemoTests {
    func engine(_ flow: any Flow) -> Engine {
        Engine(Application(scheme: "memo", root: RootFlow(child: flow.name), flows: [flow], deepLinks: []))
    }

    @Test func screensThatReadTheNavigationAreRenderedEveryTime() throws {
        let engine = engine(PageFlow(name: "depth", readsNavigation: true))
        var memo = RenderMemo()
        var state = try engine.start(session: "s", context: [:])
        #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes))
        state = try engine.reduce(state, .trigger(Route("deeper"))).state
        let bytes = engine.renderJSON(state, memo: &memo)
        #expect(text(bytes) == text(engine.render(state).jsonBytes))
        #expect(memo.lastReused == 0)
        // The first page now says "Page of 2": a stale copy would still say "Page of 1".
        #expect(engine.render(state).stack.map(\.title) == ["Page of 2", "Page of 2"])
    }

    @Test func aRootWhoseScreensReadTheNavigationIsRenderedAgainUnderAModal() throws {
        let engine = engine(CoverFlow())
        var memo = RenderMemo()
        var state = try engine.start(session: "s", context: [:])
        #expect(text(engine.renderJSON(state, memo: &memo)).contains(#""title":"On top""#))
        state = try engine.reduce(state, .trigger(Route("open"))).state
        let covered = text(engine.renderJSON(state, memo: &memo))
        #expect(covered == text(engine.render(state).jsonBytes))
        #expect(covered.contains(#""title":"Covered""#))
        state = try engine.reduce(state, .trigger(Route("close"))).state
        #expect(text(engine.renderJSON(state, memo: &memo)).contains(#""title":"On top""#))
    }

    @Test func unchangedScreensAreReusedAndAChangedModelRendersAgain() throws {
        let engine = engine(PageFlow(name: "plain", readsNavigation: false))
        var memo = RenderMemo()
        var state = try engine.start(session: "s", context: [:])
        _ = engine.renderJSON(state, memo: &memo)
        state = try engine.reduce(state, .trigger(Route("deeper"))).state
        #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes))
        #expect(memo.lastReused == 1)  // the first page; the pushed one is new

        state = try engine.reduce(state, .trigger(Route("note", params: ["text": "hi"]))).state
        #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes))
        #expect(memo.lastReused == 0)  // the model changed: both pages again
        #expect(engine.render(state).stack.map(\.components) == [[.text("hi")], [.text("hi")]])

        state = try engine.reduce(state, .back(screen: nil)).state
        #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes))
        #expect(memo.lastReused == 1)
    }

    @Test func aSheetComingAndGoingReusesTheRootAndTheMemoHoldsOnlyWhatIsShown() throws {
        let engine = engine(CoverFlow(readsNavigation: false))
        var memo = RenderMemo()
        var state = try engine.start(session: "s", context: [:])
        _ = engine.renderJSON(state, memo: &memo)
        for round in 0..<50 {
            state = try engine.reduce(state, .trigger(Route("open"))).state
            #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes), "round \(round)")
            #expect(memo.lastReused == 1)  // the base; every sheet is a new screen
            #expect(memo.heldScreens == 2)
            state = try engine.reduce(state, .trigger(Route("close"))).state
            #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes), "round \(round)")
            #expect(memo.lastReused == 1)
            #expect(memo.heldScreens == 1, "the closed sheet is forgotten")
        }
    }

    @Test func aMemoFromAnotherSessionChangesNothing() throws {
        let engine = engine(PageFlow(name: "plain", readsNavigation: false))
        var memo = RenderMemo()
        var other = try engine.start(session: "a", context: [:])
        other = try engine.reduce(other, .trigger(Route("note", params: ["text": "other"]))).state
        _ = engine.renderJSON(other, memo: &memo)
        let state = try engine.start(session: "b", context: [:])
        #expect(text(engine.renderJSON(state, memo: &memo)) == text(engine.render(state).jsonBytes))
    }
}

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
