/// The working copy of a state during one action: applies navigation operations, records their
/// transitions and calls flows back (start, childDidFinish, deep links).
///
/// - Important: it is a value. A throwing action simply drops its navigator, so a refused
///   action leaves the session exactly as it was.
struct Navigator: Sendable {
    let app: Application
    var state: SessionState
    var transitions: [Transition] = []
    /// Set when the window's root was replaced, so a pending deep link is offered again.
    var rootReplaced = false
    /// The context and model as the app's types, for the flows of this action.
    let decoded: DecodedCache
    /// Effects asked for during this action, with their secrets.
    var requested: [EffectRequest] = []
    /// When the action reached the server (``FlowContext/now``).
    var now = Timestamp.zero

    init(app: Application, state: SessionState, decoded: DecodedCache = DecodedCache()) {
        self.app = app
        self.state = state
        self.decoded = decoded
    }

    // MARK: Calling flows

    func flow(of id: String) throws -> any AnyFlow {
        guard let name = state.coordinators.lookup(id, { $0.flow }) else { throw UnknownFlowError(flow: "coordinator \(id)") }
        guard let flow = app.flow(named: name) else { throw UnknownFlowError(flow: name) }
        return flow
    }

    /// Runs `body` with the flow of coordinator `id` and a context acting as that coordinator.
    mutating func with<T>(_ id: String, _ body: (any AnyFlow, inout NavigationContext) throws -> T) throws -> T {
        let flow = try flow(of: id)
        var context = NavigationContext(coordinator: id, navigator: self)
        let result = try body(flow, &context)
        self = context.navigator
        return result
    }

    /// `with` for a caller that drops the navigator when `body` throws (the engine's own calls
    /// for an action): the navigator moves into the context and back instead of being copied,
    /// so the flow's first changes do not copy what the two would otherwise share. After a
    /// throw, this navigator holds whatever the flow had done: the caller must not use it.
    mutating func withMoved<T>(_ id: String, _ body: (any AnyFlow, inout NavigationContext) throws -> T) throws -> T {
        let flow = try flow(of: id)
        var context = NavigationContext(coordinator: id, navigator: Navigator(app: app, state: Self.placeholder, decoded: decoded))
        swap(&self, &context.navigator)
        defer { swap(&self, &context.navigator) }
        return try body(flow, &context)
    }

    /// What a navigator holds while its state is lent to a flow context.
    static let placeholder = SessionState(session: "", context: [:], root: Coordinator(id: "", flow: "", placement: .root))

    // MARK: Ids

    mutating func makeScreen(_ name: String, owner: String, params: JSONObject) -> ScreenInstance {
        defer { state.nextScreen += 1 }
        return ScreenInstance(id: "s\(state.nextScreen)", name: name, coordinator: owner, params: params)
    }

    mutating func makeCoordinatorID() -> String {
        defer { state.nextCoordinator += 1 }
        return "c\(state.nextCoordinator)"
    }

    // MARK: Queries

    /// The stack holding `owner`'s top-most screen: visible path top-down, then hidden tabs.
    func hostLocation(of owner: String) -> StackLocation? {
        state.navigation.allLocations.first { location in
            state.navigation[location]?.screens.contains { $0.coordinator == owner } ?? false
        }
    }

    /// The stack a coordinator created (its root, tab or modal), if any.
    ///
    /// - Important: the root or a tab wins over a modal: a tab's coordinator that presented a
    ///   form also "owns" that modal, but its own stack is the tab (what `reset` rebuilds).
    func ownedLocation(of owner: String) -> StackLocation? {
        let locations = state.navigation.allLocations
        return (locations.filter { !$0.isModal } + locations.filter(\.isModal)).first {
            state.navigation[$0]?.coordinator == owner
        }
    }

    /// The coordinators from `id` up to the root: the responder chain.
    func chain(from id: String) -> [String] {
        var path = state.coordinators.path(to: id)
        path.reverse()  // in place: no second array
        return path
    }

    // MARK: Operations

    mutating func record(_ transition: Transition) { transitions.append(transition) }

    mutating func push(_ screens: [ScreenInstance], onto location: StackLocation) {
        guard !screens.isEmpty, var stack = state.navigation[location] else { return }
        stack.screens.append(contentsOf: screens)
        state.navigation[location] = stack
        record(Transition(.push, screens.map(\.id)))
    }

    mutating func present(_ screen: ScreenInstance, style: ModalStyle, owner: String) {
        state.navigation.modals.append(Modal(style: style, stack: Stack(coordinator: owner, screens: [screen])))
        record(Transition(.present, [screen.id]))
    }

    mutating func setRoot(_ root: RootNode) {
        state.navigation = Navigation(root: root)
        rootReplaced = true
        record(Transition(.setRoot, state.navigation.visibleScreens.map(\.id)))
    }

    /// Removes the screens above index `keep - 1` of a stack (a `pop` naming them).
    mutating func pop(_ location: StackLocation, keeping keep: Int) throws {
        guard var stack = state.navigation[location], stack.screens.count > keep else { return }
        let removed = stack.screens[keep...].map(\.id)
        stack.screens.removeSubrange(keep...)
        state.navigation[location] = stack
        record(Transition(.pop, Array(removed)))
        try prune()
    }

    /// Dismisses the modal at `index` and every modal above it, top first.
    mutating func dismissModals(from index: Int) throws {
        guard index >= 0, index < state.navigation.modals.count else { return }
        while state.navigation.modals.count > index {
            let modal = state.navigation.modals.removeLast()
            record(Transition(.dismiss, modal.stack.screens.map(\.id)))
        }
        try prune()
    }

    mutating func selectTab(_ id: String) {
        guard var tabs = state.navigation.tabs, tabs.selected != id, tabs.tabs.contains(where: { $0.id == id }) else { return }
        tabs.selected = id
        state.navigation.root = .tabs(tabs)
        let top = state.navigation[.tab(id)]?.screens.last.map { [$0.id] } ?? []
        record(Transition(.selectTab, top, tab: id))
    }

    mutating func updateScreen(_ id: String, _ change: (inout ScreenInstance) -> Void) {
        guard let location = state.navigation.location(ofScreen: id), var stack = state.navigation[location],
            let index = stack.screens.firstIndex(where: { $0.id == id })
        else { return }
        let before = stack.screens[index]
        change(&stack.screens[index])
        guard stack.screens[index] != before else { return }
        state.navigation[location] = stack
        record(Transition(.update, [id]))
    }

    /// Removes every screen owned by `owners` (leftovers of a finished coordinator).
    mutating func removeScreens(ownedBy owners: Set<String>) {
        for index in state.navigation.modals.indices.reversed() {
            let stack = state.navigation.modals[index].stack
            if owners.contains(stack.coordinator) || stack.screens.allSatisfy({ owners.contains($0.coordinator) }) {
                state.navigation.modals.remove(at: index)
                record(Transition(.dismiss, stack.screens.map(\.id)))
            }
        }
        for location in state.navigation.allLocations {
            guard var stack = state.navigation[location] else { continue }
            let removed = stack.screens.filter { owners.contains($0.coordinator) }
            guard !removed.isEmpty else { continue }
            stack.screens.removeAll { owners.contains($0.coordinator) }
            state.navigation[location] = stack
            record(Transition(location.isModal ? .dismiss : .pop, removed.map(\.id)))
        }
    }

    // MARK: Lifecycle of coordinators

    mutating func startChild(_ flowName: String, parent: String, placement: Placement, data: JSONValue) throws -> String {
        guard let flow = app.flow(named: flowName) else { throw UnknownFlowError(flow: flowName) }
        let id = makeCoordinatorID()
        let node = Coordinator(id: id, flow: flow.name, placement: placement, data: data)
        state.coordinators.update(parent) { $0.children.append(node) }
        try with(id) { flow, context in try flow.start(&context) }
        return id
    }

    /// The coordinator `id` finished itself: remove it, tell its parent, clear what it left.
    mutating func finish(_ id: String, result: JSONValue) throws {
        let path = state.coordinators.path(to: id)
        guard path.count >= 2, let removed = state.coordinators.remove(id) else { return }
        let child = FinishedChild(id: id, flow: removed.flow, reason: .finished(result))
        try with(path[path.count - 2]) { flow, context in try flow.childDidFinish(child, &context) }
        removeScreens(ownedBy: Set(removed.subtreeIDs))
        try prune()
    }

    /// Removes coordinators (not containers) none of whose subtree owns a screen any more —
    /// "exactly as if it had finished itself" — deepest first, telling each parent.
    mutating func prune() throws {
        while true {
            // An array, not a set: a session has a handful of owners, and comparing short ids
            // costs less than hashing them.
            var owners: [String] = []
            owners.reserveCapacity(16)
            for location in state.navigation.allLocations {
                guard let screens = state.navigation[location]?.screens else { continue }
                for index in screens.indices where !owners.contains(screens[index].coordinator) {
                    owners.append(screens[index].coordinator)
                }
            }
            guard let orphan = state.coordinators.children.withUnsafeBufferPointer({ firstOrphan(among: $0, owners: owners).orphan })
            else { return }
            let path = state.coordinators.path(to: orphan.id)
            _ = state.coordinators.remove(orphan.id)
            let child = FinishedChild(id: orphan.id, flow: orphan.flow, reason: .removed)
            try with(path[path.count - 2]) { flow, context in try flow.childDidFinish(child, &context) }
        }
    }

    /// The first coordinator under the root, in post-order (children before parents), that is
    /// not a container and owns no screen in its subtree, and whether any of `nodes`' subtrees
    /// owns a screen; one walk of the tree, through pointers to the nodes (no node is copied:
    /// see `Coordinator.lookup`).
    private func firstOrphan(
        among nodes: UnsafeBufferPointer<Coordinator>, owners: [String]
    ) -> (orphan: (id: String, flow: String)?, ownsScreens: Bool) {
        guard let base = nodes.baseAddress else { return (nil, false) }
        var anyOwns = false
        for index in 0..<nodes.count {
            let node = base + index
            let below = node.pointee.children.withUnsafeBufferPointer { firstOrphan(among: $0, owners: owners) }
            if let orphan = below.orphan { return (orphan, false) }
            let owns = below.ownsScreens || owners.contains(node.pointee.id)
            if !owns, !(app.flow(named: node.pointee.flow)?.isContainer ?? false) {
                return ((node.pointee.id, node.pointee.flow), false)
            }
            anyOwns = anyOwns || owns
        }
        return (nil, anyOwns)
    }

    // MARK: Deep links

    /// Offers a deep link to the application coordinator; keeps it pending if deferred.
    mutating func openDeepLink(_ url: String) throws -> DeepLinkOutcome {
        guard let link = app.match(deepLink: url) else { throw NavigationError.unknownDeepLink(url) }
        let outcome = try with(state.coordinators.id) { flow, context in try flow.openDeepLink(link, &context) }
        switch outcome {
        case .deferred: state.pendingDeepLink = url
        case .declined: throw NavigationError.unknownDeepLink(url)
        case .opened, .ignored: break
        }
        return outcome
    }

    /// After the root changed, a pending link gets another chance (it opens right after sign-in).
    mutating func retryPendingDeepLink() throws {
        while rootReplaced, let pending = state.pendingDeepLink {
            rootReplaced = false
            state.pendingDeepLink = nil
            do {
                if try openDeepLink(pending) == .deferred { return }
            } catch let error as NavigationError {
                // The link went stale while it waited (say its todo was deleted): drop it.
                _ = error
            }
        }
    }
}

extension StackLocation {
    var isModal: Bool { if case .modal = self { true } else { false } }
}
