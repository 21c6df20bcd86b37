@testable import DemoApp
import Synchronization
import Testing
import WayfinderCore

/// Drives one session of the sample app through the pure engine, as the API would, checking
/// the structural invariants after every action.
struct Driver {
    let engine = demoEngine
    var state: SessionState
    var lastTransitions: [Transition] = []

    init(_ context: JSONObject = [:], link: String? = nil, clock: DemoClock = .system) throws {
        services = DemoServices(users: Driver.users(clock: clock))
        state = try demoEngine.start(session: "test", context: context, deepLink: link)
        #expect(invariantViolations(of: state) == [])
    }

    static func signedIn(platform: String = "phone") throws -> Driver {
        try Driver(["onboarded": true, "authenticated": true, "user": "a@b.c", "platform": .string(platform)])
    }

    /// The sample app's account service, in memory (one per driver): effects are completed at
    /// once, in the action's revision, as the server does when they finish within its wait.
    /// Its accounts are ``accounts``, each with the password ``password``.
    let services: DemoServices

    /// The addresses that have an account in every driver's service.
    static let accounts = ["a@b.c", "ada@example.com", "b@c.d", "a@b"]
    /// The password of each of ``accounts``.
    static let password = "12345678"

    static func users(clock: DemoClock) -> UserStore {
        try! UserStore.inMemory(accounts: Dictionary(uniqueKeysWithValues: accounts.map { ($0, password) }), clock: clock)
    }

    @discardableResult
    mutating func apply(_ action: Action, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Transition] {
        var outcome = try engine.reduce(state, action)
        var queue = outcome.effects
        while !queue.isEmpty {
            let request = queue.removeFirst()
            let next = try engine.reduce(outcome.state, .completeEffect(id: request.effect.id, services.complete(request)))
            outcome = Outcome(state: next.state, transitions: outcome.transitions + next.transitions, changed: true)
            outcome.state.revision = state.revision + 1
            queue += next.effects
        }
        #expect(outcome.state.revision == state.revision + (outcome.changed ? 1 : 0), sourceLocation: sourceLocation)
        #expect(outcome.changed == (outcome.state != state), sourceLocation: sourceLocation)
        if !outcome.changed { #expect(outcome.transitions == [], sourceLocation: sourceLocation) }
        state = outcome.state
        lastTransitions = outcome.transitions
        #expect(invariantViolations(of: state) == [], sourceLocation: sourceLocation)
        return outcome.transitions
    }

    @discardableResult
    mutating func route(_ name: String, _ params: JSONObject = [:], sourceLocation: SourceLocation = #_sourceLocation) throws -> [Transition] {
        try apply(.trigger(RouteRequest(name, params: params)), sourceLocation: sourceLocation)
    }

    @discardableResult
    mutating func back(_ screen: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Transition] {
        try apply(.back(screen: screen), sourceLocation: sourceLocation)
    }

    @discardableResult
    mutating func tab(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Transition] {
        try apply(.selectTab(id), sourceLocation: sourceLocation)
    }

    @discardableResult
    mutating func link(_ url: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Transition] {
        try apply(.openDeepLink(url), sourceLocation: sourceLocation)
    }

    var rendered: RenderedState { engine.render(state) }
    /// The visible path's screen names, bottom to top.
    var stack: [String] { rendered.stack.map(\.name) }
    /// The visible path's screen ids, bottom to top.
    var ids: [String] { rendered.stack.map(\.id) }
    var top: RenderedScreen { rendered.stack.last! }
    var topID: String { top.id }
    var context: JSONObject { state.context }
    var selectedTab: String? { state.navigation.tabs?.selected }
    /// Flow names of the coordinator tree, depth first.
    var flows: [String] { state.coordinators.postOrder.reversed().map(\.flow) }
    /// The coordinator tree by flow names: `app(main(home,todos,profile))`.
    var tree: String { describe(state.coordinators) }
    /// The to-dos as `id:title` (open) or `id:title✓` (completed), in list order.
    var todos: [String] {
        guard let todos = state.model["todos"]?.arrayValue else {  // untouched: the five samples
            return ["1:Buy milk", "2:Call the plumber", "3:Book flights✓", "4:Renew passport", "5:Water the plants"]
        }
        return todos.map { todo in
            let done = todo["completed"]?.boolValue == true ? "✓" : ""
            return "\(todo["id"]?.stringValue ?? "?"):\(todo["title"]?.stringValue ?? "?")\(done)"
        }
    }

    /// The screen names of a tab's stack, selected or not.
    func tabStack(_ id: String) -> [String] { state.navigation[.tab(id)]?.screens.map(\.name) ?? [] }
    func tabIDs(_ id: String) -> [String] { state.navigation[.tab(id)]?.screens.map(\.id) ?? [] }

    func id(of name: String) -> String? { rendered.stack.last { $0.name == name }?.id }

    /// A field's value on the top screen.
    func field(_ name: String) -> String? {
        for case .field(let fieldName, _, let value, _) in top.components where fieldName == name { return value }
        return nil
    }

    /// The code in the newest mail to `address` (sign-up, reset, unlock).
    func code(to address: String) -> String? { services.mailer.code(to: address) }

    /// Signs up `email` with ``password``: the form, then the code the mail brought.
    mutating func signUp(_ email: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try route("signUp", ["name": "Ada", "email": .string(email), "password": .string(Self.password)], sourceLocation: sourceLocation)
        let mailed = try #require(code(to: email), sourceLocation: sourceLocation)
        try route("confirmSignUp", ["code": .string(mailed)], sourceLocation: sourceLocation)
    }

    var notices: [Notice] { top.components.compactMap { if case .notice(let n) = $0 { n } else { nil } } }

    /// Expects the action to be refused with `error` and the state to be unchanged.
    mutating func expectRefused(_ action: Action, _ error: NavigationError, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = state
        #expect(throws: error, sourceLocation: sourceLocation) { try engine.reduce(state, action) }
        #expect(state == before, sourceLocation: sourceLocation)
    }

    mutating func expectRefused(route name: String, _ params: JSONObject = [:], _ error: NavigationError, sourceLocation: SourceLocation = #_sourceLocation) {
        expectRefused(.trigger(RouteRequest(name, params: params)), error, sourceLocation: sourceLocation)
    }

    /// Expects the action to succeed without changing anything.
    mutating func expectNoOp(_ action: Action, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = state
        let outcome = try engine.reduce(state, action)
        #expect(outcome.changed == false, sourceLocation: sourceLocation)
        #expect(outcome.transitions == [], sourceLocation: sourceLocation)
        #expect(outcome.state == before, sourceLocation: sourceLocation)
    }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let time = Mutex(Duration.seconds(1000))
    var clock: DemoClock { DemoClock { self.time.withLock { $0 } } }
    func advance(by duration: Duration) { time.withLock { $0 += duration } }
}

private func describe(_ node: Coordinator) -> String {
    let inner = node.children.map(describe).joined(separator: ",")
    return node.flow + (inner.isEmpty ? "" : "(\(inner))")
}

/// Shorthand for expected transitions.
func t(_ op: Transition.Op, _ screens: [String], tab: String? = nil) -> Transition { Transition(op, screens, tab: tab) }

/// A signed-in phone session: `c1` main; tabs home `c2` (`s1` dashboard), todos `c3` (`s2`
/// todoList), profile `c4` (`s3` profile).
enum Main {
    static let dashboard = "s1", todoList = "s2", profile = "s3"
}
