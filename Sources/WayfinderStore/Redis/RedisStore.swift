import CHiredis
import Foundation
import Synchronization

/// A `SessionStore` in Redis — one server (`redis://`) or a Redis Cluster (`redis+cluster://`) —
/// so that several Wayfinder instances serve the same sessions.
///
/// ## Key layout (prefix `wf:` by default; `{id}` is the session's hash tag)
/// | key | type | holds | Redis TTL |
/// |---|---|---|---|
/// | `wf:s:{id}` | hash | `rev`, `token` (SHA-256), `state` (JSON), `used` (unix ms), `user` (if it has one) | session TTL + allowance |
/// | `wf:i:{id}:{key}` | string | one idempotency record (`RedisRecordCoding`) | idempotency TTL + allowance |
/// | `wf:ik:{id}` | sorted set | the session's idempotency keys, scored by `createdAt` | session TTL + allowance |
/// | `wf:live` | sorted set | every session id, scored by `used` | none |
/// | `wf:irec` | sorted set | `{id}\n{key}` of every idempotency record, scored by `createdAt` | none |
/// | `wf:fx` | set | the sessions whose state holds pending effects (field `fx` of the hash) | none |
/// | `wf:w:{id}` | hash | the instances watching the session (`RedisWatches`) | 30 s, renewed |
/// | `wf:claim:{id}/{effect}` | string | the instance running the effect (`claimEffect`) | the lease |
/// | `wf:j:{id}` | list | the session's journal, oldest first: `{revision} {record length} {record}{state}` (the hash's `jb` counts their bytes) | session TTL + allowance |
/// | `wf:u:{user}` | set | the ids of the user's sessions (field `user` of their hashes) | none |
///
/// In a cluster the three indexes are kept per slot: `wf:live:{t}`, `wf:irec:{t}` and `wf:fx:{t}`,
/// where `t` is a tag of that slot (`RedisSlots.slotTags`), so every key a script touches is in
/// one slot and one script updates a session and its index entries together. `count`,
/// `expire` and `sessionsWithPendingEffects` run one script per master over the indexes of the
/// slots it serves.
///
/// A user's set is hashed by the user (`{user}`), so in a cluster it lives in another slot than
/// its sessions and no script can change both. There the set is kept consistent enough instead
/// of exact, and `sessions(ofUser:now:limit:)` makes up the difference: a create with a user, or
/// a save that changes the user, adds the id to the (new) user's set once its script has run,
/// and a delete or an expiry removes the id from its user's set once its script has run (the
/// scripts answer the user). A save does not remove the id from the old user's set: another
/// instance's save changing the user back could land in between, and the id would then be
/// missing from the set of the user the session has. The listing reads the set, then each
/// session's `used` and `user`, keeps those still live with that user, and removes from the set
/// the ids whose session is gone or has another user (reading those once more afterwards and
/// adding back any that a write gave that user meanwhile). So the listing is exact for every
/// write that returned; an id is missing from it only if the `SADD` after a create's or save's
/// script failed (the write then fails `.unavailable`, though its script ran: "the outcome is
/// unknown"). A single Redis keeps the set exact inside the scripts; there the listing's check
/// only collects ids left behind by keys that Redis expired by itself.
///
/// Changes are published on the channel `wf:changes` (`wf:changes:{db}` for a database other than
/// 0, since Redis channels are global) as `{id} saved {rev} {origin}` or `{id} deleted {origin}`;
/// in a cluster a `PUBLISH` reaches every node.
///
/// ## IO
/// Nothing blocks an event loop: a call with a loop (`load(id:key:now:on:_:)` and the other
/// non-blocking forms) sends its command on that loop's own connection to the node serving the
/// session's slot (`RedisLoopClient`, `RedisLink`); the commands of one round go out in one write
/// and the answer comes when the reply arrives through the loop's epoll. Calls without a loop,
/// and the blocking forms (which wait for them), run on the store's own thread
/// (`RedisIOThread`), which also holds the one pub/sub subscription of the process.
///
/// ## Time
/// Stores have no clock: expiry is decided by `lastUsed`/`createdAt` against the callers' `now`,
/// exactly as in the other stores. Redis TTLs only collect garbage a sweeper missed (e.g. every
/// instance stopped); they run `keyExpiryAllowanceMillis` (default 60 s) beyond the configured
/// TTLs, so a difference between the instances' clocks and Redis' clock, or a slow caller, never
/// makes Redis drop a session that is still live by the callers' clock.
///
/// ## Atomicity
/// create, save, touch, delete and expire are Lua scripts (`RedisScript`): each is one atomic step,
/// so a compare-and-set from one instance never loses an update made through another. A save
/// stores its idempotency record and publishes its notification in the same step. At the cap, a
/// single Redis reclaims up to 500 expired sessions inside `create`'s script; a cluster checks
/// the cap against a count of every master plus this instance's creates since, counting again
/// before it refuses (so instances creating at once can pass it by the creates in flight
/// between their counts), and runs an expiry pass to reclaim room.
///
/// ## Durability and failures
/// A change is acknowledged when the master has applied it (in memory; in its append-only file
/// as its `appendfsync` says). With `waitReplicas` n > 0, the writes of each round are followed
/// by `WAIT n`, and a change is acknowledged only once n replicas have it; otherwise the call
/// fails `.unavailable` (it may still have been applied: the outcome is unknown, never wrong).
/// Every Redis failure (refused, reset, no reply within `timeoutMillis`, error reply) is
/// `.unavailable`; connections reconnect by themselves, backing off, when Redis is back.
public final class RedisStore: SessionStore {
    /// The TTLs and limits the store applies.
    public let configuration: StoreConfiguration
    /// The notifications published by this store (changes of sessions this process watches).
    public let changes: ChangeFeed
    /// The server (of a cluster: the first seed) and database the store uses.
    public let endpoint: RedisEndpoint
    /// The pub/sub channel of this store's database.
    public let channel: String
    /// How long Redis keeps keys beyond the configured TTLs (see "Time").
    public let keyExpiryAllowanceMillis: Int64
    /// The start of every key name (`wf:` unless given).
    public let keyPrefix: String
    /// Replicas that must acknowledge each change before it is acknowledged (0: none).
    public let waitReplicas: Int

    let topology: RedisTopology
    let settings: RedisLink.Settings
    let io: RedisIOThread
    let origin: String
    private let subscriber: RedisSubscriber
    private let clients = Mutex<[ObjectIdentifier: RedisLoopClient]>([:])
    let scriptDigests = Mutex<[String?]>(Array(repeating: nil, count: RedisScript.allCases.count))
    /// This store's script sources (`RedisScript.sources`), by `RedisScript.rawValue`.
    let scriptSources: [String]
    /// How many sessions (and records) one script call of `expire` or `create` removes at most.
    let batchLimit = 500
    /// The cluster's session count as last read (value, monotonic ms), and creates since.
    let clusterCount = Mutex<(value: Int?, at: Int64, createdSince: Int)>((nil, .min, 0))
    let refreshing = Atomic<Bool>(false)
    /// Answers the save script dropped for this process (`idempotencyAnswersDropped`).
    let answersDropped = Atomic<Int>(0)
    public var idempotencyAnswersDropped: Int { answersDropped.load(ordering: .relaxed) }
    let reclaimGate: ReclaimGate
    private let watches: RedisWatches

    /// Prepares a store on the Redis server or cluster at `url`; connects lazily, so an
    /// unreachable server is reported by calls, as `.unavailable`, not here. (A cluster's slot
    /// map is asked for here, waiting at most `timeoutMillis`.)
    ///
    /// - Parameters:
    ///   - url: `redis://HOST:PORT[/DB]` or `redis+cluster://HOST:PORT,…` (see `RedisEndpoint`).
    ///   - timeoutMillis: how long a command (or a connect) may go unanswered before its
    ///     connection is dropped and the call fails.
    ///   - keyExpiryAllowanceMillis: how long Redis keeps keys beyond the configured TTLs.
    ///   - keyPrefix: the start of every key and of the channel (several stores can share Redis).
    ///   - waitReplicas: replicas that must acknowledge a change (`WAIT`) before it is acknowledged.
    ///   - waitTimeoutMillis: how long to wait for them (below `timeoutMillis`).
    /// - Throws: `.unavailable` if the URL is not a valid store URL.
    public init(
        url: String,
        configuration: StoreConfiguration = StoreConfiguration(),
        timeoutMillis: Int = 1_000,
        keyExpiryAllowanceMillis: Int64 = 60_000,
        keyPrefix: String = "wf:",
        waitReplicas: Int = 0,
        waitTimeoutMillis: Int = 500
    ) throws {
        let endpoint = try RedisEndpoint(url: url)
        self.endpoint = endpoint
        self.configuration = configuration
        self.keyExpiryAllowanceMillis = max(0, keyExpiryAllowanceMillis)
        self.keyPrefix = keyPrefix
        self.waitReplicas = max(0, waitReplicas)
        self.channel = keyPrefix + (endpoint.database == 0 ? "changes" : "changes:\(endpoint.database)")
        self.origin = UUID().uuidString
        self.reclaimGate = ReclaimGate(intervalMillis: configuration.reclaimIntervalMillis)
        let watches = RedisWatches()
        self.watches = watches
        self.changes = ChangeFeed { watches.watch($0) }
        let resolver = RedisResolver()
        for address in endpoint.addresses { resolver.resolve(address.host) }
        let timeout = max(1, timeoutMillis)
        self.settings = RedisLink.Settings(
            timeoutMillis: timeout, user: endpoint.user, password: endpoint.password, database: endpoint.database,
            waitReplicas: self.waitReplicas, waitTimeoutMillis: min(max(1, waitTimeoutMillis), max(1, timeout - 100)),
            resolver: resolver)
        self.scriptSources = RedisScript.sources(
            RedisScript.Constants(
                prefix: keyPrefix, channel: channel,
                sessionKeyTTL: configuration.ttlMillis &+ self.keyExpiryAllowanceMillis,
                recordKeyTTL: configuration.idempotencyTTLMillis &+ self.keyExpiryAllowanceMillis,
                journalEntries: configuration.journalEntriesPerSession, journalBytes: configuration.journalBytesPerSession,
                recordsKept: configuration.idempotencyRecordsPerSession, answerBytes: configuration.idempotencyBytesPerSession,
                isCluster: endpoint.isCluster))
        self.topology = RedisTopology(seeds: endpoint.addresses, isCluster: endpoint.isCluster)
        self.io = RedisIOThread(name: "wayfinder-redis")
        self.subscriber = RedisSubscriber(
            io: io, topology: topology, settings: settings, channel: channel, origin: origin, feed: changes)
        subscriber.onSubscribed = { watches.catchUp() }
        subscriber.start()
        watches.start(self)
        if endpoint.isCluster { _ = try? blocking { (done: @escaping @Sendable (Result<Void, any Error>) -> Void) in refreshMap(done) } }
    }

    deinit {
        io.stop()
    }

    /// Stops the pub/sub subscription and closes every connection of the store's own thread.
    /// Calls made afterwards fail. Idempotent.
    public func close() {
        io.execute { [weak self] in
            guard let self else { return }
            if let client = clients.withLock({ $0.removeValue(forKey: ObjectIdentifier(io)) }) { client.close() }
        }
        subscriber.stop()
        io.stop()
    }

    /// True while the pub/sub subscription is active, i.e. other instances' changes arrive.
    public var isReceivingChanges: Bool { subscriber.isSubscribed }

    /// Waits at most `timeout` for the pub/sub subscription; true if it is active.
    public func waitUntilReceivingChanges(timeout: Duration) -> Bool {
        subscriber.waitUntilSubscribed(timeout: timeout)
    }

    // MARK: Keys

    func sessionKey(_ id: String) -> String { keyPrefix + "s:{" + id + "}" }
    func keyIndexKey(_ id: String) -> String { keyPrefix + "ik:{" + id + "}" }
    func recordKey(_ id: String, _ key: String) -> String { keyPrefix + "i:{" + id + "}:" + key }
    func userKey(_ user: String) -> String { keyPrefix + "u:{" + user + "}" }

    /// The index keys (sessions by use, records by age, sessions with pending effects) that
    /// hold session `id`'s entries.
    func indexKeys(_ id: String) -> (live: String, records: String, effects: String) {
        guard topology.isCluster else { return (keyPrefix + "live", keyPrefix + "irec", keyPrefix + "fx") }
        let tag = "{" + RedisSlots.slotTags[RedisSlots.slot(session: id)] + "}"
        return (keyPrefix + "live:" + tag, keyPrefix + "irec:" + tag, keyPrefix + "fx:" + tag)
    }

    // MARK: Running commands

    /// Where a command goes: the node serving a session's slot, the slot of a key, or one node.
    enum Target: Sendable {
        case session(String)
        case key(String)
        case node(RedisNodeAddress)
    }

    /// The connections of `loop` (made on first use, closed when the loop stops).
    func client(for loop: any StoreLoop) -> RedisLoopClient {
        let key = ObjectIdentifier(loop)
        if let client = clients.withLock({ $0[key] }) { return client }
        let client = RedisLoopClient(loop: loop, topology: topology, settings: settings) { [weak self] address in
            self?.trouble(at: address)
        }
        clients.withLock { $0[key] = client }
        loop.onStop { [weak self, client] in
            _ = self?.clients.withLock { $0.removeValue(forKey: key) }
            client.close()
        }
        return client
    }

    /// Runs `body` with the client of `loop` at once, or (no loop) on the store's own thread;
    /// `refused` if that thread has stopped.
    func withClient(
        _ loop: (any StoreLoop)?, refused: @escaping @Sendable (StoreError) -> Void,
        _ body: @escaping @Sendable (RedisLoopClient) -> Void
    ) {
        if let loop { return body(client(for: loop)) }
        let accepted = io.execute { [weak self] in
            guard let self else { return refused(.unavailable("redis: the store was released")) }
            body(client(for: io))
        }
        if !accepted { refused(.unavailable("redis \(endpoint): the store is closed")) }
    }

    /// Sends `command` to `target` on `client`.
    func send(_ command: RedisCommand, to target: Target, on client: RedisLoopClient, _ handler: @escaping RedisLoopClient.Handler) {
        switch target {
        case .session(let id): client.send(command, slot: topology.isCluster ? RedisSlots.slot(session: id) : 0, handler)
        case .key(let key): client.send(command, slot: topology.isCluster ? RedisSlots.slot(key.utf8) : 0, handler)
        case .node(let address): client.send(command, to: address, handler)
        }
    }

    /// Runs `script` with `keys` and the arguments `addArguments` appends (after the origin):
    /// `EVALSHA` once its digest is known, else (and after `NOSCRIPT`) `EVAL` with the source.
    /// `size` is about how many bytes the arguments take (so the command grows once).
    func evaluate(
        _ script: RedisScript, keys: [String], to target: Target, on client: RedisLoopClient, writes: Bool = false,
        size: Int = 0, _ addArguments: (inout RedisCommand) -> Void, _ handler: @escaping RedisLoopClient.Handler
    ) {
        let digest = scriptDigests.withLock { $0[script.rawValue] }
        let source = scriptSources[script.rawValue]
        var command = RedisCommand(digest == nil ? "EVAL" : "EVALSHA", capacity: size + 256 + (digest == nil ? source.utf8.count : 0))
        command.add(digest ?? source)
        command.add(keys.count)
        for key in keys { command.add(key) }
        command.add(origin)
        addArguments(&command)
        command.writes = writes
        guard digest != nil else {
            var load = RedisCommand("SCRIPT")
            load.add("LOAD")
            load.add(source)
            send(load, to: target, on: client) { [weak self] result in
                if case .success(let reply) = result, let digest = reply.text {
                    self?.scriptDigests.withLock { $0[script.rawValue] = digest }
                }
            }
            return send(command, to: target, on: client, handler)
        }
        send(command, to: target, on: client) { [weak self] result in
            guard case .success(.error(let message)) = result, message.hasPrefix("NOSCRIPT"), let self else { return handler(result) }
            send(command.replacing(first: 2, with: ["EVAL", source]), to: target, on: client, handler)
        }
    }

    /// The scripts' `fx` argument: "1" if `state` may hold pending effects (`PendingEffects`),
    /// else "0" — found here (glibc's memmem), so Redis does not scan the state in Lua.
    func effectsFlag(_ state: [UInt8]) -> String {
        let marker = PendingEffects.marker
        guard state.count >= marker.count else { return "0" }
        let found = state.withUnsafeBytes { haystack in
            marker.withUnsafeBytes { wf_contains(haystack.baseAddress, haystack.count, $0.baseAddress, $0.count) }
        }
        return found != 0 ? "1" : "0"
    }

    func unexpected(_ reply: RedisValue, _ what: String) -> StoreError {
        if case .error(let message) = reply {
            return .unavailable("redis \(endpoint): \(what) failed: \(message)")
        }
        return .unavailable("redis \(endpoint): unexpected reply to \(what): \(reply)")
    }
}
