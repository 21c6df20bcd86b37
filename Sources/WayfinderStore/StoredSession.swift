/// One client session as the store keeps it: identity, credentials, revision and opaque state.
///
/// The store never looks inside `state`: it is the session's JSON, encoded and decoded by the API.
/// That keeps this target free of the navigation core and lets other backends (Redis) store the
/// same record byte for byte.
public struct StoredSession: Sendable, Equatable {
    /// The session id (URL-safe, at least 128 random bits; chosen by the API).
    public var id: String
    /// SHA-256 of the bearer token; the token itself is never stored.
    public var tokenHash: [UInt8]
    /// Incremented by the API on every change; the compare-and-set key of `save`.
    public var revision: Int
    /// The session's state as JSON bytes, opaque to the store.
    public var state: [UInt8]
    /// Unix milliseconds of the last use; a session whose `lastUsed` is older than the TTL expires.
    public var lastUsed: Int64
    /// An opaque key of the verified user the session belongs to, chosen by the API; nil for a
    /// session with no identity. The store never interprets it: it stores it with the session and
    /// finds the user's sessions by it (`SessionStore.sessions(ofUser:now:limit:)`).
    public var user: String?

    /// A session record.
    public init(id: String, tokenHash: [UInt8], revision: Int, state: [UInt8], lastUsed: Int64, user: String? = nil) {
        self.id = id
        self.tokenHash = tokenHash
        self.revision = revision
        self.state = state
        self.lastUsed = lastUsed
        self.user = user
    }
}
