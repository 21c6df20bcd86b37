/// Settings shared by every `SessionStore` implementation.
public struct StoreConfiguration: Sendable, Equatable {
    /// A session idle (by `lastUsed`) for longer than this expires. Default 24 h.
    public var ttlMillis: Int64
    /// Idempotency records older than this are ignored and removed by `expire`. Default 24 h.
    public var idempotencyTTLMillis: Int64

    public static let day: Int64 = 24 * 60 * 60 * 1000

    public init(ttlMillis: Int64 = StoreConfiguration.day, idempotencyTTLMillis: Int64 = StoreConfiguration.day) {
        precondition(ttlMillis > 0 && idempotencyTTLMillis > 0, "TTLs must be positive")
        self.ttlMillis = ttlMillis
        self.idempotencyTTLMillis = idempotencyTTLMillis
    }

    /// True when a session last used at `lastUsed` is expired at `now`.
    @inline(__always)
    func isExpired(lastUsed: Int64, now: Int64) -> Bool {
        lastUsed < now &- ttlMillis
    }

    /// True when an idempotency record created at `createdAt` is expired at `now`.
    @inline(__always)
    func isExpired(createdAt: Int64, now: Int64) -> Bool {
        createdAt < now &- idempotencyTTLMillis
    }

    /// How often (in the callers' clock) a full expiry pass may be run to reclaim room at the cap.
    var reclaimIntervalMillis: Int64 { max(1, ttlMillis / 100) }
}
