/// A session's whole state as the server sends it: what to render and how it came to be.
///
/// Every answer that carries a state (create, read, every action, every event) carries one of
/// these. Members the client does not know are ignored, so a newer server can add some.
public struct WireState: Codable, Sendable, Hashable {
    /// The session id.
    public var session: String
    /// 1 for a new session; every change increments it by one (the `ETag` and the event id).
    public var revision: Int
    /// The session's context (the app decides its members; see ``WireContext``).
    public var context: WireContext
    /// The coordinator tree, root first.
    public var coordinators: CoordinatorNode
    /// What is on screen, as a tree: stacks, tab bars and the modal chain.
    public var navigation: NavigationNode
    /// The visible screens, bottom to top (the last one is on top). In shape 2 the server sends
    /// their ids only; decoding finds each in ``navigation`` (see ``init(from:)``).
    public var stack: [Screen]
    /// A deep link the server keeps until sign-in (or onboarding) completes.
    public var pendingDeepLink: String?

    /// A state as the server would send it (for previews and tests).
    public init(
        session: String, revision: Int, context: WireContext, coordinators: CoordinatorNode,
        navigation: NavigationNode, stack: [Screen], pendingDeepLink: String? = nil
    ) {
        self.session = session
        self.revision = revision
        self.context = context
        self.coordinators = coordinators
        self.navigation = navigation
        self.stack = stack
        self.pendingDeepLink = pendingDeepLink
    }

    /// The screen on top (the one the user sees and acts on).
    public var top: Screen? { stack.last }
}

extension WireState {
    private enum CodingKeys: String, CodingKey { case session, revision, context, coordinators, navigation, stack, pendingDeepLink }

    /// The header this client sends on every request: it reads shape 2, in which `stack` names
    /// the screens of `navigation` by id, so no screen comes twice.
    public static let shapeHeader = (name: "Wayfinder-Shape", value: "2")

    /// Decodes either shape: `stack` as screens (shape 1, what a server older than shapes sends)
    /// or as screen ids (shape 2), each the id of a screen in `navigation`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        session = try container.decode(String.self, forKey: .session)
        revision = try container.decode(Int.self, forKey: .revision)
        context = try container.decode(WireContext.self, forKey: .context)
        coordinators = try container.decode(CoordinatorNode.self, forKey: .coordinators)
        navigation = try container.decode(NavigationNode.self, forKey: .navigation)
        pendingDeepLink = try container.decodeIfPresent(String.self, forKey: .pendingDeepLink)
        if let ids = try? container.decode([String].self, forKey: .stack) {
            var byID: [String: Screen] = [:]
            Self.collect(navigation, into: &byID)
            stack = try ids.map { id in
                guard let screen = byID[id] else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .stack, in: container, debugDescription: "stack names screen \(id), which navigation does not have")
                }
                return screen
            }
        } else {
            stack = try container.decode([Screen].self, forKey: .stack)
        }
    }

    /// Every screen of `node` by id: its stacks', its tabs' and its modals'.
    private static func collect(_ node: NavigationNode, into byID: inout [String: Screen]) {
        switch node {
        case .stack(let stack):
            for screen in stack.screens { byID[screen.id] = screen }
        case .tabs(let tabs):
            for tab in tabs.tabs { collect(tab.root, into: &byID) }
        case .unknown:
            break
        }
        if let modal = node.modal { collect(modal, into: &byID) }
    }
}
