import CSQLite
import Glibc
import Synchronization

/// A `SessionStore` in an SQLite file: the default store, embedded, nothing to install or start.
///
/// Connections: one writer behind a `Mutex` (SQLite admits one writer at a time; serialising our
/// own threads in-process avoids `SQLITE_BUSY` churn) and a small pool of readers, each behind its
/// own `Mutex`; a reader is picked round-robin, skipping busy ones. All statements are prepared once
/// per connection and reused. `busy_timeout` covers other processes and checkpoints.
///
/// Sessions are read on demand, never loaded at start; recently used rows are kept in a bounded
/// write-through cache (`SQLiteRowCache`, 16,384 rows by default), so a hot session is read
/// without an SQLite read transaction. Opening reads the schema version and one
/// counter row, so it costs the same with a million rows as with none (no scan: expiry walks an
/// index on `last_used`; the count is kept by triggers and cached in an `Atomic`).
///
/// - Important: Durability. The database runs in WAL mode. With `.processCrash` (the default,
///   `synchronous=NORMAL`) a commit has written its frames to the `-wal` file with `write(2)` before
///   `save` returns; the bytes are then in the kernel's page cache, which outlives the process, so a
///   change acknowledged with 2xx survives `kill -9` and any crash of the server. Only an OS crash
///   or power loss before the next checkpoint's `fsync` can lose the most recent commits (never
///   corrupt the file). `.powerLoss` (`synchronous=FULL`) also `fsync`s the WAL at every commit,
///   closing that window at the price of one flush per write.
///
/// Group commit: every write joins one open transaction (the *group*), opened by the first write
/// after a commit. A write made without blocking on an event loop (`save(_:expectedRevision:
/// idempotency:on:_:)` with a loop, see `SQLiteStore+Rounds`) leaves the group open and is
/// answered at the end of the loop's round, once the group is committed; any other caller
/// commits it before returning, together with whatever the loops wrote so far. So a loop
/// answering 20 requests in one round of events pays for one commit, not 20, and `save` keeps
/// its contract for every other caller. The row cache holds the group's rows from the moment
/// they are written (a loop's read that may have seen them is answered at the end of its round
/// too, after the commit), and reads that miss it go through the writing connection while the
/// group is open, so a session written in the group is never read older. Changes are published
/// after the commit. If a statement or the commit fails, the whole group is rolled back: the row
/// cache is emptied, the count reloaded, nothing is published, and the writes and reads waiting
/// for the round's end are told the store is unavailable.
///
/// Deferred statements: the two writes of the request path do not even take the writer lock.
/// A `save` of a cached row checks its compare-and-set against that row (the newest revision:
/// every write goes through this store and updates the cache) and a `create` takes its slot
/// under the cap in memory; the row is updated (or added) and pinned in the cache, and the
/// statement is queued, both under the row's shard lock, so statements for one row are queued in
/// the order their checks passed. The queue runs, in order, inside the group: at the commit
/// (a loop's round end, or any other writer's commit), before any statement run under the writer
/// lock, and before a read through the writing connection. So the two loops hand the writer lock
/// over once per round instead of once per request. A queued statement that fails when it runs
/// (an insert whose id is on the file but was not cached; a save whose row no longer has the
/// revision its check saw, which only another process writing the file can cause) fails the
/// group like any other; a save whose row expired in between is dropped (the save came first).
/// Writes that miss the cache, touches and deletes run their statement at once, holding the
/// row's shard lock, after the statements queued for that row.
///
/// The journal: a session's entries are not kept in the database's pages but beside the file, in
/// the directory `PATH-entries` (segment files appended to; see `SQLiteEntryLog`); the session's
/// row lists where they are, and a group's entries are written there before it commits, so a
/// committed row never lists an entry that is missing, even after `kill -9`. With `.powerLoss`
/// the log is synced before every commit too; with `.processCrash` it is not, so an OS crash or
/// power loss may also lose journal entries the file still lists (their session's history then
/// fails until they leave its window; its state is not touched). Keep that directory with the
/// file: a copy of the file alone keeps every session but not its history.
///
/// - Important: One process owns a database file: the cached count assumes no other process
///   inserts or deletes sessions, and the row cache is trusted for compare-and-sets. A store
///   opened `shared` gives that up so that several processes can serve one file (a rolling
///   deploy on one host, old and new version side by side): no row is cached (every load reads
///   the file, every compare-and-set is checked by SQLite), the count is read from the file, and
///   changes written by another process reach no event stream of this one.
public final class SQLiteStore: SessionStore {
    /// How much a returned `save` survives.
    public enum Durability: Sendable, Equatable {
        /// WAL with `synchronous=NORMAL`: survives the process being killed (`kill -9`), not power loss.
        case processCrash
        /// WAL with `synchronous=FULL`: also survives an OS crash or power loss.
        case powerLoss
    }

    /// The TTLs and limits the store applies.
    public let configuration: StoreConfiguration
    public let changes = ChangeFeed()
    public var idempotencyAnswersDropped: Int { answersDropped.load(ordering: .relaxed) }
    /// Answers dropped by the byte budget (counted when dropped, even in a group rolled back later).
    private let answersDropped = Atomic<Int>(0)
    /// The database file.
    public let path: String
    /// Other processes may write the file too (see the type's description).
    public let shared: Bool

    let writer: Mutex<SQLiteWriter>
    /// Mirrors `SQLiteWriter.groupIsOpen` for lock-free checks.
    let groupIsOpen = Atomic<Bool>(false)
    /// Groups rolled back so far (a round's waiting answers compare it before and after).
    let groupFailures = Atomic<UInt64>(0)
    /// The loops with a commit waiting for the end of their current round (see `afterCommit`).
    let roundCommits = Mutex<Set<ObjectIdentifier>>([])
    private let readers: [ReaderSlot]
    private let nextReader = Atomic<UInt>(0)
    private let storedCount: Atomic<Int>
    private let secret: [UInt8]
    private let reclaimGate: ReclaimGate
    private let checkpointer: SQLiteCheckpointer
    private let rows: SQLiteRowCache
    /// Deferred statements, in the order their checks passed (see "Deferred statements" above).
    private let queue = Mutex(StatementQueue())
    /// Mirrors the queue's length for lock-free checks.
    let queued = Atomic<Int>(0)

    /// Opens (creating the directory, the file and the schema if needed) the database at `path`.
    ///
    /// - Parameters:
    ///   - readerCount: reading connections in the pool (at least 1).
    ///   - busyTimeoutMillis: how long a statement waits for a lock held by another connection.
    ///   - rowCacheCapacity: recently used rows kept in memory (0: none).
    ///   - shared: other processes write the file too: no row cache, the count read from the file.
    /// - Throws: `.unavailable` with SQLite's message if the file cannot be opened or migrated.
    public convenience init(
        path: String,
        configuration: StoreConfiguration = StoreConfiguration(),
        durability: Durability = .processCrash,
        readerCount: Int = 4,
        busyTimeoutMillis: Int32 = 5_000,
        rowCacheCapacity: Int = 16_384,
        shared: Bool = false
    ) throws {
        try self.init(
            path: path, configuration: configuration, durability: durability, readerCount: readerCount,
            busyTimeoutMillis: busyTimeoutMillis, rowCacheCapacity: rowCacheCapacity, shared: shared,
            journalSegmentBytes: 32 << 20)
    }

    /// The public initializer's work, with the size of the journal's log segments (tests make them small).
    init(
        path: String, configuration: StoreConfiguration, durability: Durability, readerCount: Int,
        busyTimeoutMillis: Int32, rowCacheCapacity: Int, shared: Bool, journalSegmentBytes: Int
    ) throws {
        self.path = path
        self.shared = shared
        self.configuration = configuration
        self.reclaimGate = ReclaimGate(intervalMillis: configuration.reclaimIntervalMillis)
        self.rows = SQLiteRowCache(capacity: shared ? 0 : rowCacheCapacity)
        try Self.createParentDirectory(of: path)

        let connection = try SQLiteConnection(path: path)
        try connection.setBusyTimeout(milliseconds: busyTimeoutMillis)
        let journalMode = try connection.queryText("PRAGMA journal_mode = WAL")
        guard journalMode?.lowercased() == "wal" else {
            throw StoreError.unavailable("sqlite: could not enable WAL mode (journal_mode is \(journalMode ?? "unknown"))")
        }
        try connection.execute(durability == .processCrash ? "PRAGMA synchronous = NORMAL" : "PRAGMA synchronous = FULL")
        let log = SQLiteEntryLog(databasePath: path, segmentBytes: journalSegmentBytes, durable: durability == .powerLoss)
        try SQLiteSchema.migrate(connection, log: log)
        self.secret = try Self.deploymentSecret(connection)
        let writer = try SQLiteWriter(connection: connection, log: log, shared: shared)
        let checkpointer = SQLiteCheckpointer(path: path, busyTimeoutMillis: busyTimeoutMillis)
        checkpointer.attach(to: connection)
        self.checkpointer = checkpointer
        self.storedCount = Atomic(try writer.storedCount())
        self.writer = Mutex(writer)

        var readers: [ReaderSlot] = []
        for _ in 0..<max(1, readerCount) {
            let connection = try SQLiteConnection(path: path)
            try connection.setBusyTimeout(milliseconds: busyTimeoutMillis)
            try connection.execute("PRAGMA query_only = 1")
            readers.append(ReaderSlot(try SQLiteReader(connection: connection, log: log)))
        }
        self.readers = readers
    }

    deinit {
        checkpointer.stop()
        let changes = writer.withLock { writer in
            let changes = try? flushLocked(writer)
            writer.connection.removeWALHook()
            return changes ?? []
        }
        publish(changes)
    }

    /// For a graceful shutdown, after the last request: stops the background checkpoints and folds
    /// the whole WAL into the database, truncating it, so the next start has no WAL to replay.
    /// The store still works afterwards (the WAL then grows until the next checkpoint).
    public func close() throws {
        checkpointer.stop()
        let changes = try writer.withLock { writer in
            let changes = try flushLocked(writer)
            try writer.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return changes
        }
        publish(changes)
    }

    // MARK: Group commit

    /// Commits the open group and the queued statements, if any (a failure is counted in
    /// `groupFailures`, which the waiting answers compare).
    func commitPending() {
        // `queued` before `groupIsOpen`: whoever takes the queue opens the group first, so a
        // statement queued earlier is either still queued, or in an open group, or committed.
        guard queued.load(ordering: .sequentiallyConsistent) > 0 || groupIsOpen.load(ordering: .sequentiallyConsistent)
        else { return }
        if let changes = try? writer.withLock({ writer in try flushLocked(writer) }) {
            publish(changes)
        }
    }

    /// Runs `body` with the writer inside the group (opening it if needed, after running the
    /// queued statements); then, unless `defers` (the caller commits at its round's end), commits
    /// the group and publishes its changes.
    private func write<T>(defers: Bool = false, _ body: (SQLiteWriter) throws -> T) throws -> T {
        let (result, changes) = try writer.withLock { writer -> (T, [(id: String, change: SessionChange)]) in
            let result: T
            do {
                try runQueued(writer)
                try openGroup(writer)
                result = try body(writer)
            } catch {
                throw abandonGroup(writer, after: error)
            }
            return (result, defers ? [] : try commitGroup(writer))
        }
        publish(changes)
        return result
    }

    private func openGroup(_ writer: SQLiteWriter) throws {
        guard !writer.groupIsOpen else { return }
        try writer.beginGroup()
        groupIsOpen.store(true, ordering: .sequentiallyConsistent)
    }

    /// Queues a deferred statement; returns its sequence number.
    private func enqueue(_ statement: DeferredStatement) -> UInt64 {
        queue.withLock { queue in
            queue.statements.append(statement)
            queue.lastSeq += 1
            queued.store(queue.statements.count, ordering: .sequentiallyConsistent)
            return queue.lastSeq
        }
    }

    /// Runs the queued statements in the group, in the order they were queued (the writer lock is
    /// held). Throws what a statement throws; the caller abandons the group.
    private func runQueued(_ writer: SQLiteWriter) throws {
        guard queued.load(ordering: .sequentiallyConsistent) > 0 else { return }
        try openGroup(writer)  // before the queue empties: see `commitPending()`
        let (statements, lastSeq) = queue.withLock { queue in
            defer {
                queue.statements.removeAll(keepingCapacity: true)
                queued.store(0, ordering: .sequentiallyConsistent)
            }
            return (queue.statements, queue.lastSeq)
        }
        for statement in statements {
            switch statement {
            case .insert(let session, let journal):
                guard try insertJournaled(session, journal, writer) else { throw StoreError.duplicateID }
            case .save(let session, let expectedRevision, let journal):
                switch try saveJournaled(session, expectedRevision: expectedRevision, journal, writer) {
                case .saved:
                    if session.revision != expectedRevision {
                        writer.groupChanges.append((session.id, .saved(revision: session.revision)))
                    }
                case .notFound, .keyTaken:
                    break  // expired after its check passed: the save came first, the expiry second
                case .conflict(let current):
                    throw StoreError.unavailable(
                        "sqlite: a deferred save expected revision \(expectedRevision), the file has \(current)")
                }
            }
        }
        writer.groupSeq = lastSeq
    }

    /// Runs the queued statements and commits the group (the writer lock is held); returns the
    /// changes to publish.
    func flushLocked(_ writer: SQLiteWriter) throws -> [(id: String, change: SessionChange)] {
        do {
            try runQueued(writer)
        } catch {
            throw abandonGroup(writer, after: error)
        }
        return try commitGroup(writer)
    }

    /// For a caller that does not defer its commits, after a deferred statement: commits it.
    private func flush() throws {
        publish(try writer.withLock { writer in try flushLocked(writer) })
    }

    /// Commits the group if it is open (the writer lock is held); returns its changes to publish.
    private func commitGroup(_ writer: SQLiteWriter) throws -> [(id: String, change: SessionChange)] {
        guard writer.groupIsOpen else { return [] }
        do {
            try writer.journal.sweep()
            try writer.journal.flushLog()
            try writer.commitGroup()
        } catch {
            throw abandonGroup(writer, after: error)
        }
        writer.journal.didCommit()
        rows.markDurable(writer.groupSeq)
        rows.markCommitted(group: writer.groupGeneration)
        groupIsOpen.store(false, ordering: .sequentiallyConsistent)
        defer { writer.groupChanges.removeAll(keepingCapacity: true) }
        return writer.groupChanges
    }

    /// After a failed statement or commit: rolls the whole group back, drops the statements still
    /// queued (their checks were made against rows of the failed group), forgets what it wrote and
    /// counts the failure; returns the error to throw. `groupIsOpen` turns false last, after the
    /// count: a loop that finds its statement gone also finds the failure. (A `create` racing this
    /// between the queue's clearing and the count's reload may be stored but left out of the
    /// count until the next start; its answer is dropped.)
    private func abandonGroup(_ writer: SQLiteWriter, after error: any Error) -> any Error {
        let error = writer.connection.rollback(after: error)
        writer.groupIsOpen = false
        writer.groupChanges.removeAll()
        queue.withLock { queue in
            queue.statements.removeAll()
            queued.store(0, ordering: .sequentiallyConsistent)
        }
        rows.forgetAll()
        writer.journal.forgetWindows()
        if let count = try? writer.storedCount() { storedCount.store(count, ordering: .relaxed) }
        groupFailures.add(1, ordering: .sequentiallyConsistent)
        groupIsOpen.store(false, ordering: .sequentiallyConsistent)
        return error
    }

    func publish(_ changes: [(id: String, change: SessionChange)]) {
        for (id, change) in changes { self.changes.publish(id, change) }
    }

    /// Background WAL checkpoints run so far (see `SQLiteCheckpointer`).
    var backgroundCheckpoints: Int { checkpointer.passes.load(ordering: .relaxed) }

    /// Statements queued for the next group (for tests).
    var queuedStatements: Int { queued.load(ordering: .sequentiallyConsistent) }

    /// Rows in the row cache (for tests).
    var cachedRows: Int { rows.count }

    /// Inserts the session's row (false: its id is taken) with its journal entry, in the open
    /// group: the entry's window goes in the row, then the entry in `journal`.
    private func insertJournaled(_ session: StoredSession, _ journal: JournalEntry?, _ writer: SQLiteWriter) throws -> Bool {
        let pending = try prepareJournal(journal, session.id, isNew: true, writer)
        guard try writer.insert(session, journalWindow: pending?.window.encoded) else { return false }
        if let pending { try writer.journal.commit(pending) }
        return true
    }

    /// The compare-and-set of the session's row (with its idempotency record) and, if it saved,
    /// its journal entry, in the open group.
    private func saveJournaled(
        _ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord? = nil, keyCutoff: Int64 = .min,
        _ journal: JournalEntry?, _ writer: SQLiteWriter
    ) throws -> SQLiteWriter.SaveOutcome {
        let pending = try prepareJournal(journal, session.id, writer)
        var dropped = 0
        let outcome = try writer.save(
            session, expectedRevision: expectedRevision, idempotency: idempotency,
            keyCutoff: keyCutoff, keep: configuration.idempotencyRecordsPerSession,
            answerBudget: configuration.idempotencyBytesPerSession, answersDropped: &dropped, journalWindow: pending?.window.encoded)
        if dropped > 0 { answersDropped.add(dropped, ordering: .relaxed) }
        if outcome == .saved, let pending { try writer.journal.commit(pending) }
        return outcome
    }

    /// Prepares a journal entry's append (the bounds applied): its window goes with the session's row.
    private func prepareJournal(
        _ journal: JournalEntry?, _ id: String, isNew: Bool = false, _ writer: SQLiteWriter
    ) throws -> SQLiteJournalWriter.Pending? {
        guard let journal else { return nil }
        return try writer.journal.prepare(
            journal, sessionID: id, isNew: isNew,
            maxEntries: configuration.journalEntriesPerSession, maxBytes: configuration.journalBytesPerSession)
    }

    public func create(_ session: StoredSession, maxSessions: Int, now: Int64, journal: JournalEntry?) throws {
        try create(session, maxSessions: maxSessions, now: now, journal: journal, defers: false)
    }

    /// `create`, leaving the group open when `defers`.
    func create(_ session: StoredSession, maxSessions: Int, now: Int64, journal: JournalEntry?, defers: Bool) throws {
        // Deferred: a new id cannot conflict with a compare-and-set, so the insert waits in the
        // queue (its row pinned in the cache) and the slot under the cap is taken here.
        if rows.isEnabled, storedCount.increment(ifBelow: maxSessions) {
            if rows.createPending(session, enqueue: { enqueue(.insert(session, journal: journal)) }) {
                if !defers { try flush() }
                return
            }
            storedCount.subtract(1, ordering: .relaxed)
        }
        let outcome = try write(defers: defers) { writer -> CreateOutcome in
            if shared { storedCount.store(try writer.storedCount(), ordering: .relaxed) }
            if storedCount.load(ordering: .relaxed) >= maxSessions {
                guard reclaimGate.admit(now: now) else { return .full }
                try expireLocked(writer, now: now)
                guard storedCount.load(ordering: .relaxed) < maxSessions else { return .full }
            }
            guard try insertJournaled(session, journal, writer) else { return .duplicate }
            rows.writing(session.id, group: writer.groupGeneration) { row in row = session }
            storedCount.add(1, ordering: .relaxed)
            return .created
        }
        switch outcome {
        case .created: return
        case .full: throw StoreError.sessionLimit
        case .duplicate: throw StoreError.duplicateID
        }
    }

    public func load(id: String, now: Int64) throws -> StoredSession? {
        try load(id: id, key: SessionKey(id), now: now)
    }

    public func load(id: String, key: SessionKey, now: Int64) throws -> StoredSession? {
        try loadNoting(id: id, key: key, now: now).session
    }

    /// `load`, and whether what it read may be uncommitted (a write of a group or queue not
    /// committed yet; see `SQLiteRowCache`).
    func loadNoting(id: String, key: SessionKey, now: Int64) throws -> (session: StoredSession?, uncommitted: Bool) {
        let session: StoredSession
        let uncommitted: Bool
        if let cached = rows.get(key) {
            (session, uncommitted) = cached
        } else {
            let seen = rows.currentEpoch()
            let (read, group) = try withReaderNoting { try $0.session(id: id) }
            guard let read else { return (nil, group != 0 && rows.isUncommitted(0, group: group)) }
            rows.fill(read, seen: seen, group: group)
            session = read
            uncommitted = rows.isUncommitted(0, group: group)
        }
        return (configuration.isExpired(lastUsed: session.lastUsed, now: now) ? nil : session, uncommitted)
    }

    public func save(_ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?, journal: JournalEntry?) throws {
        try save(session, expectedRevision: expectedRevision, idempotency: idempotency, journal: journal, defers: false)
    }

    /// `save`, leaving the group open when `defers`.
    func save(
        _ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?, journal: JournalEntry?, defers: Bool
    ) throws {
        // The cached row is the newest revision (every write goes through this store and updates
        // it): check the compare-and-set against it and queue the statement. A save with an
        // idempotency record is not deferred: its key is checked against the file, under the
        // writer lock, in the same step as the update.
        if idempotency == nil {
            let check = rows.compareAndSet(session, expected: expectedRevision) {
                enqueue(.save(session, expectedRevision: expectedRevision, journal: journal))
            }
            switch check {
            case .saved:
                if !defers { try flush() }
                return
            case .conflict(let current):
                throw StoreError.conflict(currentRevision: current)
            case .notCached:
                break
            }
        }
        let keyCutoff = idempotency.map { $0.createdAt &- configuration.idempotencyTTLMillis } ?? .min
        let outcome = try write(defers: defers) { writer in
            try rows.writing(session.id, group: writer.groupGeneration) { row in
                // Cached since the check above: statements may have been queued for it since
                // `write` ran the queue; they go first.
                if row != nil { try runQueued(writer) }
                let outcome = try saveJournaled(
                    session, expectedRevision: expectedRevision, idempotency: idempotency,
                    keyCutoff: keyCutoff, journal, writer)
                if outcome == .saved, let current = row {
                    var next = session
                    next.lastUsed = max(current.lastUsed, session.lastUsed)
                    row = next
                } else if outcome != .keyTaken {
                    row = nil
                }
                if outcome == .saved && session.revision != expectedRevision {
                    writer.groupChanges.append((session.id, .saved(revision: session.revision)))
                }
                return outcome
            }
        }
        switch outcome {
        case .notFound: throw StoreError.notFound
        case .conflict(let current): throw StoreError.conflict(currentRevision: current)
        case .keyTaken: throw StoreError.idempotencyKeyTaken
        case .saved: return
        }
    }

    public func journal(id: String, since: Int) throws -> [JournalEntry] {
        try withReader { try $0.journal(id: id, since: since) }
    }

    public func touch(id: String, now: Int64) throws {
        try touch(id: id, now: now, defers: false)
    }

    /// `touch`, leaving the group open when `defers`.
    func touch(id: String, now: Int64, defers: Bool) throws {
        let found = try write(defers: defers) { writer in
            try rows.writing(id, group: writer.groupGeneration) { row in
                if row != nil { try runQueued(writer) }
                let found = try writer.touch(id: id, now: now)
                if found, var current = row {
                    current.lastUsed = max(current.lastUsed, now)
                    row = current
                } else if !found {
                    row = nil
                }
                return found
            }
        }
        if !found { throw StoreError.notFound }
    }

    public func delete(id: String, expectedRevision: Int?) throws -> Bool {
        try delete(id: id, expectedRevision: expectedRevision, defers: false)
    }

    /// `delete`, leaving the group open when `defers`.
    func delete(id: String, expectedRevision: Int?, defers: Bool) throws -> Bool {
        let outcome = try write(defers: defers) { writer -> SQLiteWriter.DeleteOutcome in
            try rows.writing(id, group: writer.groupGeneration) { row in
                // Queued statements for the row go first, so the revision checked is the newest.
                if row != nil { try runQueued(writer) }
                let window = try writer.journal.window(of: id)
                let outcome = try writer.delete(id: id, expectedRevision: expectedRevision)
                if case .conflict = outcome { return outcome }
                if outcome == .deleted { writer.journal.forget(id, window: window) }
                row = nil
                if outcome == .deleted {
                    storedCount.subtract(1, ordering: .relaxed)
                    writer.groupChanges.append((id, .deleted))
                }
                return outcome
            }
        }
        switch outcome {
        case .deleted: return true
        case .notFound: return false
        case .conflict(let current): throw StoreError.conflict(currentRevision: current)
        }
    }

    public func idempotencyRecord(sessionID: String, key: String, now: Int64) throws -> IdempotencyRecord? {
        try idempotencyRecordNoting(sessionID: sessionID, key: key, now: now).record
    }

    /// `idempotencyRecord`, and whether what it read may be uncommitted.
    func idempotencyRecordNoting(sessionID: String, key: String, now: Int64) throws -> (record: IdempotencyRecord?, uncommitted: Bool) {
        let (record, group) = try withReaderNoting { try $0.idempotencyRecord(sessionID: sessionID, key: key) }
        let uncommitted = group != 0 && rows.isUncommitted(0, group: group)
        guard let record, !configuration.isExpired(createdAt: record.createdAt, now: now) else { return (nil, uncommitted) }
        return (record, uncommitted)
    }

    public func expire(now: Int64) throws -> Int {
        try write { writer in try expireLocked(writer, now: now) }
    }

    public func count(now: Int64) throws -> Int {
        guard shared else { return storedCount.load(ordering: .relaxed) }
        return try writer.withLock { writer in try writer.storedCount() }
    }

    public func sessionsWithPendingEffects(limit: Int) throws -> [String] {
        try withReader { try $0.sessionsWithPendingEffects(limit: limit) }
    }

    public func ping() throws {
        try withReader { try $0.ping() }
    }

    /// Read when the store opens: the `secrets` row, made by the first process to open the file.
    public func deploymentSecret() throws -> [UInt8] { secret }

    private static func deploymentSecret(_ connection: SQLiteConnection) throws -> [UInt8] {
        let insert = try connection.prepare("INSERT OR IGNORE INTO secrets (name, value) VALUES ('deployment', ?1)")
        try insert.bind(1, newSecret())
        try insert.run()
        let select = try connection.prepare("SELECT value FROM secrets WHERE name = 'deployment'")
        guard try select.step() else { throw StoreError.unavailable("sqlite: the deployment secret is missing") }
        return select.columnBlob(0)
    }

    /// An index range (`sessions_by_user`); while a group is open or statements are queued, read
    /// through the writing connection after running them, so every write so far is seen.
    public func sessions(ofUser user: String, now: Int64, limit: Int) throws -> [String] {
        guard limit > 0 else { return [] }
        return try withReader { try $0.sessions(ofUser: user, cutoff: now &- configuration.ttlMillis, limit: limit) }
    }

    // MARK: Internals

    private enum CreateOutcome: Sendable {
        case created, full, duplicate
    }

    /// A write whose check passed in memory, waiting to run in the group.
    private enum DeferredStatement: Sendable {
        case insert(StoredSession, journal: JournalEntry?)
        case save(StoredSession, expectedRevision: Int, journal: JournalEntry?)
    }

    private struct StatementQueue: Sendable {
        var statements: [DeferredStatement] = []
        /// The sequence number of the last statement queued.
        var lastSeq: UInt64 = 0
    }

    private final class ReaderSlot: Sendable {
        let reader: Mutex<SQLiteReader>
        init(_ reader: consuming sending SQLiteReader) {
            self.reader = Mutex(reader)
        }
    }

    /// Runs `body` on a free reader (round-robin, skipping busy ones; waits if all are busy).
    /// While a group is open or statements are queued, what they write is not committed yet: then
    /// the queue is run and the read goes through the writing connection, which sees it.
    private func withReader<T: Sendable>(_ body: (SQLiteReader) throws -> T) throws -> T {
        try withReaderNoting(body).value
    }

    /// `withReader`, and the group it read in through the writing connection (0: a reader, which
    /// sees only committed rows).
    private func withReaderNoting<T: Sendable>(_ body: (SQLiteReader) throws -> T) throws -> (value: T, group: UInt64) {
        if queued.load(ordering: .sequentiallyConsistent) > 0 || groupIsOpen.load(ordering: .sequentiallyConsistent) {
            return try writer.withLock { writer in
                do {
                    try runQueued(writer)
                } catch {
                    throw abandonGroup(writer, after: error)
                }
                return (try body(writer.ownReads), writer.groupIsOpen ? writer.groupGeneration : 0)
            }
        }
        let start = Int(nextReader.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(readers.count))
        for offset in 0..<readers.count {
            let slot = readers[(start + offset) % readers.count]
            if let result = try slot.reader.withLockIfAvailable({ reader in try body(reader) }) {
                return (result, 0)
            }
        }
        return (try readers[start].reader.withLock { reader in try body(reader) }, 0)
    }

    /// The expiry pass, in the group; the caller holds the writer lock. Updates the cached count;
    /// returns the number of sessions deleted.
    @discardableResult
    private func expireLocked(_ writer: SQLiteWriter, now: Int64) throws -> Int {
        reclaimGate.noteExpiryPass(now: now)
        let expired = try writer.expire(
            sessionCutoff: now &- configuration.ttlMillis,
            recordCutoff: now &- configuration.idempotencyTTLMillis)
        if !expired.isEmpty {
            storedCount.subtract(expired.count, ordering: .relaxed)
            for (id, window) in expired {
                writer.journal.forget(id, window: window)
                rows.writing(id, group: writer.groupGeneration) { row in row = nil }
                writer.groupChanges.append((id, .deleted))
            }
        }
        return expired.count
    }

    /// Inserts `count` sessions made by `make` in one transaction, without the cap (for tests and
    /// imports); publishes nothing.
    func insertAll(count: Int, _ make: @Sendable (Int) -> StoredSession) throws {
        // A large page cache keeps the transaction from spilling into the WAL page by page;
        // afterwards back to SQLite's default (2 MB).
        try writer.withLock { writer in try writer.connection.execute("PRAGMA cache_size = -262144") }
        defer { _ = try? writer.withLock { writer in try writer.connection.execute("PRAGMA cache_size = -2000") } }
        try write { writer in
            for index in 0..<count {
                guard try writer.insert(make(index)) else { throw StoreError.duplicateID }
            }
            rows.wroteMany()
            storedCount.add(count, ordering: .relaxed)
        }
    }

    /// `mkdir -p` of the directory holding `path`.
    private static func createParentDirectory(of path: String) throws {
        guard let slash = path.lastIndex(of: "/") else { return }
        let directory = String(path[..<slash])
        guard !directory.isEmpty else { return }
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0 {
                let error = errno
                guard error == EEXIST else {
                    throw StoreError.unavailable("mkdir \(prefix): \(String(cString: strerror(error)))")
                }
            }
            prefix += "/"
        }
    }
}
