/// What is on screen, as a tree: a stack of screens or a tab bar, each with an optional modal over
/// it (modals hang on the root's `modal` chain).
///
/// A node kind this client does not know decodes as ``unknown(kind:)``; ``NavigationLayers``
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
