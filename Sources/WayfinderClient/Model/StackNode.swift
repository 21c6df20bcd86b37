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
