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
