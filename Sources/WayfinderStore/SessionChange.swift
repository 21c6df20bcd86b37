/// What happened to a session, as told to its subscribers.
public enum SessionChange: Sendable, Equatable {
    /// The session was saved and now has `revision`.
    case saved(revision: Int)
    /// The session was deleted or expired; nothing follows.
    case deleted
}
