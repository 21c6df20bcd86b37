import Synchronization

/// A `SessionStore` in process memory: for tests, benchmarks and `--store memory`.
///
/// Sessions are spread over 64 shards by id, each a `Mutex`-guarded dictionary, so threads working
/// on different sessions rarely meet and no lock is global. The number of stored sessions is an
/// `Atomic`, so the cap check at `create` costs one compare-exchange.
///
/// Memory per idle session is the `StoredSession` (id, 32-byte token hash, state bytes, two
/// integers) plus its dictionary slot and an empty idempotency table (no allocation until used):
/// roughly 250 bytes plus the state's JSON.
///
/// The sessions of each user (`StoredSession.user`) are listed in 64 more shards by user, each a
/// `Mutex`-guarded dictionary of id sets, changed while the session's shard is locked (so the
/// index follows a session's writes in their order); a session without a user costs nothing there.
public final class MemoryStore: SessionStore {
    /// The TTLs and limits the store applies.
    public let configuration: StoreConfiguration
    public let changes = ChangeFeed()
    public var idempotencyAnswersDropped: Int { answersDropped.load(ordering: .relaxed) }

    private static let shardCount = 64
    private let shards: [Shard]
    private let userShards: [UserShard]
    private let storedCount = Atomic<Int>(0)
    private let answersDropped = Atomic<Int>(0)
    private let reclaimGate: ReclaimGate

    private let secret = MemoryStore.newSecret()

    /// Made when the store is: it lives as long as the sessions it keys.
    public func deploymentSecret() throws -> [UInt8] { secret }

    /// An empty store (its sessions live as long as the process).
    public init(configuration: StoreConfiguration = StoreConfiguration()) {
        self.configuration = configuration
        self.shards = (0..<Self.shardCount).map { _ in Shard() }
        self.userShards = (0..<Self.shardCount).map { _ in UserShard() }
        self.reclaimGate = ReclaimGate(intervalMillis: configuration.reclaimIntervalMillis)
    }

    public func create(_ session: StoredSession, maxSessions: Int, now: Int64, journal: JournalEntry?) throws {
        if !storedCount.increment(ifBelow: maxSessions) {
            guard reclaimGate.admit(now: now) else { throw StoreError.sessionLimit }
            _ = expire(now: now)
            guard storedCount.increment(ifBelow: maxSessions) else { throw StoreError.sessionLimit }
        }
        let key = SessionKey(session.id)
        let inserted = shard(for: key).entries.withLock { table -> Bool in
            guard table[key] == nil else { return false }
            var entry = Entry(session: session)
            if let journal { append(journal, to: &entry.journal) }
            table[key] = entry
            file(session.id, under: session.user)
            return true
        }
        if !inserted {
            storedCount.subtract(1, ordering: .relaxed)
            throw StoreError.duplicateID
        }
    }

    public func load(id: String, now: Int64) -> StoredSession? {
        load(id: id, key: SessionKey(id), now: now)
    }

    public func load(id: String, key: SessionKey, now: Int64) -> StoredSession? {
        shard(for: key).entries.withLock { table -> StoredSession? in
            guard let session = table[key]?.session,
                !configuration.isExpired(lastUsed: session.lastUsed, now: now)
            else { return nil }
            return session
        }
    }

    public func save(_ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?, journal: JournalEntry?) throws {
        let key = SessionKey(session.id)
        let outcome = shard(for: key).entries.withLock { table -> SaveOutcome in
            // One hash look-up; the entry is then changed in place through its index.
            guard let index = table.index(forKey: key) else { return .notFound }
            let current = table.values[index].session
            guard current.revision == expectedRevision else { return .conflict(current.revision) }
            if let idempotency {
                if let existing = table.values[index].idempotency[idempotency.key],
                    !configuration.isExpired(createdAt: existing.createdAt, now: idempotency.createdAt)
                {
                    return .keyTaken
                }
                table.values[index].idempotency[idempotency.key] = idempotency
                bound(&table.values[index].idempotency, newest: idempotency.key)
            }
            let lastUsed = max(current.lastUsed, session.lastUsed)
            if current.user != session.user {
                unfile(session.id, under: current.user)
                file(session.id, under: session.user)
            }
            table.values[index].session = session
            table.values[index].session.lastUsed = lastUsed
            if let journal { append(journal, to: &table.values[index].journal) }
            return .saved
        }
        switch outcome {
        case .notFound: throw StoreError.notFound
        case .conflict(let current): throw StoreError.conflict(currentRevision: current)
        case .keyTaken: throw StoreError.idempotencyKeyTaken
        case .saved:
            if session.revision != expectedRevision {
                changes.publish(session.id, .saved(revision: session.revision))
            }
        }
    }

    public func journal(id: String, since: Int) -> [JournalEntry] {
        let key = SessionKey(id)
        return shard(for: key).entries.withLock { table in table[key]?.journal?.since(since) ?? [] }
    }

    public func touch(id: String, now: Int64) throws {
        let key = SessionKey(id)
        let found = shard(for: key).entries.withLock { table -> Bool in
            guard let index = table.index(forKey: key) else { return false }
            if table.values[index].session.lastUsed < now { table.values[index].session.lastUsed = now }
            return true
        }
        if !found { throw StoreError.notFound }
    }

    public func delete(id: String, expectedRevision: Int?) throws -> Bool {
        let key = SessionKey(id)
        let outcome = shard(for: key).entries.withLock { table -> SaveOutcome in
            guard let index = table.index(forKey: key) else { return .notFound }
            let current = table.values[index].session.revision
            if let expectedRevision, current != expectedRevision { return .conflict(current) }
            unfile(id, under: table.values[index].session.user)
            table.remove(at: index)
            return .saved
        }
        if case .conflict(let current) = outcome { throw StoreError.conflict(currentRevision: current) }
        let removed = outcome == .saved
        if removed {
            storedCount.subtract(1, ordering: .relaxed)
            changes.publish(id, .deleted)
        }
        return removed
    }

    public func idempotencyRecord(sessionID: String, key: String, now: Int64) -> IdempotencyRecord? {
        let sessionKey = SessionKey(sessionID)
        return shard(for: sessionKey).entries.withLock { table -> IdempotencyRecord? in
            guard let record = table[sessionKey]?.idempotency[key],
                !configuration.isExpired(createdAt: record.createdAt, now: now)
            else { return nil }
            return record
        }
    }

    public func expire(now: Int64) -> Int {
        reclaimGate.noteExpiryPass(now: now)
        var expiredTotal = 0
        for shard in shards {
            let expired = shard.entries.withLock { table -> [String] in
                var expired: [SessionKey] = []
                var withStaleRecords: [SessionKey] = []
                for (key, entry) in table {
                    if configuration.isExpired(lastUsed: entry.session.lastUsed, now: now) {
                        expired.append(key)
                    } else if entry.idempotency.values.contains(where: {
                        configuration.isExpired(createdAt: $0.createdAt, now: now)
                    }) {
                        withStaleRecords.append(key)
                    }
                }
                var ids: [String] = []
                for key in expired {
                    guard let entry = table.removeValue(forKey: key) else { continue }
                    unfile(entry.session.id, under: entry.session.user)
                    ids.append(entry.session.id)
                }
                for key in withStaleRecords {
                    guard let index = table.index(forKey: key) else { continue }
                    table.values[index].idempotency = table.values[index].idempotency.filter {
                        !configuration.isExpired(createdAt: $0.value.createdAt, now: now)
                    }
                }
                return ids
            }
            if expired.isEmpty { continue }
            storedCount.subtract(expired.count, ordering: .relaxed)
            expiredTotal += expired.count
            for id in expired { changes.publish(id, .deleted) }
        }
        return expiredTotal
    }

    public func count(now: Int64) -> Int {
        storedCount.load(ordering: .relaxed)
    }

    public func ping() {}

    public func sessionsWithPendingEffects(limit: Int) -> [String] {
        var found: [String] = []
        for shard in shards where found.count < limit {
            shard.entries.withLock { table in
                for entry in table.values where found.count < limit && PendingEffects.mayBePending(entry.session.state) {
                    found.append(entry.session.id)
                }
            }
        }
        return found
    }

    public func sessions(ofUser user: String, now: Int64, limit: Int) -> [String] {
        guard limit > 0 else { return [] }
        let filed = userShard(for: user).ids.withLock { $0[user] ?? [] }
        // Each id checked against its session (the index may have moved on since: a later write wins).
        let live = filed.filter { id in load(id: id, now: now)?.user == user }
        return Array(live.sorted().prefix(limit))
    }

    // MARK: Internals

    /// Lists session `id` under `user` (nothing for nil); the session's shard is locked.
    private func file(_ id: String, under user: String?) {
        guard let user else { return }
        _ = userShard(for: user).ids.withLock { $0[user, default: []].insert(id) }
    }

    /// Removes session `id` from the list of `user` (nothing for nil); the session's shard is locked.
    private func unfile(_ id: String, under user: String?) {
        guard let user else { return }
        userShard(for: user).ids.withLock { table in
            guard let index = table.index(forKey: user) else { return }
            table.values[index].remove(id)
            if table.values[index].isEmpty { table.remove(at: index) }
        }
    }

    /// One stored session with its idempotency records (an empty dictionary allocates nothing)
    /// and its journal (nil until its first entry).
    private struct Entry {
        var session: StoredSession
        var idempotency: [String: IdempotencyRecord] = [:]
        var journal: JournalLog?
    }

    private func append(_ entry: JournalEntry, to log: inout JournalLog?) {
        var current = log ?? JournalLog()
        log = nil  // one reference while it grows: no copy of the entries
        current.append(entry, maxEntries: configuration.journalEntriesPerSession, maxBytes: configuration.journalBytesPerSession)
        log = current
    }

    private enum SaveOutcome: Equatable {
        case saved, notFound, conflict(Int), keyTaken
    }

    /// Drops the oldest records (by `createdAt`) until at most `limit` are left.
    /// Drops the oldest records past the count cap, then the answers of the oldest past the byte
    /// budget (newest first, `newest` the record just stored; once past it, every older answer
    /// goes). Records of one millisecond count in any order but the newest's.
    private func bound(_ records: inout [String: IdempotencyRecord], newest: String) {
        let newestFirst = records.values.sorted { ($0.key == newest ? 1 : 0, $0.createdAt) > ($1.key == newest ? 1 : 0, $1.createdAt) }
        for record in newestFirst.dropFirst(configuration.idempotencyRecordsPerSession) { records.removeValue(forKey: record.key) }
        var bytes = 0
        for record in newestFirst.prefix(configuration.idempotencyRecordsPerSession) {
            bytes += record.answerBytes
            if bytes > configuration.idempotencyBytesPerSession, !record.answerDropped {
                records[record.key] = record.withoutAnswer
                answersDropped.add(1, ordering: .relaxed)
            }
        }
    }

    private final class Shard: Sendable {
        let entries = Mutex<[SessionKey: Entry]>([:])
    }

    /// The ids of each user's sessions (one shard's users).
    private final class UserShard: Sendable {
        let ids = Mutex<[String: Set<String>]>([:])
    }

    private func userShard(for user: String) -> UserShard {
        userShards[Int(UInt(bitPattern: user.hashValue) % UInt(Self.shardCount))]
    }

    private func shard(for key: SessionKey) -> Shard {
        shards[Int(key.shardHint % UInt(Self.shardCount))]
    }
}
