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
    /// The visible screens, bottom to top (the last one is on top).
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
