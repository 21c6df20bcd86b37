import Testing
import WayfinderCore

// README, "Define your own flow": this file is that example, verbatim, so it always compiles.

/// A flow is one coordinator: it shows screens and handles the routes they offer.
struct GreetingFlow: Flow {
    let name = "greeting"
    let screens = ["hello", "waved"]
    let routes = [RouteSpec("wave", params: [ParamSpec("name")], on: ["hello"])]

    func start(_ context: inout FlowContext, option: JSONValue) throws {
        context.show("hello")
    }

    func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws {
        // The engine already checked that `name` is present and a string.
        context.push("waved", params: ["name": .string(route.string("name")!)])
    }

    func render(_ screen: ScreenInstance, _ context: FlowContext) -> ScreenContent {
        if screen.name == "waved" {
            let name = screen.param("name")?.stringValue ?? ""
            return ScreenContent(title: "Hi!", components: [.heading("Hello, \(name)!")])
        }
        return ScreenContent(title: "Hello", components: [
            .field(name: "name", label: "Your name", value: "", kind: .text),
            .button("Wave", route: "wave", submit: true),
        ])
    }
}

/// The application coordinator owns no screen: it starts the first flow at the root.
struct GreetingAppFlow: Flow {
    let name = "app"
    let isContainer = true
    let routes: [RouteSpec] = []
    let children = ["greeting"]

    func start(_ context: inout FlowContext, option: JSONValue) throws {
        try context.startChild("greeting", placement: .root)
    }
}

@Test func greetingFlowPushesWavedOnWave() throws {
    let app = Application(scheme: "greeting", root: GreetingAppFlow(), flows: [GreetingFlow()], deepLinks: [])
    let engine = Engine(app)

    let state = try engine.start(session: "demo", context: [:])
    #expect(engine.render(state).stack.map(\.name) == ["hello"])

    let outcome = try engine.reduce(state, .trigger(Route("wave", params: ["name": "Ada"])))
    let screen = engine.render(outcome.state).stack.last!
    #expect(screen.name == "waved")
    #expect(screen.components == [.heading("Hello, Ada!")])
    #expect(outcome.transitions == [Transition(.push, [screen.id])])
    #expect(outcome.state.revision == 2)

    // A missing parameter is refused before the flow sees it.
    #expect(throws: NavigationError.invalidParam("name", "is required")) {
        try engine.reduce(state, .trigger(Route("wave")))
    }
}
