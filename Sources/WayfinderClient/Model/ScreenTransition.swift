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
