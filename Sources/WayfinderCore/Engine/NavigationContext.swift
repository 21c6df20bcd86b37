/// The navigation operations on behalf of one coordinator, in the engine's untyped terms (screen
/// names, JSON params, flow names): what ``FlowContext`` does for a typed flow, and what the
/// engine uses between flows. XCoordinator's push, present, dismiss, pop, popToRoot, set,
/// select, trigger and the Router's popToModule and setRootModule, recorded as transitions.
struct NavigationContext: Sendable {
    /// The coordinator this context acts for.
    var coordinator: String
    var navigator: Navigator
    /// Set while rendering: notes reads of the navigation (see ``RenderMemo``).
    let navigationReads: NavigationReads?

    init(coordinator: String, navigator: Navigator, navigationReads: NavigationReads? = nil) {
        self.coordinator = coordinator
        self.navigator = navigator
        self.navigationReads = navigationReads
    }

    // MARK: Data

    /// The whole state, read-only (for rendering and decisions).
    var state: SessionState {
        navigationReads?.note()
        return navigator.state
    }

    /// This coordinator's view-model data.
    var data: JSONValue {
        get { navigator.state.coordinators.lookup(coordinator) { $0.data } ?? .null }
        set { navigator.state.coordinators.update(coordinator) { $0.data = newValue } }
    }

    /// The session's context (who the user is, platform, …).
    var context: JSONObject {
        get { navigator.state.context }
        set { navigator.state.context = newValue }
    }

    /// The app's model shared across flows (survives flows finishing).
    var model: JSONObject {
        get { navigator.state.model }
        set { navigator.state.model = newValue }
    }

    /// How this coordinator was placed by its parent.
    var placement: Placement { navigator.state.coordinators.lookup(coordinator) { $0.placement } ?? .push }

    /// The screen on top of everything.
    var topScreen: ScreenInstance? {
        navigationReads?.note()
        return navigator.state.navigation.topScreen
    }

    /// This coordinator's screens, bottom to top, in the stack that holds its top-most screen.
    var ownScreens: [ScreenInstance] {
        navigationReads?.note()
        guard let location = navigator.hostLocation(of: coordinator) else { return [] }
        return navigator.state.navigation[location]?.screens.filter { $0.coordinator == coordinator } ?? []
    }

    /// The id of this coordinator's running child of flow `name`, if any.
    func child(running name: String) -> String? {
        navigator.state.coordinators.lookup(coordinator) { node in node.children.first { $0.flow == name }?.id } ?? nil
    }

    /// The flow a coordinator runs.
    func flowName(of id: String) -> String? { navigator.state.coordinators.lookup(id) { $0.flow } }

    // MARK: Showing screens

    /// Shows this coordinator's first screen where its parent placed it: as the new root
    /// (`setRoot`), as a tab's root, pushed (`push`) or presented (`present`).
    mutating func show(_ name: String, params: JSONObject = [:]) {
        let screen = navigator.makeScreen(name, owner: coordinator, params: params)
        switch placement {
        case .root:
            navigator.setRoot(.stack(Stack(coordinator: coordinator, screens: [screen])))
        case .tab(let id):
            navigator.state.navigation[.tab(id)] = Stack(coordinator: coordinator, screens: [screen])
        case .push:
            navigator.push([screen], onto: navigator.state.navigation.topLocation)
        case .present(let style):
            navigator.present(screen, style: style, owner: coordinator)
        }
    }

    /// Pushes a screen onto the stack holding this coordinator's top-most screen.
    mutating func push(_ name: String, params: JSONObject = [:]) {
        let screen = navigator.makeScreen(name, owner: coordinator, params: params)
        let location = navigator.hostLocation(of: coordinator) ?? navigator.state.navigation.topLocation
        navigator.push([screen], onto: location)
    }

    /// Presents a screen in a new modal over everything.
    mutating func present(_ name: String, params: JSONObject = [:], style: ModalStyle) {
        let screen = navigator.makeScreen(name, owner: coordinator, params: params)
        navigator.present(screen, style: style, owner: coordinator)
    }

    /// Makes this coordinator the root as a tab bar, starting one child flow per tab.
    mutating func showTabs(_ tabs: [TabSpec], selected: String) throws {
        let bar = Tabs(
            coordinator: coordinator, selected: selected,
            tabs: tabs.map { Tab(id: $0.id, title: $0.title, icon: $0.icon, stack: Stack(coordinator: "")) })
        navigator.state.navigation = Navigation(root: .tabs(bar))
        for tab in tabs {
            let child = try navigator.startChild(tab.flow, parent: coordinator, placement: .tab(tab.id), data: .null)
            if var stack = navigator.state.navigation[.tab(tab.id)] {
                stack.coordinator = child
                navigator.state.navigation[.tab(tab.id)] = stack
            }
        }
        navigator.rootReplaced = true
        navigator.record(Transition(.setRoot, navigator.state.navigation.visibleScreens.map(\.id)))
    }

    // MARK: Removing screens

    /// Pops the top screen of this coordinator's stack (not below its first screen's stack root).
    mutating func pop() throws {
        guard let location = navigator.hostLocation(of: coordinator),
            let count = navigator.state.navigation[location]?.screens.count, count > 1
        else { return }
        try dismissModals(above: location)
        try navigator.pop(location, keeping: count - 1)
    }

    /// Pops everything above this coordinator's top-most screen (the Router's `popToModule`):
    /// what a parent does when a pushed child flow finishes.
    mutating func popToOwnTop() throws {
        guard let location = navigator.hostLocation(of: coordinator),
            let stack = navigator.state.navigation[location],
            let index = stack.screens.lastIndex(where: { $0.coordinator == coordinator })
        else { return }
        try dismissModals(above: location)
        try navigator.pop(location, keeping: index + 1)
    }

    /// Pops to the root of this coordinator's stack (`popToRoot`).
    mutating func popToRoot() throws {
        guard let location = navigator.hostLocation(of: coordinator) else { return }
        try dismissModals(above: location)
        try navigator.pop(location, keeping: 1)
    }

    /// Dismisses the top-most modal holding this coordinator's screens, with any above it.
    mutating func dismiss() throws {
        let modals = navigator.state.navigation.modals
        guard let index = modals.lastIndex(where: { modal in
            modal.stack.coordinator == coordinator || modal.stack.screens.contains { $0.coordinator == coordinator }
        }) else { return }
        try navigator.dismissModals(from: index)
    }

    /// Makes this coordinator's own stack exactly its root screen plus `screens`: every modal is
    /// dismissed, its tab selected, the stack popped to its root, then the screens pushed (fresh
    /// ids). What a deep link does; a no-op when nothing changes.
    mutating func reset(pushing screens: [(name: String, params: JSONObject)] = []) throws {
        guard let location = navigator.ownedLocation(of: coordinator) else { return }
        try navigator.dismissModals(from: 0)
        if case .tab(let id) = location { navigator.selectTab(id) }
        try navigator.pop(location, keeping: 1)
        let made = screens.map { navigator.makeScreen($0.name, owner: coordinator, params: $0.params) }
        navigator.push(made, onto: location)
    }

    /// Selects a tab of the tab bar.
    mutating func selectTab(_ id: String) { navigator.selectTab(id) }

    private mutating func dismissModals(above location: StackLocation) throws {
        switch location {
        case .modal(let index): try navigator.dismissModals(from: index + 1)
        case .root, .tab: try navigator.dismissModals(from: 0)
        }
    }

    // MARK: Screens in place

    /// Changes a screen in place (a notice, kept form values); an `update` transition if it changed.
    mutating func updateScreen(_ id: String, _ change: (inout ScreenInstance) -> Void) {
        navigator.updateScreen(id, change)
    }

    // MARK: Children and finishing

    /// Starts a child flow; its first screen goes where `placement` says. Returns its id.
    @discardableResult
    mutating func startChild(_ flow: String, placement: Placement, data: JSONValue = .null) throws -> String {
        try navigator.startChild(flow, parent: coordinator, placement: placement, data: data)
    }

    /// This coordinator is done: it is removed from the tree and its parent's `childDidFinish`
    /// decides what comes next. Do nothing more with this context afterwards.
    mutating func finish(_ result: JSONValue = .null) throws {
        try navigator.finish(coordinator, result: result)
    }

    /// Records an effect this coordinator asks for; `screen` (if any) waits for it.
    mutating func perform(name: String, params: JSONObject, secrets: [String], screen: String?) {
        let id = "e\(navigator.state.nextEffect)"
        navigator.state.nextEffect += 1
        let flow = flowName(of: coordinator) ?? ""
        var stored = params
        for key in secrets { stored.removeValue(forKey: key) }
        let effect = PendingEffect(
            id: id, coordinator: coordinator, flow: flow, screen: screen, name: name, params: stored, secrets: secrets)
        navigator.state.effects.append(effect)
        navigator.requested.append(EffectRequest(effect: effect, params: params))
        // No transition: a client renders the busy marker from the state (and an effect that
        // completes before the answer leaves no trace of it).
        if let screen, let location = navigator.state.navigation.location(ofScreen: screen),
            var stack = navigator.state.navigation[location], let index = stack.screens.firstIndex(where: { $0.id == screen })
        {
            stack.screens[index].waitingFor.append(id)
            navigator.state.navigation[location] = stack
        }
    }

    /// Offers a deep link to a child coordinator (a container forwarding to the right tab).
    mutating func offer(_ link: DeepLink, to child: String) throws -> DeepLinkOutcome {
        try navigator.with(child) { flow, context in try flow.openDeepLink(link, &context) }
    }

    /// Opens a deep link from the root, exactly as `POST /deeplinks` would (composite navigation).
    @discardableResult
    mutating func openDeepLink(_ url: String) throws -> DeepLinkOutcome {
        try navigator.openDeepLink(url)
    }
}
