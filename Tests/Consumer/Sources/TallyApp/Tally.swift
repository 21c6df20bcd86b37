import WayfinderCore

/// A one-flow app on `WayfinderCore` alone: a tally that goes up by the amount a route says.
public enum Tally: AppSchema {
    public static func makeApplication() throws -> Application {
        try Application(scheme: "tally", root: TallyAppFlow(), flows: [CountingFlow()])
    }
}

/// Counts: every `add` pushes the new total.
public struct CountingFlow: Flow {
    public typealias App = Tally

    public enum Screen: FlowScreen {
        case total(value: Int)
        public enum CodingKeys: CodingKey, CaseIterable { case total }
    }

    public enum Route: FlowRoute {
        case add(amount: Int)
        public enum CodingKeys: CodingKey, CaseIterable { case add }
    }

    public init() {}

    public func routes(on screen: Screen.Name) -> [Route.Name] { [.add] }

    public func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.total(value: 0))
    }

    public func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch (route, screen) {
        case (.add(let amount), .total(let value)):
            flow.push(.total(value: value + amount))
        }
    }

    public func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        switch screen {
        case .total(let value):
            ScreenContent(title: "Total \(value)", components: [.heading("\(value)"), flow.button("Add one", route: .add(amount: 1))])
        }
    }
}

/// The application coordinator: starts the counting flow at the root.
public struct TallyAppFlow: Flow {
    public typealias App = Tally
    public let children: [any Flow.Type] = [CountingFlow.self]

    public init() {}

    public func start(_ flow: inout FlowContext<Self>) throws {
        try flow.startChild(CountingFlow.self, placement: .root)
    }
}
