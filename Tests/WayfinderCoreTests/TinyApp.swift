import Testing
import WayfinderCore

// A tiny application defined for the engine tests, independent of the sample app:
//
//   root (container) ── list (root stack: `home`, pushes `item`)
//                          ├── child (pushed flow: `childA`, `childB`)
//                          └── sheet (presented as a sheet: `sheetA`, `sheetB`)
//
// Flows write what they see into the model's `log`, so tests can assert who handled what.

extension FlowContext {
    mutating func log(_ entry: String) {
        let log = model["log"]?.arrayValue ?? []
        model["log"] = .array(log + [.string(entry)])
    }
}

struct TinyRootFlow: Flow {
    let name = "root"
    let isContainer = true
    let routes: [RouteSpec] = []
    let children = ["list"]
    func start(_ context: inout FlowContext, option: JSONValue) throws {
        try context.startChild("list", placement: .root)
    }
}

struct TinyListFlow: Flow {
    let name = "list"
    let screens = ["home", "item"]
    let children = ["child", "sheet"]
    let routes = [
        RouteSpec("open", params: [ParamSpec("id", .integer)], on: ["home"]),
        RouteSpec(
            "edit",
            params: [ParamSpec("title"), ParamSpec("done", .boolean, required: false), ParamSpec("count", .integer)],
            on: ["item"]),
        RouteSpec("startChild", on: ["home"]),
        RouteSpec("present", on: ["home"]),
        RouteSpec("noop", on: ["home"]),
        RouteSpec("refuse", on: ["home"]),
        // Also declared by the child: the child, first in the chain, wins.
        RouteSpec("shared", on: ["home", "childA"]),
        // Offered while the child's screen is on top, handled here (the parent).
        RouteSpec("parentOnly", on: ["childA", "childB", "sheetA"]),
    ]

    func start(_ context: inout FlowContext, option: JSONValue) throws { context.show("home") }

    func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws {
        switch route.name {
        case "open": context.push("item", params: ["id": route["id"]!])
        case "edit": context.log("list:edit")
        case "startChild": try context.startChild("child", placement: .push)
        case "present": try context.startChild("sheet", placement: .present(.sheet))
        case "noop": break
        case "refuse":
            context.push("item", params: ["id": 0])
            context.log("list:refuse")
            throw NavigationError.invalidParam("why", "refused after changing things")
        default: context.log("list:\(route.name)")
        }
    }

    func childDidFinish(_ child: FinishedChild, _ context: inout FlowContext) throws {
        switch child.reason {
        case .removed:
            context.log("list:removed \(child.flow) \(child.id)")
        case .finished(let result):
            context.log("list:finished \(child.flow) \(child.id) \(result.stringValue ?? "")")
            if result != "leave" { try context.popToOwnTop() }  // "leave": the engine clears the leftovers
        }
    }
}

struct TinyChildFlow: Flow {
    let name = "child"
    let screens = ["childA", "childB"]
    let routes = [
        RouteSpec("shared", on: ["childA"]),
        RouteSpec("next", on: ["childA"]),
        RouteSpec("finish", on: ["childA", "childB"]),
        RouteSpec("finishLeaving", on: ["childA", "childB"]),
    ]
    func start(_ context: inout FlowContext, option: JSONValue) throws { context.show("childA") }
    func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws {
        switch route.name {
        case "next": context.push("childB")
        case "finish": try context.finish("done")
        case "finishLeaving": try context.finish("leave")
        default: context.log("child:\(route.name)")
        }
    }
}

struct TinySheetFlow: Flow {
    let name = "sheet"
    let screens = ["sheetA", "sheetB"]
    let routes = [
        RouteSpec("more", on: ["sheetA"]),
        RouteSpec("close", on: ["sheetA", "sheetB"]),
    ]
    func start(_ context: inout FlowContext, option: JSONValue) throws { context.show("sheetA") }
    func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws {
        switch route.name {
        case "more": context.push("sheetB")
        default: try context.finish("leave")
        }
    }
}

let tinyEngine = Engine(
    Application(
        scheme: "tiny", root: TinyRootFlow(), flows: [TinyListFlow(), TinyChildFlow(), TinySheetFlow()],
        deepLinks: []))

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
        try apply(.trigger(Route(name, params: params)))
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
