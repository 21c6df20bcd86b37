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
