/// One step of how to animate from the previous state to the new one (an action answer lists
/// them in order).
public struct ScreenTransition: Codable, Sendable, Hashable {
    /// What happened.
    public var op: Operation
    /// `push`/`present`: the new screens; `pop`/`dismiss`: the removed ones; `setRoot`: the new
    /// root's visible screens; `selectTab`: the newly visible top screen; `update`: the screen
    /// re-rendered in place.
    public var screens: [String]
    /// The tab, for `selectTab` only.
    public var tab: String?
    /// Whether to animate.
    public var animated: Bool

    /// A transition as the server would send it.
    public init(_ op: Operation, screens: [String], tab: String? = nil, animated: Bool = true) {
        self.op = op
        self.screens = screens
        self.tab = tab
        self.animated = animated
    }

    /// The kinds of transition.
    public struct Operation: OpenEnumeration {
        /// The raw value.
        public let rawValue: String
        /// Any value, known or not.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Screens pushed onto a stack.
        public static let push: Operation = "push"
        /// Screens popped from a stack.
        public static let pop: Operation = "pop"
        /// A modal presented.
        public static let present: Operation = "present"
        /// A modal dismissed.
        public static let dismiss: Operation = "dismiss"
        /// The root replaced (for example sign-in done: the tabs take over).
        public static let setRoot: Operation = "setRoot"
        /// Another tab selected.
        public static let selectTab: Operation = "selectTab"
        /// A screen re-rendered in place (for example a notice after a short password).
        public static let update: Operation = "update"
    }
}

/// The answer to an action: the state after it and how to animate there.
public struct ActionResult: Sendable, Hashable {
    /// The state after the action.
    public var state: SessionState
    /// How to animate, in order; empty for a success that changed nothing.
    public var transitions: [ScreenTransition]
    /// Whether this is the server's stored first answer to an earlier attempt with the same
    /// `Idempotency-Key` (a retry after a lost answer): the change was applied once, earlier.
    public var replayed: Bool

    /// An answer as the server would send it.
    public init(state: SessionState, transitions: [ScreenTransition], replayed: Bool = false) {
        self.state = state
        self.transitions = transitions
        self.replayed = replayed
    }
}

extension ActionResult: Codable {
    private enum CodingKeys: String, CodingKey { case state, transitions }

    /// Decodes `{"state", "transitions"}` (`replayed` comes from a header, not the body).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        state = try container.decode(SessionState.self, forKey: .state)
        transitions = try container.decode([ScreenTransition].self, forKey: .transitions)
        replayed = false
    }

    /// Encodes `{"state", "transitions"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(transitions, forKey: .transitions)
    }
}
