import Testing
import WayfinderCore

// A stored model (or context) that no longer decodes as the app's type — a release that changed
// the type without a migration — must never be replaced by one a flow built on `init()`.

private enum Counter: AppSchema {
    typealias Model = CounterModel
}

private struct CounterModel: AppModel {
    var count = 0
}

private struct CounterFlow: Flow {
    typealias App = Counter

    enum Screen: FlowScreen {
        case home, detail
        enum CodingKeys: CodingKey, CaseIterable { case home, detail }
    }

    enum Route: FlowRoute {
        case increment, open
        enum CodingKeys: CodingKey, CaseIterable { case increment, open }
    }

    func routes(on screen: Screen.Name) -> [Route.Name] { [.increment, .open] }

    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.home) }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .increment: flow.model.count += 1
        case .open: flow.push(.detail)
        }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        ScreenContent(title: "Count \(flow.model.count)", components: [])
    }
}

private struct CounterAppFlow: Flow {
    typealias App = Counter
    let children: [any Flow.Type] = [CounterFlow.self]

    func start(_ flow: inout FlowContext<Self>) throws {
        try flow.startChild(CounterFlow.self, placement: .root)
    }
}

@Test func aModelThatNoLongerDecodesIsNeverReplaced() throws {
    let engine = Engine(try Application(scheme: "counter", root: CounterAppFlow(), flows: [CounterFlow()]))
    let started = try engine.start(session: "s", context: [:])
    var state = try engine.reduce(started, .trigger(RouteRequest("increment"))).state
    #expect(state.model == ["count": 1])
    #expect(engine.render(state).stack.last?.title == "Count 1")

    state.model = ["count": "seven"]  // as a release whose `count` became an integer would find it

    // An action that would write the model is refused, saying why; nothing is replaced.
    do {
        let outcome = try engine.reduce(state, .trigger(RouteRequest("increment")))
        Issue.record("the model was replaced: \(outcome.state.model)")
    } catch let error as FlowDeclarationError {
        #expect(error.description.contains("the session's model does not decode as CounterModel, so it is not replaced"))
    }
    // Navigation that leaves the model alone goes on, and keeps it; screens render `init()`'s.
    let opened = try engine.reduce(state, .trigger(RouteRequest("open")))
    #expect(opened.state.model == ["count": "seven"])
    #expect(engine.render(opened.state).stack.map(\.title) == ["Count 0", "Count 0"])
    // A model that decodes again (a migration put it right) is written as usual.
    state.model = ["count": 7]
    #expect(try engine.reduce(state, .trigger(RouteRequest("increment"))).state.model == ["count": 8])
}
