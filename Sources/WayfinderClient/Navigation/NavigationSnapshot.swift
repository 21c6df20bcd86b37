/// What a UI shows for a state, in the shape UI frameworks present it: a base layer (the root
/// stack, or the selected tab's stack with the tab bar) and the modal chain over it, each a
/// stack of screens.
///
/// SwiftUI maps the base layer to a `NavigationStack` (``NavigationLayer/root`` and
/// ``NavigationLayer/path``) and each modal to a `sheet` or `fullScreenCover`; UIKit maps each
/// layer to a `UINavigationController`.
public struct NavigationSnapshot: Sendable, Hashable {
    /// The base layer first, then each modal over it, bottom to top. Empty only for a state with
    /// no screens.
    public var layers: [NavigationLayer]

    /// The layers of `state`.
    public init(_ state: SessionState) {
        var layers: [NavigationLayer] = []
        var node: NavigationNode? = state.navigation
        while let current = node {
            guard let layer = NavigationLayer(current) else { break }
            layers.append(layer)
            node = current.modal
        }
        // A node kind this client does not know: the rest of the flat stack, split where a
        // modal starts.
        let covered = layers.reduce(0) { $0 + $1.screens.count }
        if covered < state.stack.count {
            for screen in state.stack[covered...] {
                if layers.isEmpty || screen.presentation.isModal {
                    layers.append(NavigationLayer(coordinator: screen.coordinator, tabBar: nil, screens: [screen]))
                } else {
                    layers[layers.count - 1].screens.append(screen)
                }
            }
        }
        self.layers = layers
    }

    /// The base layer (root stack or tabs).
    public var base: NavigationLayer? { layers.first }
    /// The modals over the base layer, bottom to top.
    public var modals: ArraySlice<NavigationLayer> { layers.dropFirst() }
    /// The tab bar of the base layer, if it has one.
    public var tabBar: TabBar? { base?.tabBar }
    /// The screen on top: what the user sees and acts on.
    public var top: Screen? { layers.last?.screens.last }
}

/// One stack of screens: the base of the UI or one modal.
public struct NavigationLayer: Sendable, Hashable, Identifiable {
    /// The coordinator that owns the layer's node.
    public var coordinator: String
    /// The tab bar, if this layer is a tab bar (its ``screens`` are the selected tab's).
    public var tabBar: TabBar?
    /// Bottom to top.
    public var screens: [Screen]

    /// A layer of `screens`.
    public init(coordinator: String, tabBar: TabBar?, screens: [Screen]) {
        self.coordinator = coordinator
        self.tabBar = tabBar
        self.screens = screens
    }

    /// The layer a known node shows (nil for an unknown kind or an empty stack).
    init?(_ node: NavigationNode) {
        switch node {
        case .stack(let stack):
            guard !stack.screens.isEmpty else { return nil }
            self.init(coordinator: stack.coordinator, tabBar: nil, screens: stack.screens)
        case .tabs(let tabs):
            guard let selected = tabs.selectedTab, var inner = NavigationLayer(selected.root) else { return nil }
            inner.coordinator = tabs.coordinator
            inner.tabBar = TabBar(tabs)
            self = inner
        case .unknown:
            return nil
        }
    }

    /// Stable while the layer is shown: the id of its first screen (for `sheet(item:)`).
    public var id: String { screens.first?.id ?? coordinator }
    /// The first screen (a stack's root).
    public var root: Screen? { screens.first }
    /// The screens pushed over the root (a `NavigationStack`'s path).
    public var path: ArraySlice<Screen> { screens.dropFirst() }
    /// The top screen.
    public var top: Screen? { screens.last }
    /// How the layer is presented: `root` for the base, `sheet` or `fullScreen` for a modal.
    public var presentation: Presentation { screens.first?.presentation ?? .root }
}

/// A tab bar: its items and which one is selected.
public struct TabBar: Sendable, Hashable {
    /// The `id` of the selected tab.
    public var selected: String
    /// The tabs, in display order.
    public var items: [Item]

    /// The tab bar of a tabs node.
    public init(_ node: TabsNode) {
        selected = node.selected
        items = node.tabs.map { Item(id: $0.id, title: $0.title, icon: $0.icon) }
    }

    /// One tab's label.
    public struct Item: Sendable, Hashable, Identifiable {
        /// What ``WayfinderSession/selectTab(_:ifMatch:idempotencyKey:)`` takes.
        public var id: String
        /// The label.
        public var title: String
        /// A symbol name for the icon.
        public var icon: String
    }
}
