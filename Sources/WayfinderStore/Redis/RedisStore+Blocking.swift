import Dispatch
import Synchronization

/// The blocking forms: each runs its non-blocking form on the store's own thread and waits for
/// the answer (every command has its timeout, so the wait ends). For threads that may block:
/// the expiry sweeper, effects, tests. Never call them on the store's own thread (a change feed
/// handler runs there): that is refused, as it could only wait for ever.
extension RedisStore {
    public func create(_ session: StoredSession, maxSessions: Int, now: Int64, journal: JournalEntry?) throws {
        try blocking { done in create(session, maxSessions: maxSessions, now: now, journal: journal, on: nil, done) }
    }

    public func load(id: String, now: Int64) throws -> StoredSession? {
        try blocking { done in load(id: id, key: SessionKey(id), now: now, on: nil, done) }
    }

    public func load(id: String, key: SessionKey, now: Int64) throws -> StoredSession? {
        try blocking { done in load(id: id, key: key, now: now, on: nil, done) }
    }

    public func save(_ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?, journal: JournalEntry?) throws {
        try blocking { done in
            save(session, expectedRevision: expectedRevision, idempotency: idempotency, journal: journal, on: nil, done)
        }
    }

    public func journal(id: String, since: Int) throws -> [JournalEntry] {
        try blocking { done in journal(id: id, since: since, done) }
    }

    public func touch(id: String, now: Int64) throws {
        try blocking { done in touch(id: id, now: now, on: nil, done) }
    }

    public func delete(id: String, expectedRevision: Int?) throws -> Bool {
        try blocking { done in delete(id: id, expectedRevision: expectedRevision, on: nil, done) }
    }

    public func idempotencyRecord(sessionID: String, key: String, now: Int64) throws -> IdempotencyRecord? {
        try blocking { done in idempotencyRecord(sessionID: sessionID, key: key, now: now, on: nil, done) }
    }

    public func expire(now: Int64) throws -> Int {
        try blocking { done in expireAll(now: now, done) }
    }

    public func count(now: Int64) throws -> Int {
        try blocking { done in count(now: now, on: nil, done) }
    }

    public func ping() throws {
        try blocking { done in ping(on: nil, done) }
    }

    /// The user's set, each id checked against its session (see "Key layout" on `RedisStore`).
    public func sessions(ofUser user: String, now: Int64, limit: Int) throws -> [String] {
        guard limit > 0 else { return [] }
        return try blocking { done in userSessions(user, now: now, limit: limit, done) }
    }

    /// Instances share Redis: one may die with effects in hand.
    public var sharedByInstances: Bool { true }

    public func sessionsWithPendingEffects(limit: Int) throws -> [String] {
        try blocking { done in pendingEffects(limit: limit, done) }
    }

    /// `SET … NX PX lease`: the first instance to ask runs the effect.
    public func claimEffect(_ key: String, owner: String, leaseMillis: Int64) throws -> Bool {
        try blocking { done in claim(key, owner: owner, leaseMillis: leaseMillis, done) }
    }

    /// `SET secret:{deployment} <random> NX`, then `GET` it: the first instance to ask makes it.
    public func deploymentSecret() throws -> [UInt8] {
        let key = keyPrefix + "secret:{deployment}"
        func run(_ command: RedisCommand) throws -> RedisValue {
            try blocking { done in
                withClient(nil, refused: { done(.failure($0)) }) { [self] client in
                    send(command, to: .session("deployment"), on: client) { result in done(result.mapError { $0 }) }
                }
            }
        }
        var set = RedisCommand("SET")
        set.add(key)
        set.add(Self.newSecret())
        set.add("NX")
        if case .error = try run(set) { throw StoreError.unavailable("redis \(endpoint): SET of the deployment secret failed") }
        var get = RedisCommand("GET")
        get.add(key)
        guard case .string(let secret) = try run(get), secret.count == 32 else {
            throw StoreError.unavailable("redis \(endpoint): the deployment secret is missing or malformed")
        }
        return secret
    }

    /// Starts an operation with a completion and waits for it.
    func blocking<T: Sendable>(_ start: (@escaping @Sendable (Result<T, any Error>) -> Void) -> Void) throws -> T {
        guard !io.isCurrent else {
            throw StoreError.unavailable("redis: a blocking store call on the store's own thread (use the non-blocking form)")
        }
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let answered = DispatchSemaphore(value: 0)
        start { result in
            outcome.withLock { $0 = $0 ?? result }
            answered.signal()
        }
        // Every command times out by itself; this bound only guards against a lost completion.
        let bound = DispatchTime.now() + .milliseconds(4 * settings.timeoutMillis + 10_000)
        guard answered.wait(timeout: bound) == .success, let result = outcome.withLock({ $0 }) else {
            throw StoreError.unavailable("redis \(endpoint): no answer")
        }
        return try result.get()
    }
}
