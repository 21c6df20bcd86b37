/// A stack of screens owned by one coordinator (the one that created it).
public struct Stack: Sendable, Hashable, Codable {
    /// The coordinator that created the stack.
    public var coordinator: String
    /// Bottom to top: the last is on top.
    public var screens: [ScreenInstance]

    /// A stack of `screens` owned by `coordinator`.
    public init(coordinator: String, screens: [ScreenInstance] = []) {
        self.coordinator = coordinator
        self.screens = screens
    }
}

/// One tab of a tab bar, with its own stack (kept while another tab is selected).
public struct Tab: Sendable, Hashable, Codable {
    /// The id of the tab's ``TabSpec``.
    public var id: String
    /// The tab bar's label.
    public var title: String
    /// The tab's icon name (see ``TabSpec/icon``).
    public var icon: String
    /// The tab's own stack.
    public var stack: Stack
}

/// A tab bar owned by a container coordinator.
public struct Tabs: Sendable, Hashable, Codable {
    /// The container coordinator that shows the tab bar.
    public var coordinator: String
    /// The id of the tab on screen.
    public var selected: String
    /// The tabs, in the bar's order.
    public var tabs: [Tab]

    var selectedIndex: Int { tabs.firstIndex { $0.id == selected } ?? 0 }
}

/// A modal: a stack presented over everything below it.
public struct Modal: Sendable, Hashable, Codable {
    /// How the modal covers what is below it.
    public var style: ModalStyle
    /// The modal's screens.
    public var stack: Stack
}

/// The base of the window: one stack, or a tab bar.
public enum RootNode: Sendable, Hashable, Codable {
    /// A single stack.
    case stack(Stack)
    /// A tab bar, each tab with its own stack.
    case tabs(Tabs)
}

/// Where a stack lives in the navigation tree.
public enum StackLocation: Sendable, Hashable {
    /// The root stack (when the root is not a tab bar).
    case root
    /// The stack of the tab with this id.
    case tab(String)
    /// The stack of the modal at this index in ``Navigation/modals``, 0 the lowest.
    case modal(Int)
}

/// What is on screen: a root (stack or tabs) and the modal chain over it, bottom to top.
///
/// - Important: modals cover the whole window, so they hang on the root's chain; a tab's stack
///   never carries a modal. The contract's nested `Node` JSON is produced from this when rendering.
public struct Navigation: Sendable, Hashable, Codable {
    /// The base of the window.
    public var root: RootNode
    /// The modal chain over the root, bottom to top.
    public var modals: [Modal]

    /// A navigation tree; the engine builds it as flows show screens.
    public init(root: RootNode, modals: [Modal] = []) {
        self.root = root
        self.modals = modals
    }

    /// Nothing yet (before the application coordinator starts).
    public static let empty = Navigation(root: .stack(Stack(coordinator: "")))

    /// The stack at the base of the visible path: the root stack or the selected tab's.
    public var baseLocation: StackLocation {
        switch root {
        case .stack: .root
        case .tabs(let tabs): .tab(tabs.selected)
        }
    }

    /// The stack whose top screen is on top of everything.
    public var topLocation: StackLocation { modals.isEmpty ? baseLocation : .modal(modals.count - 1) }

    /// Every stack, hidden tabs included: the visible path first (top down), then hidden tabs.
    public var allLocations: [StackLocation] {
        var locations: [StackLocation] = []
        var count = modals.count + 1
        if case .tabs(let tabs) = root { count += tabs.tabs.count }
        locations.reserveCapacity(count)
        for index in modals.indices.reversed() { locations.append(.modal(index)) }
        locations.append(baseLocation)
        if case .tabs(let tabs) = root {
            for tab in tabs.tabs where tab.id != tabs.selected { locations.append(.tab(tab.id)) }
        }
        return locations
    }

    /// The stack at `location`; nil where there is none (a tab the bar does not have). Setting
    /// nil, or setting a location that does not exist, changes nothing.
    public subscript(location: StackLocation) -> Stack? {
        get {
            switch (location, root) {
            case (.root, .stack(let stack)): return stack
            case (.tab(let id), .tabs(let tabs)): return tabs.tabs.first { $0.id == id }?.stack
            case (.modal(let index), _): return modals.indices.contains(index) ? modals[index].stack : nil
            default: return nil
            }
        }
        set {
            guard let newValue else { return }
            switch (location, root) {
            case (.root, .stack): root = .stack(newValue)
            case (.tab(let id), .tabs(var tabs)):
                if let index = tabs.tabs.firstIndex(where: { $0.id == id }) {
                    tabs.tabs[index].stack = newValue
                    root = .tabs(tabs)
                }
            case (.modal(let index), _): if modals.indices.contains(index) { modals[index].stack = newValue }
            default: break
            }
        }
    }

    /// The visible path, bottom to top: the base stack's screens then each modal's.
    public var visibleScreens: [ScreenInstance] {
        var screens = self[baseLocation]?.screens ?? []
        for modal in modals { screens.append(contentsOf: modal.stack.screens) }
        return screens
    }

    /// The screen on top of everything: the one the user sees and whose routes are offered.
    public var topScreen: ScreenInstance? { self[topLocation]?.screens.last }

    /// Every screen in the tree, hidden tabs included.
    public var allScreens: [ScreenInstance] { allLocations.flatMap { self[$0]?.screens ?? [] } }

    /// Where the screen with this id is, if anywhere.
    public func location(ofScreen id: String) -> StackLocation? {
        allLocations.first { self[$0]?.screens.contains { $0.id == id } ?? false }
    }

    /// The presentation of the screen at `index` in the stack at `location` (by position).
    public func presentation(at location: StackLocation, index: Int) -> Presentation {
        guard index == 0 else { return .push }
        if case .modal(let m) = location { return modals[m].style.presentation }
        return .root
    }

    /// The tab bar at the root, if the root is one.
    public var tabs: Tabs? { if case .tabs(let tabs) = root { tabs } else { nil } }
}
