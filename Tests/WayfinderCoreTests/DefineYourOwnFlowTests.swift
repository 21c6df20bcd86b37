import Testing
import WayfinderCore

// A whole app in one file, as an app author writes it: two flows, a deep link, and their tests.

/// The types the app's flows share. This app keeps its context and model as plain JSON.
enum Greeting: AppSchema {}

/// A flow is one coordinator: it shows screens and handles the routes they offer.
struct GreetingFlow: Flow {
    typealias App = Greeting

    enum Screen: FlowScreen {
        case hello
        case waved(name: String)
        enum CodingKeys: CodingKey, CaseIterable { case hello, waved }
    }

    enum Route: FlowRoute {
        case wave(name: String)
        enum CodingKeys: CodingKey, CaseIterable { case wave }
    }

    func routes(on screen: Screen.Name) -> [Route.Name] {
        switch screen {
        case .hello: [.wave]
        case .waved: []
        }
    }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.hello)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .wave(let name): flow.push(.waved(name: name))
        }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        switch screen {
        case .hello:
            ScreenContent(title: "Hello", components: [
                .field(name: "name", label: "Your name", value: "", kind: .text),
                flow.button("Wave", submitting: .wave),
            ])
        case .waved(let name):
            ScreenContent(title: "Hi!", components: [.heading("Hello, \(name)!")])
        }
    }
}

/// The application coordinator owns no screen: it starts the first flow at the root.
struct GreetingAppFlow: Flow {
    typealias App = Greeting
    let children: [any Flow.Type] = [GreetingFlow.self]

    func start(_ flow: inout FlowContext<Self>) throws {
        try flow.startChild(GreetingFlow.self, placement: .root)
    }
}

@Test func greetingFlowPushesWavedOnWave() throws {
    let app = try Application(scheme: "greeting", root: GreetingAppFlow(), flows: [GreetingFlow()])
    let engine = Engine(app)

    let state = try engine.start(session: "demo", context: [:])
    #expect(engine.render(state).stack.map(\.name) == ["hello"])

    // What a client sends: `{"route": "wave", "params": {"name": "Ada"}}`.
    let outcome = try engine.reduce(state, .trigger(RouteRequest("wave", params: ["name": "Ada"])))
    let screen = try #require(engine.render(outcome.state).stack.last)
    #expect(screen.name == "waved")
    #expect(screen.components == [.heading("Hello, Ada!")])
    #expect(outcome.transitions == [Transition(.push, [screen.id])])
    #expect(outcome.state.revision == 2)

    // A missing or mistyped parameter is refused before the flow sees it.
    #expect(throws: NavigationError.invalidParam("name", "is required")) {
        try engine.reduce(state, .trigger(RouteRequest("wave")))
    }
    #expect(throws: NavigationError.invalidParam("name", "must be a string, not an integer")) {
        try engine.reduce(state, .trigger(RouteRequest("wave", params: ["name": 7])))
    }
}
