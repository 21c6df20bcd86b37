import Synchronization

/// Session rows recently read or written, so loading a hot session costs no SQLite read
/// transaction (its locks, page reads and the cache reset that follows every commit).
///
/// Sound because one process owns the database file (see `SQLiteStore`): every change goes
/// through the store's writer, which updates this cache as it writes (a group that rolls back
/// empties it). The one race is a reader that read a row from SQLite just before a commit and
/// would then put the old row in the cache. An epoch rules it out: every write bumps it *before* touching the cache, and a reader
/// fills the cache only if the epoch it saw before reading SQLite is unchanged (checked under the
/// shard's lock) and the row is not there yet. Bounded: a full shard is cleared (and the epoch
/// bumped, so no fill in flight can land in the emptied shard with an old row).
final class SQLiteRowCache: Sendable {
    private static let shardCount = 32
    private final class Shard: Sendable {
        let rows = Mutex<[SessionKey: StoredSession]>([:])
    }

    private let shards: [Shard]
    private let perShard: Int
    private let epoch = Atomic<UInt64>(0)

    init(capacity: Int) {
        perShard = max(0, capacity / Self.shardCount)
        shards = (0..<Self.shardCount).map { _ in Shard() }
    }

    private func shard(_ key: SessionKey) -> Shard {
        shards[Int(key.shardHint % UInt(Self.shardCount))]
    }

    /// The cached row, if any.
    func get(_ id: String) -> StoredSession? {
        guard perShard > 0 else { return nil }
        let key = SessionKey(id)
        return shard(key).rows.withLock { $0[key] }
    }

    /// Read before reading SQLite; pass to `fill`.
    func currentEpoch() -> UInt64 { epoch.load(ordering: .sequentiallyConsistent) }

    /// Caches a row read from SQLite, unless anything was written since `seen` or the row is
    /// cached already.
    func fill(_ session: StoredSession, seen: UInt64) {
        guard perShard > 0 else { return }
        let limit = perShard
        let key = SessionKey(session.id)
        shard(key).rows.withLock { table in
            guard epoch.load(ordering: .sequentiallyConsistent) == seen, table[key] == nil else { return }
            if table.count >= limit {
                epoch.add(1, ordering: .sequentiallyConsistent)
                table.removeAll(keepingCapacity: true)
            }
            table[key] = session
        }
    }

    /// After a write of `id`: `change` updates the cached row if there is one; a false result
    /// drops it. Call with the writer lock held.
    func wrote(_ id: String, _ change: (inout StoredSession) -> Bool = { _ in false }) {
        epoch.add(1, ordering: .sequentiallyConsistent)
        guard perShard > 0 else { return }
        let key = SessionKey(id)
        shard(key).rows.withLock { table in
            guard let index = table.index(forKey: key) else { return }
            if !change(&table.values[index]) { table.remove(at: index) }
        }
    }

    /// After an insert of a new row (no older version of it can be in flight).
    func created(_ session: StoredSession) {
        epoch.add(1, ordering: .sequentiallyConsistent)
        guard perShard > 0 else { return }
        let limit = perShard
        let key = SessionKey(session.id)
        shard(key).rows.withLock { table in
            if table.count >= limit { table.removeAll(keepingCapacity: true) }
            table[key] = session
        }
    }

    /// After a write that touched rows it does not name (bulk inserts): invalidates fills in flight.
    func wroteMany() {
        epoch.add(1, ordering: .sequentiallyConsistent)
    }

    /// After a rollback of writes this cache already holds: empties it (and invalidates fills in flight).
    func forgetAll() {
        epoch.add(1, ordering: .sequentiallyConsistent)
        for shard in shards {
            shard.rows.withLock { $0.removeAll() }
        }
    }
}
