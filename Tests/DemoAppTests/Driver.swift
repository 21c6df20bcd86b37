import DemoApp
import Testing
import WayfinderCore

/// Drives one session of the sample app through the pure engine, as the API would.
struct Driver {
    let engine = DemoApp.engine
    var state: SessionState
    var lastTransitions: [Transition] = []

    init(_ context: JSONObject = [:], link: String? = nil) throws {
        state = try DemoApp.engine.start(session: "test", context: context, deepLink: link)
    }

    static func signedIn(platform: String = "phone") throws -> Driver {
        try Driver(["onboarded": true, "authenticated": true, "user": "a@b.c", "platform": .string(platform)])
    }

    @discardableResult
    mutating func apply(_ action: Action) throws -> [Transition] {
        let outcome = try engine.reduce(state, action)
        state = outcome.state
        lastTransitions = outcome.transitions
        return outcome.transitions
    }

    @discardableResult
    mutating func route(_ name: String, _ params: JSONObject = [:]) throws -> [Transition] {
        try apply(.trigger(Route(name, params: params)))
    }

    @discardableResult
    mutating func back(_ screen: String? = nil) throws -> [Transition] { try apply(.back(screen: screen)) }

    @discardableResult
    mutating func tab(_ id: String) throws -> [Transition] { try apply(.selectTab(id)) }

    @discardableResult
    mutating func link(_ url: String) throws -> [Transition] { try apply(.openDeepLink(url)) }

    var rendered: RenderedState { engine.render(state) }
    /// The visible path's screen names, bottom to top.
    var stack: [String] { rendered.stack.map(\.name) }
    var top: RenderedScreen { rendered.stack.last! }
    var topID: String { top.id }
    var context: JSONObject { state.context }
    var selectedTab: String? { state.navigation.tabs?.selected }
    /// Flow names of the coordinator tree, depth first.
    var flows: [String] { state.coordinators.postOrder.reversed().map(\.flow) }

    func id(of name: String) -> String? { rendered.stack.last { $0.name == name }?.id }

    /// Expects the action to be refused with `error` and the state to be unchanged.
    mutating func expectRefused(_ action: Action, _ error: NavigationError, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = state
        #expect(throws: error, sourceLocation: sourceLocation) { try engine.reduce(state, action) }
        #expect(state == before, sourceLocation: sourceLocation)
    }
}

/// Shorthand for expected transitions.
func t(_ op: Transition.Op, _ screens: [String], tab: String? = nil) -> Transition { Transition(op, screens, tab: tab) }
