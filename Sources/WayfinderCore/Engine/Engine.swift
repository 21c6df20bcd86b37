/// The reducer: `(state, action) -> (state, transitions)`, pure and synchronous.
///
/// No IO, no clock, no randomness: the same state and action always give the same outcome, so
/// the whole navigation behaviour is testable without a socket.
public struct Engine: Sendable {
    /// The application whose flows the engine runs.
    public let app: Application

    /// An engine for `app`; it keeps nothing else, so one engine serves every session.
    public init(_ app: Application) { self.app = app }

    /// Starts a session of the user `identity` (nil: nobody verified): the application
    /// coordinator runs its launch logic, then `deepLink` (if any) is opened. A bad context or
    /// link throws and no session exists. The context is taken as given: the server refuses
    /// members a client may not set before it starts a session.
    /// `now` is when the session was asked for (``FlowContext/now``).
    public func start(
        session: String, context: JSONObject, deepLink: String? = nil, identity: Identity? = nil, at now: Timestamp = .zero
    ) throws -> SessionState {
        try launched(session: session, context: context, deepLink: deepLink, identity: identity, at: now).state
    }

    /// `start`, with the effects the launch asked for (in a flow's `start`, `childDidFinish` or
    /// deep link), to run as a route's are: the server's create answer waits for them.
    package func launched(
        session: String, context: JSONObject, deepLink: String? = nil, identity: Identity? = nil, at now: Timestamp = .zero
    ) throws -> Outcome {
        var navigator = try launch(session: session, context: try app.normalizeContext(context), identity: identity, model: [:], at: now)
        if let deepLink {
            _ = try navigator.openDeepLink(deepLink)
            try navigator.prune()
        }
        var state = navigator.state
        state.revision = 1
        return Outcome(state: state, transitions: navigator.transitions, changed: true, effects: navigator.requested)
    }

    /// The navigator of a new session with `context` (already normalized), `identity` and
    /// `model`, after the application coordinator's launch logic; its transitions are the launch's.
    func launch(session: String, context: JSONObject, identity: Identity? = nil, model: JSONObject, at now: Timestamp = .zero) throws -> Navigator {
        let root = Coordinator(id: "c0", flow: app.rootFlow, placement: .root)
        var state = SessionState(session: session, context: context, root: root)
        state.identity = identity
        state.model = model
        state.appVersion = app.version
        var navigator = Navigator(app: app, state: state)
        navigator.now = now
        // Dropped if the flow throws: no session exists then.
        try navigator.withMoved(root.id) { flow, context in try flow.start(&context) }
        try navigator.prune()
        navigator.rootReplaced = false
        return navigator
    }

    /// Applies an action that reached the server at `now` (``FlowContext/now``). Throws
    /// ``NavigationError`` for what the contract refuses; the input state is never modified.
    public func reduce(_ state: SessionState, _ action: Action, at now: Timestamp = .zero) throws -> Outcome {
        var memo = RenderMemo()
        return try reduce(state, action, at: now, memo: &memo)
    }

    /// `reduce`, with the session's memo: the app's context and model as decoded for its last
    /// action or rendering are reused while unchanged, and the memo keeps them for the next.
    package func reduce(_ state: SessionState, _ action: Action, at now: Timestamp = .zero, memo: inout RenderMemo) throws -> Outcome {
        let decoded = DecodedCache(memo.decoded)
        defer { memo.decoded = decoded.values }
        var navigator = Navigator(app: app, state: state, decoded: decoded)
        navigator.now = now
        switch action {
        case .trigger(let route): try trigger(route, &navigator)
        case .back(let screen): try back(screen, &navigator)
        case .selectTab(let tab): try selectTab(tab, &navigator)
        case .openDeepLink(let url): _ = try navigator.openDeepLink(url)
        case .completeEffect(let id, let completion): try completeEffect(id, completion, &navigator)
        case .signal(let signal): try receive(signal, &navigator)
        }
        try navigator.prune()
        try navigator.retryPendingDeepLink()
        var next = navigator.state
        guard next != state else { return Outcome(state: state, transitions: [], changed: false) }
        next.revision = state.revision + 1
        return Outcome(state: next, transitions: navigator.transitions, changed: true, effects: navigator.requested)
    }

    // MARK: Route resolution

    /// Every route the responder chain accepts while `screen` is on top, in chain order.
    public func routes(whenOnTop screen: ScreenInstance, in state: SessionState) -> [RouteSpec] {
        routes(whenOnTop: screen, Navigator(app: app, state: state), reads: nil)
    }

    func routes(whenOnTop screen: ScreenInstance, _ navigator: Navigator, reads: NavigationReads?) -> [RouteSpec] {
        var specs: [RouteSpec] = []
        specs.reserveCapacity(8)
        // One context for the whole chain, acting for each coordinator in turn (a context is a
        // copy of the navigator: one copy, not one per flow).
        var context = NavigationContext(coordinator: screen.coordinator, navigator: navigator, navigationReads: reads)
        for id in navigator.chain(from: screen.coordinator) {
            guard let flow = try? navigator.flow(of: id) else { continue }
            context.coordinator = id
            for spec in flow.availableRoutes(whenOnTop: screen, context) where !specs.contains(where: { $0.name == spec.name }) {
                specs.append(spec)
            }
        }
        return specs
    }

    private func trigger(_ route: RouteRequest, _ navigator: inout Navigator) throws {
        guard let top = navigator.state.navigation.topScreen, top.waitingFor.isEmpty else {
            throw NavigationError.routeUnavailable(route: route.name, available: [])
        }
        var found: (id: String, spec: RouteSpec)?
        // The request as the route reads it when a migration changed it (an old client's).
        var migrated: RouteRequest?
        do {
            // One read-only context for the chain (see `routes(whenOnTop:)`), gone before the
            // handling flow changes the navigator.
            var context = NavigationContext(coordinator: top.coordinator, navigator: navigator)
            let unchanged = app.requestsUnchanged
            for id in navigator.chain(from: top.coordinator) {
                let flow = try navigator.flow(of: id)
                context.coordinator = id
                let available = flow.availableRoutes(whenOnTop: top, context)
                if unchanged {
                    if let spec = available.first(where: { $0.name == route.name }) {
                        found = (id, spec)
                        break
                    }
                } else if let (spec, request) = app.resolve(route, among: available, flow: flow.name) {
                    found = (id, spec)
                    migrated = request
                    break
                }
            }
        }
        if let (id, spec) = found {
            func handle(_ request: RouteRequest) throws {
                let problems = spec.invalidParams(in: request)
                guard problems.isEmpty else { throw NavigationError.invalidParams(problems) }
                // `reduce` drops the navigator if the flow throws.
                try navigator.withMoved(id) { flow, context in try flow.handle(request, on: top, &context) }
            }
            if let migrated { try handle(migrated) } else { try handle(route) }
            return
        }
        throw NavigationError.routeUnavailable(
            route: route.name, available: routes(whenOnTop: top, in: navigator.state).map(\.name))
    }

    // MARK: Signals

    /// Throws ``NavigationError/unknownSignal(_:known:)`` for a signal the app does not declare,
    /// ``NavigationError/invalidParams(_:)`` for missing, ill-typed or undeclared params.
    public func check(_ signal: SignalRequest) throws(NavigationError) {
        guard let spec = app.signals.first(where: { $0.name == signal.name }) else {
            throw .unknownSignal(signal.name, known: app.signals.map(\.name))
        }
        let problems = spec.invalidParams(in: signal)
        guard problems.isEmpty else { throw .invalidParams(problems) }
    }

    /// Checks `signal` against the app's declaration, then hands it to the deepest coordinator
    /// whose flow wants it: on the top screen's chain first, then anywhere in the tree (deepest
    /// first, in tree order).
    private func receive(_ signal: SignalRequest, _ navigator: inout Navigator) throws {
        try check(signal)
        func wants(_ id: String) -> Bool { (try? navigator.flow(of: id))?.signals.contains(signal.name) ?? false }
        var recipient = navigator.state.navigation.topScreen.flatMap { top in navigator.chain(from: top.coordinator).first(where: wants) }
        if recipient == nil {
            var deepest: (id: String, depth: Int)?
            func visit(_ coordinator: Coordinator, _ depth: Int) {
                if depth > (deepest?.depth ?? -1), wants(coordinator.id) { deepest = (coordinator.id, depth) }
                for child in coordinator.children { visit(child, depth + 1) }
            }
            visit(navigator.state.coordinators, 0)
            recipient = deepest?.id
        }
        guard let recipient else { throw NavigationError.signalUnwanted(signal.name) }
        try navigator.withMoved(recipient) { flow, context in try flow.receive(signal, &context) }
    }

    // MARK: Effects

    /// Gives up on a pending effect without telling its flow (whose `complete` threw on its
    /// result): the effect leaves the state and its screen stops waiting, as a new revision, so
    /// a user is never left on a screen that waits for ever. Unchanged if it is not pending.
    package func abandonEffect(_ id: String, in state: SessionState) -> Outcome {
        guard let index = state.effects.firstIndex(where: { $0.id == id }) else {
            return Outcome(state: state, transitions: [], changed: false)
        }
        var next = state
        let effect = next.effects.remove(at: index)
        if let screenID = effect.screen, let location = next.navigation.location(ofScreen: screenID),
            var stack = next.navigation[location], let at = stack.screens.firstIndex(where: { $0.id == screenID })
        {
            stack.screens[at].waitingFor.removeAll { $0 == id }
            next.navigation[location] = stack
        }
        next.revision = state.revision + 1
        return Outcome(state: next, transitions: [], changed: true)
    }

    /// Takes an effect's result back: the effect leaves the state, its screen stops waiting, and
    /// the flow that asked gets the result — unless its coordinator is gone, or its screen is
    /// gone and the flow drops stale results. An effect no longer pending changes nothing.
    private func completeEffect(_ id: String, _ completion: EffectCompletion, _ navigator: inout Navigator) throws {
        guard let index = navigator.state.effects.firstIndex(where: { $0.id == id }) else { return }
        let effect = navigator.state.effects.remove(at: index)
        var screen: ScreenInstance?
        if let screenID = effect.screen, let location = navigator.state.navigation.location(ofScreen: screenID),
            var stack = navigator.state.navigation[location], let at = stack.screens.firstIndex(where: { $0.id == screenID })
        {
            // No transition: a client renders the busy marker from the state.
            stack.screens[at].waitingFor.removeAll { $0 == id }
            navigator.state.navigation[location] = stack
            screen = stack.screens[at]
        }
        guard navigator.state.coordinators.lookup(effect.coordinator, { _ in true }) == true else { return }
        let flow = try navigator.flow(of: effect.coordinator)
        if effect.screen != nil, screen == nil, flow.staleEffects == .drop { return }
        try navigator.withMoved(effect.coordinator) { flow, context in
            try flow.complete(effect, completion, screen: screen, &context)
        }
    }

    // MARK: Back and tabs

    private func back(_ screen: String?, _ navigator: inout Navigator) throws {
        let navigation = navigator.state.navigation
        guard let top = navigation.topScreen else { throw NavigationError.nothingToPop }
        if let screen, screen != top.id { throw NavigationError.staleScreen(requested: screen, top: top.id) }
        let location = navigation.topLocation
        let count = navigation[location]?.screens.count ?? 0
        if count > 1 {
            try navigator.pop(location, keeping: count - 1)
        } else if case .modal(let index) = location {
            try navigator.dismissModals(from: index)
        } else {
            throw NavigationError.nothingToPop
        }
    }

    private func selectTab(_ tab: String, _ navigator: inout Navigator) throws {
        let state = navigator.state
        let navigation = state.navigation
        guard let tabs = navigation.tabs, navigation.modals.isEmpty else {
            let available = navigation.topScreen.map { routes(whenOnTop: $0, in: state).map(\.name) } ?? []
            throw NavigationError.routeUnavailable(route: "tab", available: available)
        }
        guard tabs.tabs.contains(where: { $0.id == tab }) else {
            throw NavigationError.invalidParam("tab", "no tab named '\(tab)'; tabs are \(tabs.tabs.map(\.id).joined(separator: ", "))")
        }
        if tabs.selected == tab {
            try navigator.pop(.tab(tab), keeping: 1)  // tapping the selected tab pops to its root
        } else {
            navigator.selectTab(tab)
        }
    }
}
