/// The contract's `State`: what a thin client renders, derived from a ``SessionState`` on
/// every read (nothing of it is stored).
public struct RenderedState: Sendable, Hashable {
    /// The session's id.
    public var session: String
    /// The state's revision (``SessionState/revision``).
    public var revision: Int
    /// The session's context, as clients see it (secret members read `[redacted]`).
    public var context: JSONObject
    /// The coordinator tree, as clients see it.
    public var coordinators: Coordinator
    /// The navigation tree: the root and the modals nested over it.
    public var navigation: RenderedNode
    /// The visible path flattened, bottom to top: the last is on top.
    public var stack: [RenderedScreen]
    /// A deferred deep link (``SessionState/pendingDeepLink``).
    public var pendingDeepLink: String?
}

/// A screen as clients see it.
public struct RenderedScreen: Sendable, Hashable {
    /// The screen instance's id (`s3`).
    public var id: String
    /// The screen's name in its flow.
    public var name: String
    /// The screen's typed values (its case's associated values, `["id": "1"]` for
    /// `todoDetail(id: "1")`), so that a native client can show its own view of it. Never secrets:
    /// a screen cannot hold one.
    public var values: JSONObject = [:]
    /// The title the flow rendered.
    public var title: String
    /// The coordinator that owns it.
    public var coordinator: String
    /// How it came to be shown, derived from its position.
    public var presentation: Presentation
    /// Routes valid if this screen is on top (none while it is busy).
    public var routes: [String]
    /// What it shows, top to bottom.
    public var components: [Component]
    /// The screen waits for an effect it asked for: its routes are blocked until the result.
    public var busy = false
}

/// The contract's `Node`: a stack or a tab bar, each with an optional modal over it.
public indirect enum RenderedNode: Sendable, Hashable {
    /// A stack owned by `coordinator`, bottom to top, and the modal presented over it, if any.
    case stack(coordinator: String, screens: [RenderedScreen], modal: RenderedNode?)
    /// A tab bar owned by `coordinator`, the `selected` tab's id, and the modal over it, if any.
    case tabs(coordinator: String, selected: String, tabs: [RenderedTab], modal: RenderedNode?)

    /// The modal presented over this node, if any.
    public var modal: RenderedNode? {
        switch self {
        case .stack(_, _, let modal), .tabs(_, _, _, let modal): modal
        }
    }
}

/// One tab of a rendered tab bar.
public struct RenderedTab: Sendable, Hashable {
    /// The tab's id.
    public var id: String
    /// The tab bar's label.
    public var title: String
    /// The tab's icon name (see ``TabSpec/icon``).
    public var icon: String
    /// The tab's stack (a `.stack` node; a tab's stack never carries a modal).
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
            session: state.session, revision: state.revision, context: app.secrets.redact(context: state.context), coordinators: state.coordinators,
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
            id: instance.id, name: instance.name, values: instance.params, title: content.title, coordinator: instance.coordinator,
            presentation: presentation, routes: busy ? [] : routes(whenOnTop: instance, navigator, reads: reads).map(\.name),
            components: content.components, busy: busy)
    }
}
