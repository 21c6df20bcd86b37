/// How a client animates from the previous state to the next, in order.
public struct Transition: Sendable, Hashable, Codable {
    public enum Op: String, Sendable, Hashable, Codable {
        case push, pop, present, dismiss, setRoot, selectTab, update
    }

    public var op: Op
    /// `push`/`present`: the new screens; `pop`/`dismiss`: the removed ones; `setRoot`: the new
    /// root's visible screens; `selectTab`: the newly visible top screen; `update`: the re-rendered one.
    public var screens: [String]
    /// Only `selectTab` names a tab.
    public var tab: String?
    public var animated: Bool

    public init(_ op: Op, _ screens: [String], tab: String? = nil, animated: Bool = true) {
        self.op = op
        self.screens = screens
        self.tab = tab
        self.animated = animated
    }
}
