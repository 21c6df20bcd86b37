/// What is on screen, as a tree: a stack of screens or a tab bar, each with an optional modal over
/// it (modals hang on the root's `modal` chain).
///
/// A node kind this client does not know decodes as ``unknown(kind:)``; ``NavigationSnapshot``
/// then falls back to the state's flat `stack`.
public indirect enum NavigationNode: Codable, Sendable, Hashable {
    /// A stack of screens (the first is its root).
    case stack(StackNode)
    /// A tab bar; each tab has its own node, the selected one is visible.
    case tabs(TabsNode)
    /// A kind this client does not know.
    case unknown(kind: String)

    private enum CodingKeys: String, CodingKey { case kind }

    /// Decodes by `kind`.
    public init(from decoder: any Decoder) throws {
        let kind = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .kind)
        switch kind {
        case "stack": self = .stack(try StackNode(from: decoder))
        case "tabs": self = .tabs(try TabsNode(from: decoder))
        default: self = .unknown(kind: kind)
        }
    }

    /// Encodes with its `kind`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .stack(let node): try node.encode(to: encoder)
        case .tabs(let node): try node.encode(to: encoder)
        case .unknown(let kind):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
        }
    }

    /// The modal presented over this node, if any.
    public var modal: NavigationNode? {
        switch self {
        case .stack(let node): node.modal
        case .tabs(let node): node.modal
        case .unknown: nil
        }
    }

    /// The coordinator that owns this node (nil for an unknown kind).
    public var coordinator: String? {
        switch self {
        case .stack(let node): node.coordinator
        case .tabs(let node): node.coordinator
        case .unknown: nil
        }
    }
}

/// A stack of screens, bottom to top.
public struct StackNode: Codable, Sendable, Hashable {
    /// The coordinator that owns the stack.
    public var coordinator: String
    /// Bottom to top; the first is the root.
    public var screens: [Screen]
    /// A modal presented over the stack.
    public var modal: NavigationNode?

    /// A stack as the server would send it.
    public init(coordinator: String, screens: [Screen], modal: NavigationNode? = nil) {
        self.coordinator = coordinator
        self.screens = screens
        self.modal = modal
    }

    private enum CodingKeys: String, CodingKey { case kind, coordinator, screens, modal }

    /// Decodes the members (any others, `kind` included, are ignored).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        coordinator = try container.decode(String.self, forKey: .coordinator)
        screens = try container.decode([Screen].self, forKey: .screens)
        modal = try container.decodeIfPresent(NavigationNode.self, forKey: .modal)
    }

    /// Encodes `modal` as `null` when absent, as the server does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("stack", forKey: .kind)
        try container.encode(coordinator, forKey: .coordinator)
        try container.encode(screens, forKey: .screens)
        try container.encode(modal, forKey: .modal)
    }
}

/// A tab bar: one node per tab, one of them selected.
public struct TabsNode: Codable, Sendable, Hashable {
    /// The coordinator that owns the tab bar.
    public var coordinator: String
    /// The `id` of the selected tab.
    public var selected: String
    /// The tabs, in display order.
    public var tabs: [NavigationTab]
    /// A modal presented over the tab bar.
    public var modal: NavigationNode?

    /// A tab bar as the server would send it.
    public init(coordinator: String, selected: String, tabs: [NavigationTab], modal: NavigationNode? = nil) {
        self.coordinator = coordinator
        self.selected = selected
        self.tabs = tabs
        self.modal = modal
    }

    private enum CodingKeys: String, CodingKey { case kind, coordinator, selected, tabs, modal }

    /// Decodes the members (any others, `kind` included, are ignored).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        coordinator = try container.decode(String.self, forKey: .coordinator)
        selected = try container.decode(String.self, forKey: .selected)
        tabs = try container.decode([NavigationTab].self, forKey: .tabs)
        modal = try container.decodeIfPresent(NavigationNode.self, forKey: .modal)
    }

    /// Encodes `modal` as `null` when absent, as the server does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("tabs", forKey: .kind)
        try container.encode(coordinator, forKey: .coordinator)
        try container.encode(selected, forKey: .selected)
        try container.encode(tabs, forKey: .tabs)
        try container.encode(modal, forKey: .modal)
    }

    /// The selected tab (nil only if the server named a tab it did not send).
    public var selectedTab: NavigationTab? { tabs.first { $0.id == selected } }
}

/// One tab of a tab bar.
public struct NavigationTab: Codable, Sendable, Hashable, Identifiable {
    /// What ``WayfinderSession/selectTab(_:ifMatch:idempotencyKey:)`` takes (`todos`).
    public var id: String
    /// The tab's label.
    public var title: String
    /// A symbol name for the tab's icon (`checklist`); the client maps it to its own images.
    public var icon: String
    /// The tab's content.
    public var root: NavigationNode

    /// A tab as the server would send it.
    public init(id: String, title: String, icon: String, root: NavigationNode) {
        self.id = id
        self.title = title
        self.icon = icon
        self.root = root
    }
}
