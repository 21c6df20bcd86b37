/// A stack of screens owned by one coordinator (the one that created it).
public struct Stack: Sendable, Hashable, Codable {
    public var coordinator: String
    public var screens: [ScreenInstance]

    public init(coordinator: String, screens: [ScreenInstance] = []) {
        self.coordinator = coordinator
        self.screens = screens
    }
}

/// One tab of a tab bar, with its own stack (kept while another tab is selected).
public struct Tab: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    public var icon: String
    public var stack: Stack
}

/// A tab bar owned by a container coordinator.
public struct Tabs: Sendable, Hashable, Codable {
    public var coordinator: String
    public var selected: String
    public var tabs: [Tab]

    var selectedIndex: Int { tabs.firstIndex { $0.id == selected } ?? 0 }
}

/// A modal: a stack presented over everything below it.
public struct Modal: Sendable, Hashable, Codable {
    public var style: ModalStyle
    public var stack: Stack
}

/// The base of the window: one stack, or a tab bar.
public enum RootNode: Sendable, Hashable, Codable {
    case stack(Stack)
    case tabs(Tabs)
}

/// Where a stack lives in the navigation tree.
public enum StackLocation: Sendable, Hashable {
    case root
    case tab(String)
    case modal(Int)
}

/// What is on screen: a root (stack or tabs) and the modal chain over it, bottom to top.
///
/// - Important: modals cover the whole window, so they hang on the root's chain; a tab's stack
///   never carries a modal. The contract's nested `Node` JSON is produced from this when rendering.
public struct Navigation: Sendable, Hashable, Codable {
    public var root: RootNode
    public var modals: [Modal]

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

    public var tabs: Tabs? { if case .tabs(let tabs) = root { tabs } else { nil } }
}
