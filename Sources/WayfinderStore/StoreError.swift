/// Every error a `SessionStore` throws; the API maps each to one HTTP answer.
public enum StoreError: Error, Sendable, Equatable {
    /// `create` refused: `maxSessions` sessions are stored (API: 503 `session_limit`).
    case sessionLimit
    /// `create` refused: a session with this id already exists (API: retry with a fresh id).
    case duplicateID
    /// Compare-and-set failed: the stored revision is `currentRevision` (API: reload, retry or 412).
    case conflict(currentRevision: Int)
    /// The session does not exist (or was deleted or expired).
    case notFound
    /// `save` refused: the session already holds a live idempotency record with this key (API:
    /// look the record up again and replay it, or refuse the reused key).
    case idempotencyKeyTaken
    /// The backend is unreachable or failed (IO error, corrupt row); the message is for logs
    /// (API: 503).
    case unavailable(String)
}
