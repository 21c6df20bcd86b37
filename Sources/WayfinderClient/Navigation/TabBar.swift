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
