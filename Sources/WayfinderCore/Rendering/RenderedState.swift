/// The contract's `State`: what a thin client renders, derived from a ``SessionState`` on
/// every read (nothing of it is stored).
public struct RenderedState: Sendable, Hashable {
    public var session: String
    public var revision: Int
    public var context: JSONObject
    public var coordinators: Coordinator
    public var navigation: RenderedNode
    /// The visible path flattened, bottom to top: the last is on top.
    public var stack: [RenderedScreen]
    public var pendingDeepLink: String?
}

/// A screen as clients see it.
public struct RenderedScreen: Sendable, Hashable {
    public var id: String
    public var name: String
    public var title: String
    public var coordinator: String
    public var presentation: Presentation
    /// Routes valid if this screen is on top (none while it is busy).
    public var routes: [String]
    public var components: [Component]
    /// The screen waits for an effect it asked for: its routes are blocked until the result.
    public var busy = false
}

/// The contract's `Node`: a stack or a tab bar, each with an optional modal over it.
public indirect enum RenderedNode: Sendable, Hashable {
    case stack(coordinator: String, screens: [RenderedScreen], modal: RenderedNode?)
    case tabs(coordinator: String, selected: String, tabs: [RenderedTab], modal: RenderedNode?)

    public var modal: RenderedNode? {
        switch self {
        case .stack(_, _, let modal), .tabs(_, _, _, let modal): modal
        }
    }
}

public struct RenderedTab: Sendable, Hashable {
    public var id: String
    public var title: String
    public var icon: String
    public var root: RenderedNode
}

extension Engine {
    /// Renders the contract's `State` for a session state, for a client that renders `client`
    /// (nil: everything).
    public func render(_ state: SessionState, for client: ClientComponents? = nil) -> RenderedState {
        let adapting = client.flatMap { $0.rendersEverything ? nil : $0 }
        let navigator = Navigator(app: app, state: state)
        let navigation = state.navigation
        var rendered: [String: RenderedScreen] = [:]

        func screen(_ instance: ScreenInstance, _ presentation: Presentation) -> RenderedScreen {
            if let done = rendered[instance.id] { return done }
            let result = renderScreen(instance, presentation, navigator, reads: nil, for: adapting)
            rendered[instance.id] = result
            return result
        }

        func stack(_ location: StackLocation) -> [RenderedScreen] {
            (navigation[location]?.screens ?? []).enumerated().map { index, instance in
                screen(instance, navigation.presentation(at: location, index: index))
            }
        }

        // The modal chain, innermost last.
        var modal: RenderedNode? = nil
        for index in navigation.modals.indices.reversed() {
            modal = .stack(coordinator: navigation.modals[index].stack.coordinator, screens: stack(.modal(index)), modal: modal)
        }
        let node: RenderedNode
        switch navigation.root {
        case .stack(let root):
            node = .stack(coordinator: root.coordinator, screens: stack(.root), modal: modal)
        case .tabs(let tabs):
            let renderedTabs = tabs.tabs.map { tab in
                RenderedTab(
                    id: tab.id, title: tab.title, icon: tab.icon,
                    root: .stack(coordinator: tab.stack.coordinator, screens: stack(.tab(tab.id)), modal: nil))
            }
            node = .tabs(coordinator: tabs.coordinator, selected: tabs.selected, tabs: renderedTabs, modal: modal)
        }
        let visible = navigation.visibleScreens.compactMap { rendered[$0.id] }
        return RenderedState(
            session: state.session, revision: state.revision, context: state.context, coordinators: state.coordinators,
            navigation: node, stack: visible, pendingDeepLink: state.pendingDeepLink)
    }
}

extension Engine {
    /// One screen as clients see it: the owning flow's content and the routes valid with it on top.
    /// With `client` (one that does not render everything), components it cannot render are
    /// replaced by their fallbacks, or the screen by the update-required screen.
    func renderScreen(
        _ instance: ScreenInstance, _ presentation: Presentation, _ navigator: Navigator, reads: NavigationReads?,
        for client: ClientComponents? = nil
    ) -> RenderedScreen {
        let context = NavigationContext(coordinator: instance.coordinator, navigator: navigator, navigationReads: reads)
        let flow = try? navigator.flow(of: instance.coordinator)
        var content = flow?.render(instance, context) ?? ScreenContent(title: instance.name, components: [])
        if let client {
            content = content.adapted(for: client) { component in flow?.fallback(for: component, on: instance, context) ?? .generic }
                ?? app.updateRequired
        }
        let busy = !instance.waitingFor.isEmpty
        return RenderedScreen(
            id: instance.id, name: instance.name, title: content.title, coordinator: instance.coordinator,
            presentation: presentation, routes: busy ? [] : routes(whenOnTop: instance, navigator, reads: reads).map(\.name),
            components: content.components, busy: busy)
    }
}
