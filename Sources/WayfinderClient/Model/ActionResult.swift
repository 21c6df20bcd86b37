/// The answer to an action: the state after it and how to animate there.
public struct ActionResult: Sendable, Hashable {
    /// The state after the action.
    public var state: WireState
    /// How to animate, in order; empty for a success that changed nothing.
    public var transitions: [ScreenTransition]
    /// Whether this is the server's stored first answer to an earlier attempt with the same
    /// `Idempotency-Key` (a retry after a lost answer): the change was applied once, earlier.
    public var replayed: Bool

    /// An answer as the server would send it.
    public init(state: WireState, transitions: [ScreenTransition], replayed: Bool = false) {
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
        state = try container.decode(WireState.self, forKey: .state)
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
