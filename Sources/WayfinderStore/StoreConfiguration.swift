/// Settings shared by every `SessionStore` implementation.
public struct StoreConfiguration: Sendable, Equatable {
    /// A session idle (by `lastUsed`) for longer than this expires. Default 24 h.
    public var ttlMillis: Int64
    /// Idempotency records older than this are ignored and removed by `expire`. Default 24 h.
    public var idempotencyTTLMillis: Int64
    /// Idempotency records kept per session: storing one more drops the oldest. Default 64.
    ///
    /// Each record holds a whole answer, so without a cap one session could grow its records
    /// without bound for a day by sending a new key with every request.
    public var idempotencyRecordsPerSession: Int
    /// Bytes of answers (bodies and header fields) the idempotency records of one session keep.
    /// Default 1 MiB.
    ///
    /// Storing a record keeps the answers of the newest records while their sum fits; the
    /// older records keep only their fingerprint and status (``IdempotencyRecord/answerDropped``),
    /// so a retry of one is refused, never run twice, and a flood of keys on a large session
    /// keeps at most this many bytes of answers.
    public var idempotencyBytesPerSession: Int
    /// Journal entries kept per session: appending one more drops the oldest. Default 100.
    public var journalEntriesPerSession: Int
    /// Bytes of journal entries kept per session: past it the oldest go (the newest entry always
    /// stays, whatever its size). Default 256 KiB.
    public var journalBytesPerSession: Int

    /// One day in milliseconds: the default TTLs.
    public static let day: Int64 = 24 * 60 * 60 * 1000

    /// TTLs must be positive and the record and journal caps at least 1, the answer budget at
    /// least 0 (smaller values are raised to those).
    public init(
        ttlMillis: Int64 = StoreConfiguration.day, idempotencyTTLMillis: Int64 = StoreConfiguration.day,
        idempotencyRecordsPerSession: Int = 64, journalEntriesPerSession: Int = 100, journalBytesPerSession: Int = 256 * 1024,
        idempotencyBytesPerSession: Int = 1 << 20
    ) {
        self.ttlMillis = max(1, ttlMillis)
        self.idempotencyTTLMillis = max(1, idempotencyTTLMillis)
        self.idempotencyRecordsPerSession = max(1, idempotencyRecordsPerSession)
        self.journalEntriesPerSession = max(1, journalEntriesPerSession)
        self.journalBytesPerSession = max(1, journalBytesPerSession)
        self.idempotencyBytesPerSession = max(0, idempotencyBytesPerSession)
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
