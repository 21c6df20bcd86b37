import WayfinderCore
import WayfinderHTTP

/// Settings of the v1 API (the HTTP limits live in `HTTPServerConfiguration`). Every limit is
/// listed, with its status and problem code, in `docs/limits.md`.
public struct APIConfiguration: Sendable {
    /// Sessions idle for longer expire. Default 24 h.
    public var sessionTTLMillis: Int64 = 24 * 60 * 60 * 1000
    /// A session that gets no request after the one that created it expires after this (if it
    /// is shorter than `sessionTTLMillis`). Default 10 min.
    ///
    /// So a script that creates sessions and never uses them cannot hold the session cap for a
    /// whole TTL: a new session is stored as last used `sessionTTLMillis - unusedSessionTTLMillis`
    /// ago, and its first use moves that forward like any touch.
    public var unusedSessionTTLMillis: Int64 = 10 * 60 * 1000
    /// Sessions at once; more gives `503 session_limit`.
    public var maxSessions = 100_000
    /// Largest stored form of a session (its state as JSON), in bytes: a create or a change that
    /// would make it larger is refused with `422 session_too_large` and nothing is stored.
    /// Default 512 KiB (the sample app at its own limits, 200 to-dos with the longest titles and
    /// descriptions, stays under it).
    public var maxSessionBytes = 512 * 1024
    /// Longest `Idempotency-Key`, in bytes; longer gives `400 idempotency_key_too_long`.
    public var maxIdempotencyKeyBytes = 255
    /// Open event streams per session; one more gives `429 session_stream_limit`.
    public var maxStreamsPerSession = 8
    /// Open event streams in the process; one more gives `503 stream_limit`.
    public var maxStreams = 10_000
    /// Open event streams per client address (an IPv6 address by its /64); one more gives `429
    /// address_stream_limit`. Nil: no per-address limit. Default 256.
    public var maxStreamsPerAddress: Int? = 256
    /// Actions (routes, back, tab, deep links) each session may take per second, on average (a
    /// token bucket of `routeBurst`); past it they answer `429 session_rate_limited` with
    /// `Retry-After`. Nil turns the limit off. Default 100 per second.
    public var routeRatePerSecond: Double? = 100
    /// Actions a session may take at once before `routeRatePerSecond` applies. Default 1,000.
    public var routeBurst = 1000
    /// Sessions each client address may create per second, on average (a token bucket of
    /// `createBurst` tokens); past it `POST /v1/sessions` answers `429 rate_limited` with
    /// `Retry-After`. Nil turns the limit off. Default 2 per second.
    public var createRatePerSecond: Double? = 2
    /// Sessions a client address may create at once before `createRatePerSecond` applies.
    public var createBurst = 60
    /// The request header that names the client's address (for the per-address limits), when the
    /// server runs behind a proxy that sets it; nil: the connection's peer address. A list
    /// (`X-Forwarded-For`) counts by its last element, the one the nearest proxy added. Read only
    /// from peers in `trustedProxies`: from any other peer the header could be anyone's.
    public var clientAddressHeader: String? = nil
    /// The proxies whose `clientAddressHeader` is believed (empty: none is).
    public var trustedProxies: [AddressRange] = []
    /// The thin web client's folder, served at `/`.
    public var publicDirectory: String? = "Public"
    /// The contract, served at `/openapi.yaml` (read once at start).
    public var openAPIDocument: [UInt8] = []
    /// The shortest body compressed for a client that accepts gzip (`Accept-Encoding`). Default
    /// 1024 bytes: a shorter one fits one packet as it is.
    public var gzipMinBytes = 1024
    /// zlib's compression level for gzip, 1 (fastest) to 9 (smallest); 0 never compresses.
    /// Default 1, as nginx's: a to-dos state of 3,940 bytes goes as 934 (843 at 6, zlib's
    /// default) for about half the CPU.
    public var gzipLevel = 1
    /// How often an idle event stream gets a comment line.
    public var heartbeatSeconds: Double = 15
    /// Recently used sessions kept decoded and rendered (0 turns the cache off).
    public var cacheCapacity = 20_000
    /// How long an action that asked for effects waits for them before it is answered: done by
    /// then, their results are in the answer; else the screen shows as busy and the results
    /// come as a later revision.
    public var effectWait: Duration = .seconds(1)
    /// Whether each session's changes are recorded in its journal (`GET …/history`, rewind,
    /// replay bundles). Its bounds are the store's (`StoreConfiguration`). Default on.
    public var journal = true
    /// Every how many revisions a journal entry keeps the session's state (the others are
    /// rebuilt through the engine when a rewind or a bundle needs them). Default 16; the server
    /// lowers it to a quarter of the entries kept, so a small journal stays rewindable.
    public var journalStateInterval = JournalRecord.stateInterval

    /// Who a request's user is (docs/security.md): asked when a session is created and on every
    /// request that names a session. Nil: sessions have no identity.
    public var authenticator: (any Authenticator)? = nil
    /// The key of the operator endpoints (sessions by user, any session's history and bundle,
    /// ending sessions), sent as `Authorization: Bearer <key>` and compared in constant time.
    /// Nil turns those endpoints off (`404`). At least 32 bytes.
    public var operatorKey: String? = nil

    /// The defaults (docs/limits.md and docs/configuration.md give them).
    public init() {}
}
