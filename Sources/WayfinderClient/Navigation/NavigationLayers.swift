/// What a UI shows for a state, in the shape UI frameworks present it: a base layer (the root
/// stack, or the selected tab's stack with the tab bar) and the modal chain over it, each a
/// stack of screens.
///
/// SwiftUI maps the base layer to a `NavigationStack` (``NavigationLayer/root`` and
/// ``NavigationLayer/path``) and each modal to a `sheet` or `fullScreenCover`; UIKit maps each
/// layer to a `UINavigationController`.
public struct NavigationLayers: Sendable, Hashable {
    /// The base layer first, then each modal over it, bottom to top. Empty only for a state with
    /// no screens.
    public var layers: [NavigationLayer]

    /// The layers of `state`.
    public init(_ state: WireState) {
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
