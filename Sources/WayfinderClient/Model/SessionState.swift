/// A session's whole state as the server sends it: what to render and how it came to be.
///
/// Every answer that carries a state (create, read, every action, every event) carries one of
/// these. Members the client does not know are ignored, so a newer server can add some.
public struct SessionState: Codable, Sendable, Hashable {
    /// The session id.
    public var session: String
    /// 1 for a new session; every change increments it by one (the `ETag` and the event id).
    public var revision: Int
    /// The session's context (the app decides its members; see ``SessionContext``).
    public var context: SessionContext
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
        session: String, revision: Int, context: SessionContext, coordinators: CoordinatorNode,
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

/// The context a session runs in, as the application defines it.
///
/// The members are the application's to choose (the sample app has `onboarded`, `authenticated`,
/// `platform`, `variant` and `user`), so they are kept as JSON with typed accessors for the
/// common ones; an app with other members still decodes.
public struct SessionContext: Codable, Sendable, Hashable {
    /// Every member as sent.
    public var values: [String: JSONValue]

    /// A context with these members.
    public init(_ values: [String: JSONValue] = [:]) { self.values = values }

    /// Decodes any JSON object.
    public init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([String: JSONValue].self)
    }

    /// Encodes the members as an object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }

    /// A member, if present.
    public subscript(key: String) -> JSONValue? { values[key] }
    /// `onboarded`, if the app has it.
    public var onboarded: Bool? { values["onboarded"]?.boolValue }
    /// `authenticated`, if the app has it.
    public var authenticated: Bool? { values["authenticated"]?.boolValue }
    /// `platform`, if the app has it.
    public var platform: String? { values["platform"]?.stringValue }
    /// `variant`, if the app has it.
    public var variant: String? { values["variant"]?.stringValue }
    /// `user` (the signed-in user), if the app has it and someone is signed in.
    public var user: String? { values["user"]?.stringValue }
}

/// A coordinator and its children: the server's coordinator tree, for display and debugging.
public struct CoordinatorNode: Codable, Sendable, Hashable, Identifiable {
    /// Unique within the session (`c3`).
    public var id: String
    /// The flow's name in the catalog (`auth`).
    public var flow: String
    /// The child coordinators, in the order they started.
    public var children: [CoordinatorNode]

    /// A coordinator as the server would send it.
    public init(id: String, flow: String, children: [CoordinatorNode] = []) {
        self.id = id
        self.flow = flow
        self.children = children
    }

    /// The coordinator with this id in the tree, if any.
    public func find(_ id: String) -> CoordinatorNode? {
        if self.id == id { return self }
        for child in children {
            if let found = child.find(id) { return found }
        }
        return nil
    }
}
