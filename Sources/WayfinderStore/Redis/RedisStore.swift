import Foundation
import Synchronization

/// A `SessionStore` in Redis, shared by many server instances (`--store redis://HOST:PORT[/DB]`).
///
/// ## Data layout (in the URL's database)
///
/// | key | type | content | Redis TTL |
/// |---|---|---|---|
/// | `wf:s:{id}` | hash | `rev` (decimal), `token` (SHA-256 bytes), `state` (JSON bytes), `used` (unix ms, decimal) | session TTL + allowance, refreshed by create, save, touch |
/// | `wf:ik:{id}` | sorted set | the session's idempotency keys, scored by `createdAt` | same as `wf:s:{id}`, refreshed with it |
/// | `wf:i:{id}:{key}` | string | one `IdempotencyRecord` (`RedisRecordCoding`) | idempotency TTL + allowance |
/// | `wf:live` | sorted set | every stored session id, scored by `used` | none |
/// | `wf:irec` | sorted set | `{id}\n{key}` of every idempotency record, scored by `createdAt` | none |
///
/// Changes are published on the channel `wf:changes` (`wf:changes:{db}` for a database other than
/// 0, since Redis channels are global) as `{id} saved {rev} {origin}` or `{id} deleted {origin}`.
///
/// - `wf:live` makes `count` (`ZCARD`) and the `maxSessions` check of `create` count the sessions
///   of every instance, and lets `expire` find idle sessions by score without a scan.
/// - A session's idempotency keys are listed in `wf:ik:{id}` (not found by `SCAN` over a prefix,
///   which walks the whole keyspace), so `delete` removes exactly its records; `wf:irec` lets
///   `expire` remove records older than the idempotency TTL by score. A record is only served if
///   its key is in `wf:ik:{id}`, so a record orphaned by an expired session hash is never seen.
///
/// ## Time
/// Stores have no clock: expiry is decided by `lastUsed`/`createdAt` against the callers' `now`,
/// exactly as in the other stores. Redis TTLs only collect garbage a sweeper missed (e.g. every
/// instance stopped); they run `keyExpiryAllowanceMillis` (default 60 s) beyond the configured
/// TTLs, so a difference between the instances' clocks and Redis' clock, or a slow caller, never
/// makes Redis drop a session that is still live by the callers' clock. The `ExpirySweeper` passes
/// (`expire`) delete idle sessions and publish `.deleted` for them.
///
/// ## Atomicity
/// create, save, touch, delete and expire are Lua scripts (`RedisScript`): each is one atomic step,
/// so a compare-and-set from one instance never loses an update made through another. A save
/// stores its idempotency record and publishes its notification in the same step. At the cap,
/// `create` reclaims up to 500 expired sessions inside its script (publishing `.deleted` for them):
/// finding them is a range read of `wf:live`, so unlike the other stores no `ReclaimGate` is needed.
///
/// ## Notifications
/// Each change is published into this instance's `changes` synchronously, before the call returns
/// (as the other stores do), and through Redis pub/sub to the other instances, whose
/// `RedisChangeListener` thread feeds their `changes`. An instance skips its own messages.
///
/// ## Failures
/// Every Redis failure (refused, reset, timeout, error reply) is thrown as `.unavailable`. Connect,
/// read and write time out after `timeoutMillis` (1 s), so an outage answers quickly, never hangs.
/// The connection pool and the listener reconnect by themselves when Redis is back; nothing has to
/// be recreated. A save whose reply is lost (Redis died mid-call) throws `.unavailable` although it
/// may have been applied — the outcome is unknown, never wrong.
public final class RedisStore: SessionStore {
    /// The TTLs and limits the store applies.
    public let configuration: StoreConfiguration
    public let changes = ChangeFeed()
    /// The server and database the store uses.
    public let endpoint: RedisEndpoint
    /// The pub/sub channel of this store's database.
    public let channel: String
    /// How long Redis keeps keys beyond the configured TTLs (see "Time").
    public let keyExpiryAllowanceMillis: Int64

    private let pool: RedisPool
    private let listener: RedisChangeListener
    private let origin: String
    private let scriptDigests = Mutex<[String?]>(Array(repeating: nil, count: RedisScript.allCases.count))
    /// How many sessions (and records) one script call of `expire` or `create` removes at most.
    private let batchLimit = 500

    /// Prepares a store on the Redis server at `url`; connects lazily (the first call), so an
    /// unreachable server is reported by calls, as `.unavailable`, not here.
    ///
    /// - Parameters:
    ///   - url: `redis://HOST:PORT[/DB]` (see `RedisEndpoint`).
    ///   - poolSize: connections shared by all threads of this instance.
    ///   - timeoutMillis: connect, read and write timeout of every connection.
    ///   - keyExpiryAllowanceMillis: how long Redis keeps keys beyond the configured TTLs.
    /// - Throws: `.unavailable` if the URL is not a valid `redis://` URL.
    public init(
        url: String,
        configuration: StoreConfiguration = StoreConfiguration(),
        poolSize: Int = 8,
        timeoutMillis: Int = 1_000,
        keyExpiryAllowanceMillis: Int64 = 60_000
    ) throws {
        let endpoint = try RedisEndpoint(url: url)
        self.endpoint = endpoint
        self.configuration = configuration
        self.keyExpiryAllowanceMillis = max(0, keyExpiryAllowanceMillis)
        self.channel = endpoint.database == 0 ? "wf:changes" : "wf:changes:\(endpoint.database)"
        self.origin = UUID().uuidString
        self.pool = RedisPool(endpoint: endpoint, size: max(1, poolSize), timeoutMillis: max(1, timeoutMillis))
        self.listener = RedisChangeListener(endpoint: endpoint, channel: channel, origin: origin, feed: changes)
        listener.start()
    }

    deinit {
        listener.stop(wait: false)
        pool.close()
    }

    /// Stops the pub/sub listener (waiting for its thread) and closes idle connections. Calls made
    /// afterwards still work (opening connections as needed) but other instances' changes are no
    /// longer received. Idempotent.
    public func close() {
        listener.stop(wait: true)
        pool.close()
    }

    /// True while the pub/sub listener is subscribed, i.e. other instances' changes arrive.
    public var isReceivingChanges: Bool { listener.isSubscribed }

    /// Waits at most `timeout` for the pub/sub listener to be subscribed; true if it is.
    public func waitUntilReceivingChanges(timeout: Duration) -> Bool {
        listener.waitUntilSubscribed(timeout: timeout)
    }

    // MARK: SessionStore

    public func create(_ session: StoredSession, maxSessions: Int, now: Int64) throws {
        let reply = try evaluate(.create) { command in
            command.add(session.id)
            command.add(session.revision)
            command.add(session.tokenHash)
            command.add(session.state)
            command.add(session.lastUsed)
            command.add(sessionKeyTTL)
            command.add(maxSessions)
            command.add(now &- configuration.ttlMillis)
            command.add(channel)
            command.add(origin)
            command.add(batchLimit)
        }
        guard case .array(let parts) = reply, let outcome = parts.first?.text else { throw unexpected(reply, "create") }
        for part in parts.dropFirst() {
            if let id = part.text { changes.publish(id, .deleted) }
        }
        switch outcome {
        case "ok": return
        case "dup": throw StoreError.duplicateID
        case "limit": throw StoreError.sessionLimit
        default: throw unexpected(reply, "create")
        }
    }

    public func load(id: String, now: Int64) throws -> StoredSession? {
        var command = RedisCommand("HMGET")
        command.add("wf:s:" + id)
        for field in ["rev", "token", "state", "used"] { command.add(field) }
        let reply = try pool.withConnection(retryOnFreshConnection: true) { try $0.run(command) }
        guard case .array(let fields) = reply, fields.count == 4 else { throw unexpected(reply, "load") }
        if fields[0] == .null { return nil }
        guard let revision = fields[0].integer, let tokenHash = fields[1].bytes, let state = fields[2].bytes,
            let lastUsed = fields[3].integer
        else { throw StoreError.unavailable("redis: corrupt session hash wf:s:\(id)") }
        if configuration.isExpired(lastUsed: Int64(lastUsed), now: now) { return nil }
        return StoredSession(id: id, tokenHash: tokenHash, revision: revision, state: state, lastUsed: Int64(lastUsed))
    }

    public func save(_ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?) throws {
        let reply = try evaluate(.save) { command in
            command.add(session.id)
            command.add(expectedRevision)
            command.add(session.revision)
            command.add(session.tokenHash)
            command.add(session.state)
            command.add(session.lastUsed)
            command.add(sessionKeyTTL)
            command.add(channel)
            command.add(origin)
            if let idempotency {
                command.add(idempotency.key)
                command.add(RedisRecordCoding.encode(idempotency))
                command.add(idempotency.createdAt)
                command.add(recordKeyTTL)
                command.add(idempotency.createdAt &- configuration.idempotencyTTLMillis)
                command.add(configuration.idempotencyRecordsPerSession)
            }
        }
        guard case .array(let parts) = reply, let outcome = parts.first?.text else { throw unexpected(reply, "save") }
        switch outcome {
        case "ok":
            if session.revision != expectedRevision {
                changes.publish(session.id, .saved(revision: session.revision))
            }
        case "notfound":
            throw StoreError.notFound
        case "keytaken":
            throw StoreError.idempotencyKeyTaken
        case "conflict":
            guard parts.count == 2, let current = parts[1].integer else { throw unexpected(reply, "save") }
            throw StoreError.conflict(currentRevision: current)
        default:
            throw unexpected(reply, "save")
        }
    }

    public func touch(id: String, now: Int64) throws {
        let reply = try evaluate(.touch) { command in
            command.add(id)
            command.add(now)
            command.add(sessionKeyTTL)
        }
        switch reply {
        case .integer(1): return
        case .integer(0): throw StoreError.notFound
        default: throw unexpected(reply, "touch")
        }
    }

    public func delete(id: String, expectedRevision: Int?) throws -> Bool {
        let reply = try evaluate(.delete) { command in
            command.add(id)
            command.add(channel)
            command.add(origin)
            if let expectedRevision { command.add(expectedRevision) }
        }
        if case .array(let parts) = reply, parts.count == 2, parts[0].text == "conflict", let current = parts[1].integer {
            throw StoreError.conflict(currentRevision: current)
        }
        guard case .integer(let existed) = reply else { throw unexpected(reply, "delete") }
        if existed == 1 { changes.publish(id, .deleted) }
        return existed == 1
    }

    public func idempotencyRecord(sessionID: String, key: String, now: Int64) throws -> IdempotencyRecord? {
        let reply = try evaluate(.idempotencyRecord, retryOnFreshConnection: true) { command in
            command.add(sessionID)
            command.add(key)
        }
        switch reply {
        case .null:
            return nil
        case .string(let bytes):
            let record = try RedisRecordCoding.decode(bytes, sessionID: sessionID, key: key)
            return configuration.isExpired(createdAt: record.createdAt, now: now) ? nil : record
        default:
            throw unexpected(reply, "idempotencyRecord")
        }
    }

    public func expire(now: Int64) throws -> Int {
        var total = 0
        while true {
            let reply = try evaluate(.expire) { command in
                command.add(now &- configuration.ttlMillis)
                command.add(now &- configuration.idempotencyTTLMillis)
                command.add(batchLimit)
                command.add(channel)
                command.add(origin)
            }
            guard case .array(let parts) = reply, parts.count == 2, case .array(let ids) = parts[0],
                let records = parts[1].integer
            else { throw unexpected(reply, "expire") }
            for id in ids {
                if let id = id.text { changes.publish(id, .deleted) }
            }
            total += ids.count
            if ids.count < batchLimit && records < batchLimit { return total }
        }
    }

    public func count(now: Int64) throws -> Int {
        var command = RedisCommand("ZCARD")
        command.add("wf:live")
        let reply = try pool.withConnection(retryOnFreshConnection: true) { try $0.run(command) }
        guard case .integer(let count) = reply else { throw unexpected(reply, "count") }
        return count
    }

    /// Instances share Redis: one may die with effects in hand.
    public var sharedByInstances: Bool { true }

    public func sessionsWithPendingEffects(limit: Int) throws -> [String] {
        var command = RedisCommand("SRANDMEMBER")
        command.add("wf:fx")
        command.add(limit)
        let reply = try pool.withConnection(retryOnFreshConnection: true) { try $0.run(command) }
        guard case .array(let items) = reply else { throw unexpected(reply, "SRANDMEMBER") }
        return items.compactMap { item in if case .string(let bytes) = item { String(decoding: bytes, as: UTF8.self) } else { nil } }
    }

    /// `SET wf:claim:KEY OWNER NX PX LEASE`: the first instance to ask runs the effect.
    public func claimEffect(_ key: String, owner: String, leaseMillis: Int64) throws -> Bool {
        var command = RedisCommand("SET")
        command.add("wf:claim:" + key)
        command.add(owner)
        command.add("NX")
        command.add("PX")
        command.add(Int(leaseMillis))
        let reply = try pool.withConnection(retryOnFreshConnection: true) { try $0.run(command) }
        return reply == .status("OK")
    }

    public func ping() throws {
        let reply = try pool.withConnection(retryOnFreshConnection: true) { try $0.run(RedisCommand("PING")) }
        guard reply == .status("PONG") else { throw unexpected(reply, "PING") }
    }

    // MARK: Internals

    private var sessionKeyTTL: Int64 { configuration.ttlMillis &+ keyExpiryAllowanceMillis }
    private var recordKeyTTL: Int64 { configuration.idempotencyTTLMillis &+ keyExpiryAllowanceMillis }

    /// Runs `script` with the arguments `addArguments` appends: `EVALSHA`, loading the script
    /// first if this instance has not yet or Redis answers `NOSCRIPT` (it restarted or was flushed).
    private func evaluate(
        _ script: RedisScript, retryOnFreshConnection: Bool = false, _ addArguments: (inout RedisCommand) -> Void
    ) throws -> RedisValue {
        try pool.withConnection(retryOnFreshConnection: retryOnFreshConnection) { connection in
            let known = scriptDigests.withLock { $0[script.rawValue] }
            var command = RedisCommand("EVALSHA")
            command.add(try known ?? load(script, on: connection))
            command.add(0)
            addArguments(&command)
            var reply = try connection.run(command)
            if case .error(let message) = reply, message.hasPrefix("NOSCRIPT") {
                // The digest is the SHA-1 of the source, so the same command works once reloaded.
                _ = try load(script, on: connection)
                reply = try connection.run(command)
            }
            return try Self.checked(reply, script)
        }
    }

    /// `SCRIPT LOAD`s `script` and remembers its digest.
    private func load(_ script: RedisScript, on connection: RedisConnection) throws -> String {
        var load = RedisCommand("SCRIPT")
        load.add("LOAD")
        load.add(script.source)
        let reply = try connection.run(load)
        guard let digest = reply.text else { throw unexpected(reply, "SCRIPT LOAD") }
        scriptDigests.withLock { $0[script.rawValue] = digest }
        return digest
    }

    private static func checked(_ reply: RedisValue, _ script: RedisScript) throws -> RedisValue {
        if case .error(let message) = reply {
            throw StoreError.unavailable("redis: script \(script) failed: \(message)")
        }
        return reply
    }

    private func unexpected(_ reply: RedisValue, _ what: String) -> StoreError {
        if case .error(let message) = reply {
            return .unavailable("redis \(endpoint): \(what) failed: \(message)")
        }
        return .unavailable("redis \(endpoint): unexpected reply to \(what): \(reply)")
    }
}
