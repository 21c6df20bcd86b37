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
    public var presentation: WirePresentation { screens.first?.presentation ?? .root }
}
