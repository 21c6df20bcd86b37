import Testing
import WayfinderCore

// A tiny application defined for the engine tests, independent of the sample app:
//
//   root (container) ── list (root stack: `home`, pushes `item`)
//                          ├── child (pushed flow: `childA`, `childB`)
//                          └── sheet (presented as a sheet: `sheetA`, `sheetB`)
//
// Flows write what they see into the model's `log`, so tests can assert who handled what.

/// The tiny app keeps its context and model as plain JSON.
enum Tiny: AppSchema {}

extension FlowContext where F.App == Tiny {
    mutating func log(_ entry: String) {
        let log = model["log"]?.arrayValue ?? []
        model["log"] = .array(log + [.string(entry)])
    }
}

struct TinyRootFlow: Flow {
    typealias App = Tiny
    static let name = "root"
    let children: [any Flow.Type] = [TinyListFlow.self]
    func start(_ flow: inout FlowContext<Self>) throws {
        try flow.startChild(TinyListFlow.self, placement: .root)
    }
}

struct TinyListFlow: Flow {
    typealias App = Tiny
    static let name = "list"
    enum Screen: FlowScreen {
        case home, item(id: Int)
        enum CodingKeys: CodingKey, CaseIterable { case home, item }
    }
    enum Route: FlowRoute {
        case open(id: Int)
        case edit(title: String, done: Bool?, count: Int)
        case startChild, present, noop, refuse
        /// Also offered by the child: the child, first in the chain, wins.
        case shared
        /// Offered while a descendant's screen is on top, handled here (the parent).
        case parentOnly
        enum CodingKeys: CodingKey, CaseIterable { case open, edit, startChild, present, noop, refuse, shared, parentOnly }
    }
    let children: [any Flow.Type] = [TinyChildFlow.self, TinySheetFlow.self]
    let routesOverDescendants: [Route.Name] = [.shared, .parentOnly]

    func routes(on screen: Screen.Name) -> [Route.Name] {
        switch screen {
        case .home: [.open, .startChild, .present, .noop, .refuse, .shared]
        case .item: [.edit]
        }
    }

    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.home) }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .open(let id): flow.push(.item(id: id))
        case .edit: flow.log("list:edit")
        case .startChild: try flow.startChild(TinyChildFlow.self, placement: .push)
        case .present: try flow.startChild(TinySheetFlow.self, placement: .present(.sheet))
        case .noop: break
        case .refuse:
            flow.push(.item(id: 0))
            flow.log("list:refuse")
            throw NavigationError.invalidParam("why", "refused after changing things")
        case .shared, .parentOnly: flow.log("list:\(Route.name(of: route))")
        }
    }

    func handle(_ route: Route, overDescendant screen: ScreenInstance, _ flow: inout FlowContext<Self>) throws {
        flow.log("list:\(Route.name(of: route))")
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        ScreenContent(title: Screen.name(of: screen), components: [])
    }

    func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws {
        switch child.reason {
        case .removed:
            flow.log("list:removed \(child.flow) \(child.id)")
        case .finished(let result):
            flow.log("list:finished \(child.flow) \(child.id) \(result.stringValue ?? "")")
            if result != "leave" { try flow.popToOwnTop() }  // "leave": the engine clears the leftovers
        }
    }
}

struct TinyChildFlow: Flow {
    typealias App = Tiny
    static let name = "child"
    enum Screen: FlowScreen {
        case childA, childB
        enum CodingKeys: CodingKey, CaseIterable { case childA, childB }
    }
    enum Route: FlowRoute {
        case shared, next, finish, finishLeaving
        enum CodingKeys: CodingKey, CaseIterable { case shared, next, finish, finishLeaving }
    }
    enum Result: String, Codable { case done, leave }

    func routes(on screen: Screen.Name) -> [Route.Name] {
        switch screen {
        case .childA: [.shared, .next, .finish, .finishLeaving]
        case .childB: [.finish, .finishLeaving]
        }
    }

    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.childA) }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .next: flow.push(.childB)
        case .finish: try flow.finish(.done)
        case .finishLeaving: try flow.finish(.leave)
        case .shared: flow.log("child:shared")
        }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        ScreenContent(title: Screen.name(of: screen), components: [])
    }
}

struct TinySheetFlow: Flow {
    typealias App = Tiny
    static let name = "sheet"
    enum Screen: FlowScreen {
        case sheetA, sheetB
        enum CodingKeys: CodingKey, CaseIterable { case sheetA, sheetB }
    }
    enum Route: FlowRoute {
        case more, close
        enum CodingKeys: CodingKey, CaseIterable { case more, close }
    }
    enum Result: String, Codable { case leave }

    func routes(on screen: Screen.Name) -> [Route.Name] {
        switch screen {
        case .sheetA: [.more, .close]
        case .sheetB: [.close]
        }
    }

    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.sheetA) }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .more: flow.push(.sheetB)
        case .close: try flow.finish(.leave)
        }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        ScreenContent(title: Screen.name(of: screen), components: [])
    }
}

let tinyApplication: Application = {
    do {
        return try Application(scheme: "tiny", root: TinyRootFlow(), flows: [TinyListFlow(), TinyChildFlow(), TinySheetFlow()])
    } catch {
        fatalError("the tiny app does not build: \(error)")
    }
}()

let tinyEngine = Engine(tinyApplication)

/// Drives a session of the tiny app.
struct TinySession {
    var state: SessionState
    var transitions: [Transition] = []

    init() throws { state = try tinyEngine.start(session: "tiny", context: [:]) }

    @discardableResult
    mutating func apply(_ action: Action) throws -> Outcome {
        let outcome = try tinyEngine.reduce(state, action)
        state = outcome.state
        transitions = outcome.transitions
        return outcome
    }

    @discardableResult
    mutating func route(_ name: String, _ params: JSONObject = [:]) throws -> Outcome {
        try apply(.trigger(RouteRequest(name, params: params)))
    }

    var names: [String] { state.navigation.visibleScreens.map(\.name) }
    var ids: [String] { state.navigation.visibleScreens.map(\.id) }
    var log: [String] { state.model["log"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    var tree: String { Self.describe(state.coordinators) }
    var topRoutes: [String] { tinyEngine.render(state).stack.last?.routes ?? [] }

    /// `c0:root(c1:list(c2:child))`
    static func describe(_ node: Coordinator) -> String {
        let inner = node.children.map(describe).joined(separator: ",")
        return "\(node.id):\(node.flow)" + (inner.isEmpty ? "" : "(\(inner))")
    }

    /// Expects `action` refused with `error` and the state untouched.
    func expectRefused(_ action: Action, _ error: NavigationError, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = state
        #expect(throws: error, sourceLocation: sourceLocation) { try tinyEngine.reduce(state, action) }
        #expect(state == before, sourceLocation: sourceLocation)
    }
}
