import Testing
import WayfinderCore

/// One session of an application, driven through the pure engine — no server, no socket — and
/// checked exhaustively, in the manner of TCA's `TestStore`.
///
/// Each step takes a closure that receives the snapshot before the step and changes it into
/// what the test expects after it. Anything the step changed that the closure did not (one
/// screen pushed too many, a context member, a transition) fails the test with the difference.
///
/// ```swift
/// var session = try TestSession(try Shop.makeApplication(), context: ["signedIn": true])
/// try session.send(CartFlow.Route.checkout) {
///     $0.stack.append("address")
///     $0.transitions = ["push address"]
/// }
/// ```
///
/// A step the engine refuses throws its ``NavigationError`` and changes nothing, so a test
/// asserts typed errors with `#expect(throws:)`. After every step, an action of the top screen
/// that would send a parameter its route does not declare (a submit button's field, say) fails
/// the test too (``undeclaredParams(in:engine:)``).
public struct TestSession: Sendable {
    /// The engine under test (another version's after ``upgrade(to:sourceLocation:_:)``).
    public private(set) var engine: Engine
    /// The session's whole state after the last step.
    public private(set) var state: SessionState
    /// The server's clock as the session's next action reaches it (``FlowContext/now``): set it,
    /// or move it with ``advance(by:)``. It starts at 2026-01-01 00:00 UTC, or the `now` given.
    public var now: Timestamp
    /// The snapshot after the last step: what the next step's closure starts from.
    public private(set) var snapshot: NavigationSnapshot

    /// Starts a session as `POST /v1/sessions` would, with `context`, an optional deep link and
    /// the verified user `identity` (as a server's authenticator would give it).
    /// Throws what the server refuses: a context member a client may not set
    /// (``SessionContext/clientMembers``: a signed-in user comes from `identity`, or from the
    /// app's sign-in flow) as ``NavigationError/invalidParams(_:)``, and a bad context or link.
    public init(
        _ application: Application, context: JSONObject = [:], deepLink: String? = nil, identity: Identity? = nil,
        session: String = "test", now: Timestamp = TestSession.defaultStart
    ) throws {
        let refused = application.refusedContextMembers(context)
        guard refused.isEmpty else {
            throw NavigationError.invalidParams(refused.map {
                InvalidParam(name: "context.\($0)", reason: "is the server's to set (the server answers 422 context_not_settable): pass identity:, or sign in through the app's flow")
            })
        }
        engine = Engine(application)
        self.now = now
        state = try engine.start(session: session, context: context, deepLink: deepLink, identity: identity, at: now)
        snapshot = NavigationSnapshot(state, transitions: [], before: nil)
    }

    /// Triggers `route` (a case of the `Route` of a flow on the responder chain of the top
    /// screen) and checks that `expected` describes every change.
    public mutating func send<R: FlowRoute>(
        _ route: R, sourceLocation: SourceLocation = #_sourceLocation, _ expected: (inout NavigationSnapshot) throws -> Void = { _ in }
    ) throws {
        try step(.trigger(RouteRequest(route)), sourceLocation, expected)
    }

    /// Goes back, as `POST …/back` does (with `screen`, only if that screen is on top).
    public mutating func back(
        screen: String? = nil, sourceLocation: SourceLocation = #_sourceLocation, _ expected: (inout NavigationSnapshot) throws -> Void = { _ in }
    ) throws {
        try step(.back(screen: screen), sourceLocation, expected)
    }

    /// Taps tab `id` of the tab bar.
    public mutating func selectTab(
        _ id: String, sourceLocation: SourceLocation = #_sourceLocation, _ expected: (inout NavigationSnapshot) throws -> Void = { _ in }
    ) throws {
        try step(.selectTab(id), sourceLocation, expected)
    }

    /// Opens a deep link in the running session.
    public mutating func open<L: DeepLinkDestination>(
        _ link: L, sourceLocation: SourceLocation = #_sourceLocation, _ expected: (inout NavigationSnapshot) throws -> Void = { _ in }
    ) throws {
        try step(.openDeepLink(engine.app.url(for: link)), sourceLocation, expected)
    }

    /// Completes the oldest pending effect with the service's `reply` (the asking flow's
    /// `EffectReply`), as the server's effect runner would.
    public mutating func complete<Reply: Encodable>(
        with reply: Reply, sourceLocation: SourceLocation = #_sourceLocation, _ expected: (inout NavigationSnapshot) throws -> Void = { _ in }
    ) throws {
        guard let effect = state.effects.first else { throw NoPendingEffect() }
        try step(.completeEffect(id: effect.id, .success(JSONValueEncoder().encode(reply))), sourceLocation, expected)
    }

    /// Completes the oldest pending effect with `failure` (a timeout, a service that is down).
    public mutating func fail(
        with failure: EffectFailure, sourceLocation: SourceLocation = #_sourceLocation,
        _ expected: (inout NavigationSnapshot) throws -> Void = { _ in }
    ) throws {
        guard let effect = state.effects.first else { throw NoPendingEffect() }
        try step(.completeEffect(id: effect.id, .failure(failure)), sourceLocation, expected)
    }

    /// ``complete(with:sourceLocation:_:)`` or ``fail(with:sourceLocation:_:)`` found no effect pending.
    public struct NoPendingEffect: Error, Sendable, CustomStringConvertible {
        public var description: String { "no effect is pending" }
    }

    /// 2026-01-01 00:00 UTC: where a test's clock starts unless it says otherwise.
    public static let defaultStart = Timestamp(millisecondsSince1970: 1_767_225_600_000)

    /// Moves the clock on by `duration`: the next action reaches the server that much later.
    public mutating func advance(by duration: Duration) { now = now.advanced(by: duration) }

    /// Any action, as a client sends it (a route by name with JSON params, a deep link by URL).
    public mutating func send(
        _ action: Action, sourceLocation: SourceLocation = #_sourceLocation, _ expected: (inout NavigationSnapshot) throws -> Void = { _ in }
    ) throws {
        try step(action, sourceLocation, expected)
    }

    private mutating func step(
        _ action: Action, _ sourceLocation: SourceLocation, _ expected: (inout NavigationSnapshot) throws -> Void
    ) throws {
        let outcome = try engine.reduce(state, action, at: now)
        try check(outcome.state, outcome.transitions, sourceLocation, expected, on: engine)
    }

    /// Compares the snapshot of `next` with what `expected` makes of the last one, and checks
    /// the actions `engine` renders on its top screen; then moves on.
    private mutating func check(
        _ next: SessionState, _ transitions: [Transition], _ sourceLocation: SourceLocation,
        _ expected: (inout NavigationSnapshot) throws -> Void, on engine: Engine
    ) throws {
        let actual = NavigationSnapshot(next, transitions: transitions, before: state)
        var wanted = snapshot
        wanted.transitions = []
        try expected(&wanted)
        let differences = wanted.differences(from: actual)
        if !differences.isEmpty {
            Issue.record(
                Comment(rawValue: "the step changed what the test did not expect:\n  " + differences.joined(separator: "\n  ")),
                sourceLocation: sourceLocation)
        }
        for problem in Self.undeclaredParams(in: next, engine: engine) {
            Issue.record(Comment(rawValue: "a tap would be refused: \(problem)"), sourceLocation: sourceLocation)
        }
        state = next
        snapshot = actual
    }

    /// Serves the session with another version of the app, as after a deploy: the state is
    /// stored (``StateCodec``) and read back by `application` (``Engine/load(_:session:revision:)``),
    /// which migrates it, or rebuilds it when no migration covers it. Checks that `expected`
    /// describes every change (the transitions are the ones announced to clients) and returns
    /// what loading did. The next steps run on `application`.
    ///
    /// - Throws: ``SessionVersionAhead`` when `application` is older than the version that saved
    ///   the state (a rolling deploy's old server): the session is then unchanged.
    @discardableResult
    public mutating func upgrade(
        to application: Application, sourceLocation: SourceLocation = #_sourceLocation,
        _ expected: (inout NavigationSnapshot) throws -> Void = { _ in }
    ) throws -> LoadedSession.Outcome {
        let next = Engine(application)
        let loaded = try next.load(StateCodec.encode(state), session: state.session, revision: state.revision)
        try check(loaded.state, loaded.transitions, sourceLocation, expected, on: next)
        engine = next
        return loaded.outcome
    }

    /// The top screen as a client sees it (title, components, routes).
    public var topScreen: RenderedScreen? { engine.render(state).stack.last }

    /// The top screen as a client that renders `client` sees it: components it cannot render
    /// replaced by their fallbacks, or the app's update-required screen.
    public func topScreen(for client: ClientComponents) -> RenderedScreen? { engine.render(state, for: client).stack.last }
}
