/// Where sessions live: load by id, compare-and-set save, delete, expire, publish changes, list
/// a user's sessions.
///
/// Shaped for a networked backend too (Redis): every call names one session or one user, or is
/// a bulk maintenance pass, and no call hands out references into the store.
///
/// - Important: Implementations are safe to call from many threads at once (the API calls them from
///   every epoll loop). There is no global lock: a session is changed by one writer at a time via
///   compare-and-set on `revision`. Stores have no clock; callers pass `now` (unix milliseconds).
public protocol SessionStore: Sendable {
    /// Creates a session unless `maxSessions` sessions are stored.
    ///
    /// At the cap the store first runs an expiry pass (at most every `ttl/100` of the callers'
    /// clock) at `now`, so expired but not yet swept sessions do not block. `now` is passed apart
    /// from `session.lastUsed`, which a caller may set in the past so that a session nobody uses
    /// after creating it expires early.
    /// `journal`, if given, is the session's first journal entry, stored in the same atomic step.
    /// - Throws: `.sessionLimit` at the cap, `.duplicateID` if the id exists (retry with a new id).
    func create(_ session: StoredSession, maxSessions: Int, now: Int64, journal: JournalEntry?) throws

    /// The session, or nil if it is absent or expired (`lastUsed` older than the TTL at `now`).
    func load(id: String, now: Int64) throws -> StoredSession?

    /// `load(id:now:)` with the id's table key already made (`key == SessionKey(id)`): a request
    /// parses its session id once, not once per table it looks in.
    func load(id: String, key: SessionKey, now: Int64) throws -> StoredSession?

    /// Compare-and-set: replaces the session only if its stored revision equals `expectedRevision`.
    ///
    /// `idempotency`, if given, is stored in the same atomic step; it is filed under `session.id`.
    /// Its key must be free: a record with the same key younger than the idempotency TTL (at the
    /// record's `createdAt`) refuses the whole save, so of two requests racing with one key only
    /// one is ever stored and answered. A session keeps at most
    /// `StoreConfiguration.idempotencyRecordsPerSession` records: storing one more drops the oldest.
    /// Their answers are kept newest first while their bytes (``IdempotencyRecord/answerBytes``)
    /// sum to at most `idempotencyBytesPerSession`; older records keep only their fingerprint and
    /// status (``IdempotencyRecord/answerDropped``). After a successful save that changed the revision
    /// (`session.revision != expectedRevision`), `.saved(revision:)` is published to the
    /// subscribers of the id; a save that keeps the revision (e.g. only to store an idempotency
    /// record for a no-op answer) publishes nothing.
    /// `lastUsed` never moves backwards: the stored value becomes the later of the two (so a save
    /// carrying the `lastUsed` it loaded does not undo a `touch` in between).
    /// `journal`, if given, is appended to the session's journal in the same atomic step (so the
    /// journal and the state never disagree, whatever crashes); the journal then keeps at most
    /// `StoreConfiguration.journalEntriesPerSession` entries and
    /// `journalBytesPerSession` bytes, dropping the oldest (the newest always stays).
    /// - Throws: `.conflict(currentRevision:)` on a stale revision, `.notFound` if absent,
    ///   `.idempotencyKeyTaken` if the record's key is in use (checked after the revision).
    func save(_ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?, journal: JournalEntry?) throws

    /// The session's journal entries with a revision of at least `since`, oldest first (empty if
    /// the session is absent or has none).
    func journal(id: String, since: Int) throws -> [JournalEntry]

    /// Moves `lastUsed` forward to `now` without changing the revision (never backwards).
    ///
    /// The API calls it at most every ttl/100 per session, to keep reads cheap.
    /// - Throws: `.notFound` if absent.
    func touch(id: String, now: Int64) throws

    /// Deletes the session and its idempotency records and publishes `.deleted`; with
    /// `expectedRevision`, only if the session is at that revision, checked and deleted in one
    /// atomic step (`DELETE` with `If-Match`: a change made in between is never lost).
    /// - Returns: whether the session existed (and was deleted).
    /// - Throws: `.conflict(currentRevision:)` if it exists at another revision (nothing deleted).
    func delete(id: String, expectedRevision: Int?) throws -> Bool

    /// The record stored for `key` in the session, or nil if absent or older than the idempotency TTL.
    func idempotencyRecord(sessionID: String, key: String, now: Int64) throws -> IdempotencyRecord?

    /// Deletes every session expired at `now` (with their idempotency records) and every
    /// idempotency record older than the idempotency TTL; publishes `.deleted` for each session.
    /// - Returns: the number of sessions deleted.
    func expire(now: Int64) throws -> Int

    /// The number of stored sessions: cheap (a maintained counter, never a scan).
    ///
    /// It includes sessions that expired since the last `expire` pass; with the sweeper running
    /// every `ttl/100` the count is that close to the live count.
    func count(now: Int64) throws -> Int

    /// Readiness: throws `.unavailable` if the backend cannot serve.
    func ping() throws

    /// The ids of the live sessions (not expired at `now`, the rule of `load`) whose stored `user`
    /// equals `user`, at most `limit`, sorted by id; empty for a user with none.
    ///
    /// Every write keeps what it finds exact: a session is listed from its `create` with that
    /// user, and no more once a `save` gives it another user (or none), or it is deleted or
    /// expired; a refused save changes nothing. It blocks (there is no non-blocking form): call
    /// it off the event loops.
    func sessions(ofUser user: String, now: Int64, limit: Int) throws -> [String]

    /// Up to `limit` sessions whose stored state may hold pending effects
    /// (``PendingEffects/mayBePending(_:)``): what a server resumes when it starts.
    func sessionsWithPendingEffects(limit: Int) throws -> [String]

    /// Takes the right to run the effect `key` (`session/effect`) for `leaseMillis`; false if
    /// another instance holds it. Stores of one process take it always.
    func claimEffect(_ key: String, owner: String, leaseMillis: Int64) throws -> Bool

    /// Whether several server instances share this store (then orphaned effects are looked for
    /// from time to time, not only at start).
    var sharedByInstances: Bool { get }

    /// A secret of the deployment: 32 random bytes made on first use and kept with the store, so
    /// every instance sharing it, and every restart, reads the same (the server keys its
    /// idempotency fingerprints with it). A store of one process keeps it as long as it lives.
    /// It blocks: call it off the event loops.
    func deploymentSecret() throws -> [UInt8]

    /// The notifications published by this store.
    var changes: ChangeFeed { get }

    /// Answers of idempotency records this process dropped to keep sessions within
    /// `StoreConfiguration.idempotencyBytesPerSession` (a counter for `/metrics`).
    var idempotencyAnswersDropped: Int { get }

    // MARK: Without blocking
    //
    // The same operations for a caller that must not wait (an event loop): each calls `done`
    // exactly once with the outcome (an error is what the blocking form throws), either before it
    // returns or later. With a `loop`, later means on that loop's thread, in a later round or at
    // the end of this one (a store that commits in batches answers writes once their batch is
    // durable); without one, on any thread. The defaults run the blocking form and call `done`
    // at once: right for stores whose calls never wait on IO (memory).

    /// `create(_:maxSessions:now:journal:)` without blocking.
    func create(
        _ session: StoredSession, maxSessions: Int, now: Int64, journal: JournalEntry?, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<Void, any Error>) -> Void)

    /// `load(id:key:now:)` without blocking.
    func load(
        id: String, key: SessionKey, now: Int64, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<StoredSession?, any Error>) -> Void)

    /// `save(_:expectedRevision:idempotency:journal:)` without blocking.
    func save(
        _ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?, journal: JournalEntry?,
        on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<Void, any Error>) -> Void)

    /// `touch(id:now:)` without blocking.
    func touch(id: String, now: Int64, on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Void, any Error>) -> Void)

    /// `delete(id:expectedRevision:)` without blocking.
    func delete(
        id: String, expectedRevision: Int?, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<Bool, any Error>) -> Void)

    /// `idempotencyRecord(sessionID:key:now:)` without blocking.
    func idempotencyRecord(
        sessionID: String, key: String, now: Int64, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<IdempotencyRecord?, any Error>) -> Void)

    /// `count(now:)` without blocking.
    func count(now: Int64, on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Int, any Error>) -> Void)

    /// `ping()` without blocking.
    func ping(on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Void, any Error>) -> Void)
}

extension SessionStore {
    /// `create(_:maxSessions:now:journal:)` at the session's `lastUsed`, without a journal entry.
    public func create(_ session: StoredSession, maxSessions: Int) throws {
        try create(session, maxSessions: maxSessions, now: session.lastUsed, journal: nil)
    }

    /// `create(_:maxSessions:now:journal:)` without a journal entry.
    public func create(_ session: StoredSession, maxSessions: Int, now: Int64) throws {
        try create(session, maxSessions: maxSessions, now: now, journal: nil)
    }

    /// `save(_:expectedRevision:idempotency:journal:)` without a journal entry.
    public func save(_ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?) throws {
        try save(session, expectedRevision: expectedRevision, idempotency: idempotency, journal: nil)
    }

    /// `delete(id:expectedRevision:)` at whatever revision the session has.
    public func delete(id: String) throws -> Bool {
        try delete(id: id, expectedRevision: nil)
    }

    /// One process owns the store (memory, SQLite): every effect it finds is its own to run.
    public func claimEffect(_ key: String, owner: String, leaseMillis: Int64) throws -> Bool { true }

    /// One process owns the store unless it says otherwise.
    public var sharedByInstances: Bool { false }

    /// 32 bytes from the system's cryptographic random source, for a new deployment secret.
    static func newSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}

/// The non-blocking forms for stores whose calls never wait on IO: the blocking form, then
/// `done` at once, on the calling thread.
extension SessionStore {
    /// Runs the blocking `create` and calls `done` with its outcome.
    public func create(
        _ session: StoredSession, maxSessions: Int, now: Int64, journal: JournalEntry?, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        done(Result { try create(session, maxSessions: maxSessions, now: now, journal: journal) })
    }

    /// Runs the blocking `load` and calls `done` with its outcome.
    public func load(
        id: String, key: SessionKey, now: Int64, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<StoredSession?, any Error>) -> Void
    ) {
        done(Result { try load(id: id, key: key, now: now) })
    }

    /// Runs the blocking `save` and calls `done` with its outcome.
    public func save(
        _ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?, journal: JournalEntry?,
        on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        done(Result { try save(session, expectedRevision: expectedRevision, idempotency: idempotency, journal: journal) })
    }

    /// Runs the blocking `touch` and calls `done` with its outcome.
    public func touch(id: String, now: Int64, on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        done(Result { try touch(id: id, now: now) })
    }

    /// Runs the blocking `delete` and calls `done` with its outcome.
    public func delete(
        id: String, expectedRevision: Int?, on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        done(Result { try delete(id: id, expectedRevision: expectedRevision) })
    }

    /// Runs the blocking `idempotencyRecord` and calls `done` with its outcome.
    public func idempotencyRecord(
        sessionID: String, key: String, now: Int64, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<IdempotencyRecord?, any Error>) -> Void
    ) {
        done(Result { try idempotencyRecord(sessionID: sessionID, key: key, now: now) })
    }

    /// Runs the blocking `count` and calls `done` with its outcome.
    public func count(now: Int64, on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        done(Result { try count(now: now) })
    }

    /// Runs the blocking `ping` and calls `done` with its outcome.
    public func ping(on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        done(Result { try ping() })
    }
}

/// What the stores know of effects (the API's): a stored state that holds pending effects has
/// `marker` in its bytes (the state codec writes the member only when it is not empty), so a
/// store can find such sessions without reading states it does not understand. It is a hint:
/// the API reads the state to see which effects are pending, if any.
public enum PendingEffects {
    /// `"effects":`, as the state codec writes it.
    public static let marker: [UInt8] = Array(#""effects":"#.utf8)

    /// Whether `state` may hold pending effects.
    public static func mayBePending(_ state: [UInt8]) -> Bool {
        guard state.count >= marker.count else { return false }
        var index = 0
        while index + marker.count <= state.count {
            if state[index] == marker[0], state[index..<(index + marker.count)].elementsEqual(marker) { return true }
            index += 1
        }
        return false
    }
}

extension SessionStore {
    /// Stores that key nothing by `SessionKey` need not know it.
    public func load(id: String, key: SessionKey, now: Int64) throws -> StoredSession? {
        try load(id: id, now: now)
    }
}
