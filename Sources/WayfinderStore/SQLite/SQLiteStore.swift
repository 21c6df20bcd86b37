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
/// after a commit. A thread that called `deferCommitsOnCurrentThread()` (an event loop, which
/// holds its answers until `commitDeferred(mark:)`) leaves the group open after its write; any
/// other caller commits it before returning, together with whatever the loops wrote so far. So a
/// loop answering 20 requests in one round of events pays for one commit, not 20, and `save`
/// keeps its contract for every other caller. The row cache holds the group's rows from the
/// moment they are written (a loop answering a read of them holds that answer too, until the
/// commit), and reads that miss it go through the writing connection while the group is open, so
/// a session written in the group is never read older. Changes are published after the commit.
/// If a statement or the commit fails, the whole group is rolled back: the row cache is emptied,
/// the count reloaded, nothing is published, and `commitDeferred(mark:)` reports the failure so
/// the loops drop the answers they held.
///
/// - Important: One process owns a database file: the cached count assumes no other process
///   inserts or deletes sessions.
public final class SQLiteStore: SessionStore {
    /// How much a returned `save` survives.
    public enum Durability: Sendable, Equatable {
        /// WAL with `synchronous=NORMAL`: survives the process being killed (`kill -9`), not power loss.
        case processCrash
        /// WAL with `synchronous=FULL`: also survives an OS crash or power loss.
        case powerLoss
    }

    public let configuration: StoreConfiguration
    public let changes = ChangeFeed()
    public let path: String

    private let writer: Mutex<SQLiteWriter>
    /// Mirrors `SQLiteWriter.groupIsOpen` for lock-free checks.
    private let groupIsOpen = Atomic<Bool>(false)
    /// Groups rolled back so far (see `commitDeferred(mark:)`).
    private let groupFailures = Atomic<UInt64>(0)
    private let readers: [ReaderSlot]
    private let nextReader = Atomic<UInt>(0)
    private let storedCount: Atomic<Int>
    private let reclaimGate: ReclaimGate
    private let checkpointer: SQLiteCheckpointer
    private let rows: SQLiteRowCache

    /// Opens (creating the directory, the file and the schema if needed) the database at `path`.
    ///
    /// - Parameters:
    ///   - readerCount: reading connections in the pool (at least 1).
    ///   - busyTimeoutMillis: how long a statement waits for a lock held by another connection.
    /// - Throws: `.unavailable` with SQLite's message if the file cannot be opened or migrated.
    public init(
        path: String,
        configuration: StoreConfiguration = StoreConfiguration(),
        durability: Durability = .processCrash,
        readerCount: Int = 4,
        busyTimeoutMillis: Int32 = 5_000,
        rowCacheCapacity: Int = 16_384
    ) throws {
        self.path = path
        self.configuration = configuration
        self.reclaimGate = ReclaimGate(intervalMillis: configuration.reclaimIntervalMillis)
        self.rows = SQLiteRowCache(capacity: rowCacheCapacity)
        try Self.createParentDirectory(of: path)

        let connection = try SQLiteConnection(path: path)
        try connection.setBusyTimeout(milliseconds: busyTimeoutMillis)
        let journalMode = try connection.queryText("PRAGMA journal_mode = WAL")
        guard journalMode?.lowercased() == "wal" else {
            throw StoreError.unavailable("sqlite: could not enable WAL mode (journal_mode is \(journalMode ?? "unknown"))")
        }
        try connection.execute(durability == .processCrash ? "PRAGMA synchronous = NORMAL" : "PRAGMA synchronous = FULL")
        try SQLiteSchema.migrate(connection)
        let writer = try SQLiteWriter(connection: connection)
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
            readers.append(ReaderSlot(try SQLiteReader(connection: connection)))
        }
        self.readers = readers
    }

    deinit {
        checkpointer.stop()
        let changes = writer.withLock { writer in
            let changes = try? commitGroup(writer)
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
            let changes = try commitGroup(writer)
            try writer.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return changes
        }
        publish(changes)
    }

    // MARK: Group commit

    public func deferCommitsOnCurrentThread() -> Bool {
        pthread_setspecific(DeferringThread.key, Unmanaged.passUnretained(self).toOpaque())
        return true
    }

    public func commitDeferred(mark: inout UInt64) -> Bool {
        if groupIsOpen.load(ordering: .sequentiallyConsistent) {
            // A failure is counted in `groupFailures` (and logged by the caller from the result).
            if let changes = try? writer.withLock({ writer in try commitGroup(writer) }) {
                publish(changes)
            }
        }
        let failures = groupFailures.load(ordering: .sequentiallyConsistent)
        defer { mark = failures }
        return failures == mark
    }

    /// Whether the calling thread leaves the group open after its writes.
    private var callerDefersCommits: Bool {
        pthread_getspecific(DeferringThread.key) == UnsafeMutableRawPointer(Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs `body` with the writer inside the group (opening it if needed); then, unless the
    /// caller defers its commits, commits the group and publishes its changes.
    private func write<T>(_ body: (SQLiteWriter) throws -> T) throws -> T {
        let defers = callerDefersCommits
        let (result, changes) = try writer.withLock { writer -> (T, [(id: String, change: SessionChange)]) in
            if !writer.groupIsOpen {
                try writer.beginGroup()
                groupIsOpen.store(true, ordering: .sequentiallyConsistent)
            }
            let result: T
            do {
                result = try body(writer)
            } catch {
                throw abandonGroup(writer, after: error)
            }
            return (result, defers ? [] : try commitGroup(writer))
        }
        publish(changes)
        return result
    }

    /// Commits the group if it is open (the writer lock is held); returns its changes to publish.
    private func commitGroup(_ writer: SQLiteWriter) throws -> [(id: String, change: SessionChange)] {
        guard writer.groupIsOpen else { return [] }
        do {
            try writer.commitGroup()
        } catch {
            throw abandonGroup(writer, after: error)
        }
        groupIsOpen.store(false, ordering: .sequentiallyConsistent)
        defer { writer.groupChanges.removeAll(keepingCapacity: true) }
        return writer.groupChanges
    }

    /// After a failed statement or commit: rolls the whole group back, forgets what it wrote and
    /// counts the failure; returns the error to throw.
    private func abandonGroup(_ writer: SQLiteWriter, after error: any Error) -> any Error {
        let error = writer.connection.rollback(after: error)
        writer.groupIsOpen = false
        writer.groupChanges.removeAll()
        rows.forgetAll()
        if let count = try? writer.storedCount() { storedCount.store(count, ordering: .relaxed) }
        groupFailures.add(1, ordering: .sequentiallyConsistent)
        groupIsOpen.store(false, ordering: .sequentiallyConsistent)
        return error
    }

    private func publish(_ changes: [(id: String, change: SessionChange)]) {
        for (id, change) in changes { self.changes.publish(id, change) }
    }

    /// Background WAL checkpoints run so far (see `SQLiteCheckpointer`).
    var backgroundCheckpoints: Int { checkpointer.passes.load(ordering: .relaxed) }

    public func create(_ session: StoredSession, maxSessions: Int) throws {
        let outcome = try write { writer -> CreateOutcome in
            if storedCount.load(ordering: .relaxed) >= maxSessions {
                guard reclaimGate.admit(now: session.lastUsed) else { return .full }
                try expireLocked(writer, now: session.lastUsed)
                guard storedCount.load(ordering: .relaxed) < maxSessions else { return .full }
            }
            guard try writer.insert(session) else { return .duplicate }
            rows.created(session)
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
        let session: StoredSession
        if let cached = rows.get(id) {
            session = cached
        } else {
            let seen = rows.currentEpoch()
            guard let read = try withReader({ try $0.session(id: id) }) else { return nil }
            rows.fill(read, seen: seen)
            session = read
        }
        return configuration.isExpired(lastUsed: session.lastUsed, now: now) ? nil : session
    }

    public func save(_ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?) throws {
        let outcome = try write { writer in
            let outcome = try writer.save(session, expectedRevision: expectedRevision, idempotency: idempotency)
            rows.wrote(session.id) { row in
                // A conflict or a missing row means the cached row is not what SQLite has: drop it.
                guard outcome == .saved else { return false }
                let lastUsed = max(row.lastUsed, session.lastUsed)
                row = session
                row.lastUsed = lastUsed
                return true
            }
            if outcome == .saved && session.revision != expectedRevision {
                writer.groupChanges.append((session.id, .saved(revision: session.revision)))
            }
            return outcome
        }
        switch outcome {
        case .notFound: throw StoreError.notFound
        case .conflict(let current): throw StoreError.conflict(currentRevision: current)
        case .saved: return
        }
    }

    public func touch(id: String, now: Int64) throws {
        let found = try write { writer in
            let found = try writer.touch(id: id, now: now)
            rows.wrote(id) { row in
                row.lastUsed = max(row.lastUsed, now)
                return found
            }
            return found
        }
        if !found { throw StoreError.notFound }
    }

    public func delete(id: String) throws -> Bool {
        try write { writer -> Bool in
            let removed = try writer.delete(id: id)
            rows.wrote(id)
            if removed {
                storedCount.subtract(1, ordering: .relaxed)
                writer.groupChanges.append((id, .deleted))
            }
            return removed
        }
    }

    public func idempotencyRecord(sessionID: String, key: String, now: Int64) throws -> IdempotencyRecord? {
        guard let record = try withReader({ try $0.idempotencyRecord(sessionID: sessionID, key: key) }),
            !configuration.isExpired(createdAt: record.createdAt, now: now)
        else { return nil }
        return record
    }

    public func expire(now: Int64) throws -> Int {
        try write { writer in try expireLocked(writer, now: now) }
    }

    public func count(now: Int64) throws -> Int {
        storedCount.load(ordering: .relaxed)
    }

    public func ping() throws {
        try withReader { try $0.ping() }
    }

    // MARK: Internals

    private enum CreateOutcome: Sendable {
        case created, full, duplicate
    }

    private final class ReaderSlot: Sendable {
        let reader: Mutex<SQLiteReader>
        init(_ reader: consuming sending SQLiteReader) {
            self.reader = Mutex(reader)
        }
    }

    /// Runs `body` on a free reader (round-robin, skipping busy ones; waits if all are busy).
    /// While a group is open, what it wrote is not committed yet: then the read goes through the
    /// writing connection, which sees it.
    private func withReader<T: Sendable>(_ body: (SQLiteReader) throws -> T) throws -> T {
        if groupIsOpen.load(ordering: .sequentiallyConsistent) {
            return try writer.withLock { writer in try body(writer.ownReads) }
        }
        let start = Int(nextReader.wrappingAdd(1, ordering: .relaxed).oldValue % UInt(readers.count))
        for offset in 0..<readers.count {
            let slot = readers[(start + offset) % readers.count]
            if let result = try slot.reader.withLockIfAvailable({ reader in try body(reader) }) {
                return result
            }
        }
        return try readers[start].reader.withLock { reader in try body(reader) }
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
            for id in expired {
                rows.wrote(id)
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

    /// The thread-specific mark of `deferCommitsOnCurrentThread()`: the store the thread defers for.
    private enum DeferringThread {
        static let key: pthread_key_t = {
            var key = pthread_key_t()
            precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
            return key
        }()
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
