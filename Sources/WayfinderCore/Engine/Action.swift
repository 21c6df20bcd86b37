/// What a client can do to a session (each maps to one endpoint), and what else moves it: an
/// effect's result, a signal from the team's backend.
public enum Action: Sendable, Hashable {
    /// Trigger a route (offered to the responder chain of the top screen).
    case trigger(RouteRequest)
    /// The user went back; with a screen id it acts only if that screen is on top.
    case back(screen: String?)
    /// The user tapped a tab.
    case selectTab(String)
    /// Open a deep link in a running session.
    case openDeepLink(String)
    /// An effect's result came back (from the server's effect runner, never from a client).
    case completeEffect(id: String, EffectCompletion)
    /// A signal from the team's backend (``AppSignal``), for the deepest coordinator that wants it.
    case signal(SignalRequest)
}

/// The result of an action: the next state and how to animate to it.
public struct Outcome: Sendable, Hashable {
    /// The session after the action (the input state itself when nothing changed).
    public var state: SessionState
    /// How a client animates from the old state to `state`, in order; empty when nothing changed.
    public var transitions: [Transition]
    /// Whether anything changed (then `revision` went up by one).
    public var changed: Bool
    /// Effects the action asked for, to run now (they are also in `state.effects`).
    public var effects: [EffectRequest] = []

    /// An outcome; the engine makes them, and tests may compare one with an outcome built by hand.
    public init(state: SessionState, transitions: [Transition], changed: Bool, effects: [EffectRequest] = []) {
        self.state = state
        self.transitions = transitions
        self.changed = changed
        self.effects = effects
    }
}
