import Synchronization

/// Session rows recently read or written, so loading a hot session costs no SQLite read
/// transaction (its locks, page reads and the cache reset that follows every commit).
///
/// Sound because one process owns the database file (see `SQLiteStore`): every change goes
/// through the store, which updates this cache as it writes (a group that rolls back empties it).
/// The one race is a reader that read a row from SQLite just before a write and would then put
/// the old row in the cache. An epoch rules it out: every write bumps it *before* touching the
/// cache, and a reader fills the cache only if the epoch it saw before reading SQLite is
/// unchanged (checked under the shard's lock) and the row is not there yet. Bounded: a full shard
/// is cleared (and the epoch bumped, so no fill in flight can land in the emptied shard with an
/// old row) — except its *pinned* rows.
///
/// Deferred writes: the store checks a save's compare-and-set against the cached row and queues
/// the statement for the group's commit (`compareAndSet`, `createPending`). Such a row is the
/// only copy of the session's newest revision until its statement has run and committed, so it
/// is pinned: it carries the sequence number of its last queued statement, and no clear drops it
/// until `markDurable` has passed that number.
///
/// Uncommitted rows: a row is uncommitted while its last queued statement has not committed, or
/// while the group it was written in (directly, or read through the writing connection) has not
/// (`markCommitted`). A reader on an event loop answers such a row only after the commit.
final class SQLiteRowCache: Sendable {
    private static let shardCount = 32

    struct Row: Sendable {
        var session: StoredSession
        /// The sequence number of the last queued statement for this row; 0 if none was queued.
        var pendingSeq: UInt64
        /// The group it was last written or read in through the writing connection; 0 if none.
        var group: UInt64 = 0
    }

    private final class Shard: Sendable {
        let rows = Mutex<[SessionKey: Row]>([:])
    }

    /// The outcome of `compareAndSet`.
    enum CompareAndSet: Equatable {
        /// The cached row had the expected revision and now holds the new one; its statement is queued.
        case saved
        /// The cached row has another revision.
        case conflict(currentRevision: Int)
        /// The row is not cached: the caller checks SQLite.
        case notCached
    }

    private let shards: [Shard]
    private let perShard: Int
    private let epoch = Atomic<UInt64>(0)
    /// Every statement queued with a sequence number up to this one has committed.
    private let durable = Atomic<UInt64>(0)
    /// The last group committed.
    private let committedGroup = Atomic<UInt64>(0)

    init(capacity: Int) {
        perShard = max(0, capacity / Self.shardCount)
        shards = (0..<Self.shardCount).map { _ in Shard() }
    }

    /// False for a cache of capacity 0: then nothing is cached, and no write can be deferred.
    var isEnabled: Bool { perShard > 0 }

    private func shard(_ key: SessionKey) -> Shard {
        shards[Int(key.shardHint % UInt(Self.shardCount))]
    }

    /// The cached row, if any, and whether it is uncommitted (see above).
    func get(_ key: SessionKey) -> (session: StoredSession, uncommitted: Bool)? {
        guard perShard > 0 else { return nil }
        guard let row = shard(key).rows.withLock({ $0[key] }) else { return nil }
        return (row.session, isUncommitted(row.pendingSeq, group: row.group))
    }

    /// Whether a statement numbered `pendingSeq` or a write in `group` is not committed yet.
    func isUncommitted(_ pendingSeq: UInt64, group: UInt64) -> Bool {
        pendingSeq > durable.load(ordering: .sequentiallyConsistent)
            || group > committedGroup.load(ordering: .sequentiallyConsistent)
    }

    /// Read before reading SQLite; pass to `fill`.
    func currentEpoch() -> UInt64 { epoch.load(ordering: .sequentiallyConsistent) }

    /// Caches a row read from SQLite (through the writing connection in `group`, else 0), unless
    /// anything was written since `seen` or the row is cached already.
    func fill(_ session: StoredSession, seen: UInt64, group: UInt64) {
        guard perShard > 0 else { return }
        let key = SessionKey(session.id)
        shard(key).rows.withLock { table in
            guard epoch.load(ordering: .sequentiallyConsistent) == seen, table[key] == nil else { return }
            makeRoom(&table)
            table[key] = Row(session: session, pendingSeq: 0, group: group)
        }
    }

    /// The compare-and-set of a deferred save, against the cached row: if it has revision
    /// `expected`, it becomes `session` (keeping the later `lastUsed`) and `enqueue` — called
    /// under the shard's lock, so statements for one row are queued in the order their checks
    /// passed — queues the statement and returns its sequence number, which pins the row.
    func compareAndSet(_ session: StoredSession, expected: Int, enqueue: () -> UInt64) -> CompareAndSet {
        guard perShard > 0 else { return .notCached }
        let key = SessionKey(session.id)
        return shard(key).rows.withLock { table in
            guard let index = table.index(forKey: key) else { return .notCached }
            let current = table.values[index].session
            guard current.revision == expected else { return .conflict(currentRevision: current.revision) }
            epoch.add(1, ordering: .sequentiallyConsistent)
            var next = session
            next.lastUsed = max(current.lastUsed, session.lastUsed)
            table.values[index] = Row(session: next, pendingSeq: enqueue(), group: table.values[index].group)
            return .saved
        }
    }

    /// A deferred insert of a new session: caches it, pinned by the sequence number `enqueue`
    /// returns (called under the shard's lock). False (nothing queued) if the cache is disabled or
    /// already holds a row with this id (the caller then inserts through SQLite, which reports it).
    func createPending(_ session: StoredSession, enqueue: () -> UInt64) -> Bool {
        guard perShard > 0 else { return false }
        let key = SessionKey(session.id)
        return shard(key).rows.withLock { table in
            guard table[key] == nil else { return false }
            epoch.add(1, ordering: .sequentiallyConsistent)
            makeRoom(&table)
            table[key] = Row(session: session, pendingSeq: enqueue())
            return true
        }
    }

    /// A write of `id` through SQLite in `group`: runs `body` with the cached row (nil if none;
    /// setting it to nil drops it) under the shard's lock, so no deferred save of this row can be
    /// queued in the meantime. The epoch is bumped first. Call with the writer lock held.
    func writing<T>(_ id: String, group: UInt64, _ body: (inout StoredSession?) throws -> T) rethrows -> T {
        epoch.add(1, ordering: .sequentiallyConsistent)
        let key = SessionKey(id)
        return try shard(key).rows.withLock { table in
            var row = table[key]?.session
            let pendingSeq = table[key]?.pendingSeq ?? 0
            let result = try body(&row)
            if perShard > 0 {
                if let row {
                    if table[key] == nil { makeRoom(&table) }
                    table[key] = Row(session: row, pendingSeq: pendingSeq, group: group)
                } else {
                    table[key] = nil
                }
            }
            return result
        }
    }

    /// After a commit: every statement queued with a sequence number up to `seq` is durable, so
    /// their rows may be dropped again.
    func markDurable(_ seq: UInt64) {
        durable.store(seq, ordering: .sequentiallyConsistent)
    }

    /// After the commit of `group`: the rows written in it are committed.
    func markCommitted(group: UInt64) {
        committedGroup.store(group, ordering: .sequentiallyConsistent)
    }

    /// After a write that touched rows it does not name (bulk inserts, expiry): invalidates fills in flight.
    func wroteMany() {
        epoch.add(1, ordering: .sequentiallyConsistent)
    }

    /// After a rollback of writes this cache already holds: empties it, pinned rows too (their
    /// statements are gone with the group), and invalidates fills in flight.
    func forgetAll() {
        epoch.add(1, ordering: .sequentiallyConsistent)
        for shard in shards {
            shard.rows.withLock { $0.removeAll() }
        }
    }

    /// Rows cached now (for tests).
    var count: Int { shards.reduce(0) { total, shard in total + shard.rows.withLock { $0.count } } }

    /// Clears a full shard, keeping its pinned rows (under the shard's lock).
    private func makeRoom(_ table: inout [SessionKey: Row]) {
        guard table.count >= perShard else { return }
        epoch.add(1, ordering: .sequentiallyConsistent)
        let durable = durable.load(ordering: .sequentiallyConsistent)
        if table.values.contains(where: { $0.pendingSeq > durable }) {
            table = table.filter { $0.value.pendingSeq > durable }
        } else {
            table.removeAll(keepingCapacity: true)
        }
    }
}
