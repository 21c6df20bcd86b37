/// How a client animates from the previous state to the next, in order.
public struct Transition: Sendable, Hashable, Codable {
    /// What happened.
    public enum Op: String, Sendable, Hashable, Codable {
        /// Screens were pushed onto a stack.
        case push
        /// Screens were popped from a stack (a hidden tab's too).
        case pop
        /// A modal was presented.
        case present
        /// A modal was dismissed.
        case dismiss
        /// The whole window was replaced (sign-in done, logout, onboarding done).
        case setRoot
        /// Another tab was selected.
        case selectTab
        /// A screen was rendered again in place (a validation notice).
        case update
    }

    /// What happened.
    public var op: Op
    /// `push`/`present`: the new screens; `pop`/`dismiss`: the removed ones; `setRoot`: the new
    /// root's visible screens; `selectTab`: the newly visible top screen; `update`: the re-rendered one.
    public var screens: [String]
    /// Only `selectTab` names a tab.
    public var tab: String?
    /// Whether a client should animate it (every transition the server sends today is).
    public var animated: Bool

    /// A transition; the engine records them as flows change the navigation.
    public init(_ op: Op, _ screens: [String], tab: String? = nil, animated: Bool = true) {
        self.op = op
        self.screens = screens
        self.tab = tab
        self.animated = animated
    }
}
