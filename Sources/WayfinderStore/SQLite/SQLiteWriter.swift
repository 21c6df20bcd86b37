import CSQLite

/// The single writing connection of an `SQLiteStore` with its prepared statements.
///
/// SQLite admits one writer at a time anyway; one connection behind the store's `Mutex` avoids
/// `SQLITE_BUSY` between our own threads and lets every statement be prepared once.
///
/// Every write runs inside the store's group transaction (see `SQLiteStore`): the `group…`
/// properties below are its state, touched only with the store's writer lock held.
///
/// - Important: `@unchecked Sendable` because it is only ever used inside the store's writer
///   `Mutex` (which hands it to one thread at a time); it is never shared outside that lock.
final class SQLiteWriter: @unchecked Sendable {
    enum SaveOutcome: Equatable {
        case saved
        case notFound
        case conflict(currentRevision: Int)
        /// The idempotency record's key is in use (nothing was written).
        case keyTaken
    }

    enum DeleteOutcome: Equatable {
        case deleted
        case notFound
        case conflict(currentRevision: Int)
    }

    // Extended result codes; Swift does not import these macros (they are expressions).
    private static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)
    private static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)

    let connection: SQLiteConnection
    private let begin: SQLiteStatement
    private let commit: SQLiteStatement
    private let insertSession: SQLiteStatement
    private let updateSession: SQLiteStatement
    private let updateState: SQLiteStatement
    private let selectRevision: SQLiteStatement
    private let upsertIdempotency: SQLiteStatement
    private let selectIdempotencyCreated: SQLiteStatement
    private let dropAnswers: SQLiteStatement
    private let trimIdempotency: SQLiteStatement
    private let touchSession: SQLiteStatement
    private let deleteSession: SQLiteStatement
    private let deleteSessionAtRevision: SQLiteStatement
    private let selectExpired: SQLiteStatement
    private let deleteExpired: SQLiteStatement
    private let deleteStaleIdempotency: SQLiteStatement
    private let selectCount: SQLiteStatement
    /// Reads through the writing connection: they see the open group's uncommitted writes.
    let ownReads: SQLiteReader
    /// Appends journal entries in the group.
    let journal: SQLiteJournalWriter

    /// Whether the group transaction is open.
    var groupIsOpen = false
    /// Changes made in the open group, published once it commits (dropped if it rolls back).
    var groupChanges: [(id: String, change: SessionChange)] = []
    /// The sequence number of the last queued statement run in a group (see `SQLiteStore`).
    var groupSeq: UInt64 = 0
    /// Counts the groups opened: the number of the open (or last) group.
    var groupGeneration: UInt64 = 0

    /// - Parameters:
    ///   - log: where the journal's entries go.
    ///   - shared: other processes write the file too: the journal remembers no window.
    init(connection: SQLiteConnection, log: SQLiteEntryLog, shared: Bool = false) throws {
        self.connection = connection
        ownReads = try SQLiteReader(connection: connection, log: log, seesPending: true)
        journal = try SQLiteJournalWriter(connection: connection, log: log, windowCapacity: shared ? 0 : 16_384)
        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
        insertSession = try connection.prepare(
            "INSERT INTO sessions (id, token_hash, revision, state, last_used, journal, user) VALUES (?1, ?2, ?3, ?4, ?5, ?7, ?8)")
        updateSession = try connection.prepare(
            """
            UPDATE sessions SET token_hash = ?2, revision = ?3, state = ?4, last_used = max(last_used, ?5),
                journal = coalesce(?7, journal), user = ?8
            WHERE id = ?1 AND revision = ?6
            """)
        // The same without `last_used` and `user` in the SET list, so their indexes are left
        // alone: one page written per commit instead of three. (A save that changes the user, rare,
        // takes the statement above.)
        updateState = try connection.prepare(
            """
            UPDATE sessions SET token_hash = ?2, revision = ?3, state = ?4, journal = coalesce(?7, journal)
            WHERE id = ?1 AND revision = ?6 AND last_used >= ?5 AND user IS ?8
            """)
        selectRevision = try connection.prepare("SELECT revision FROM sessions WHERE id = ?1")
        upsertIdempotency = try connection.prepare(
            """
            INSERT OR REPLACE INTO idempotency
                (session_id, key, fingerprint, status, headers, body, created_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        selectIdempotencyCreated = try connection.prepare(
            "SELECT created_at FROM idempotency WHERE session_id = ?1 AND key = ?2")
        // Keeps the session's `?2` newest records (a primary-key range: one session's rows).
        trimIdempotency = try connection.prepare(
            """
            DELETE FROM idempotency WHERE session_id = ?1 AND rowid NOT IN
                (SELECT rowid FROM idempotency WHERE session_id = ?1 ORDER BY created_at DESC, rowid DESC LIMIT ?2)
            """)
        // Drops the answers of the session's records past the `?2` newest bytes of answers
        // (newest first): `headers` becomes `HeaderCoding.dropped`, which no fields encode to.
        dropAnswers = try connection.prepare(
            """
            UPDATE idempotency SET headers = x'00', body = x'' WHERE session_id = ?1 AND headers != x'00' AND key IN
                (SELECT key FROM (SELECT key, sum(length(headers) + length(body))
                    OVER (ORDER BY created_at DESC, rowid DESC) AS total FROM idempotency WHERE session_id = ?1)
                 WHERE total > ?2)
            """)
        touchSession = try connection.prepare(
            "UPDATE sessions SET last_used = max(last_used, ?2) WHERE id = ?1")
        deleteSession = try connection.prepare("DELETE FROM sessions WHERE id = ?1")
        deleteSessionAtRevision = try connection.prepare("DELETE FROM sessions WHERE id = ?1 AND revision = ?2")
        selectExpired = try connection.prepare("SELECT id, journal FROM sessions WHERE last_used < ?1")
        deleteExpired = try connection.prepare("DELETE FROM sessions WHERE last_used < ?1")
        deleteStaleIdempotency = try connection.prepare("DELETE FROM idempotency WHERE created_at < ?1")
        selectCount = try connection.prepare("SELECT value FROM counters WHERE name = 'sessions'")
    }

    /// Opens the group transaction (`BEGIN IMMEDIATE`).
    func beginGroup() throws {
        defer { begin.reset() }
        try begin.run()
        groupIsOpen = true
        groupGeneration += 1
    }

    /// Commits the group transaction. On an error the transaction may still be open: the caller
    /// rolls it back (`SQLiteConnection.rollback(after:)`).
    func commitGroup() throws {
        defer { commit.reset() }
        try commit.run()
        groupIsOpen = false
    }

    /// Inserts a session (with its journal window, if it has one); false if the id exists.
    func insert(_ session: StoredSession, journalWindow: [UInt8]? = nil) throws -> Bool {
        defer { insertSession.reset() }
        try bindRow(insertSession, session)
        if let journalWindow { try insertSession.bind(7, journalWindow) }
        let rc = insertSession.stepCode()
        switch rc {
        case SQLITE_DONE: return true
        case Self.constraintPrimaryKey, Self.constraintUnique: return false
        default: throw insertSession.failure(rc)
        }
    }

    /// Binds a row's columns as parameters 1 to 5 and 8, the user (left unbound, NULL, for none;
    /// the insert and both updates number them alike; 7 is the journal window, NULL for none or,
    /// in an update, for the one stored).
    private func bindRow(_ statement: SQLiteStatement, _ session: StoredSession) throws {
        try statement.bind(1, session.id)
        try statement.bind(2, session.tokenHash)
        try statement.bind(3, session.revision)
        try statement.bind(4, session.state)
        try statement.bind(5, session.lastUsed)
        if let user = session.user { try statement.bind(8, user) }
    }

    /// The compare-and-set: one `UPDATE ... WHERE id = ? AND revision = ?`, then `changes()`;
    /// with `idempotency`, the record too (atomic with the update: both are in the group, and a
    /// failure rolls the whole group back), unless its key holds a record created at or after
    /// `keyCutoff` (then nothing is written), and only the session's `keep` newest records stay,
    /// with their answers while those sum to at most `answerBudget` bytes (newest first);
    /// `answersDropped` counts the answers this save dropped.
    /// A `journalWindow` replaces the stored one in the same `UPDATE`.
    func save(
        _ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?,
        keyCutoff: Int64 = .min, keep: Int = .max, answerBudget: Int = .max, answersDropped: inout Int, journalWindow: [UInt8]? = nil
    ) throws -> SaveOutcome {
        if let idempotency {
            // Checked first but reported after the revision, as the other stores do.
            let taken = try keyCreatedAt(sessionID: session.id, key: idempotency.key).map { $0 >= keyCutoff } ?? false
            if taken {
                guard let current = try revision(of: session.id) else { return .notFound }
                return current == expectedRevision ? .keyTaken : .conflict(currentRevision: current)
            }
        }
        let outcome = try update(session, expectedRevision: expectedRevision, journalWindow: journalWindow)
        if outcome == .saved, let idempotency {
            try upsert(idempotency, sessionID: session.id)
            try trim(sessionID: session.id, keep: keep)
            answersDropped = try dropAnswers(sessionID: session.id, budget: answerBudget)
        }
        return outcome
    }

    private func keyCreatedAt(sessionID: String, key: String) throws -> Int64? {
        defer { selectIdempotencyCreated.reset() }
        try selectIdempotencyCreated.bind(1, sessionID)
        try selectIdempotencyCreated.bind(2, key)
        guard try selectIdempotencyCreated.step() else { return nil }
        return selectIdempotencyCreated.columnInt64(0)
    }

    private func trim(sessionID: String, keep: Int) throws {
        defer { trimIdempotency.reset() }
        try trimIdempotency.bind(1, sessionID)
        try trimIdempotency.bind(2, keep)
        try trimIdempotency.run()
    }

    private func dropAnswers(sessionID: String, budget: Int) throws -> Int {
        defer { dropAnswers.reset() }
        try dropAnswers.bind(1, sessionID)
        try dropAnswers.bind(2, budget)
        try dropAnswers.run()
        return connection.changes
    }

    private func update(_ session: StoredSession, expectedRevision: Int, journalWindow: [UInt8]?) throws -> SaveOutcome {
        // Most saves keep `last_used` (callers refresh it at most every ttl/100): try the
        // statement that does not touch the index first. Both number their parameters alike.
        func changedOneRow(_ statement: SQLiteStatement) throws -> Bool {
            defer { statement.reset() }
            try bindRow(statement, session)
            try statement.bind(6, expectedRevision)
            if let journalWindow { try statement.bind(7, journalWindow) }
            try statement.run()
            return connection.changes == 1
        }
        if try changedOneRow(updateState) || changedOneRow(updateSession) { return .saved }
        guard let current = try revision(of: session.id) else { return .notFound }
        return .conflict(currentRevision: current)
    }

    private func revision(of id: String) throws -> Int? {
        defer { selectRevision.reset() }
        try selectRevision.bind(1, id)
        guard try selectRevision.step() else { return nil }
        return Int(selectRevision.columnInt64(0))
    }

    private func upsert(_ record: IdempotencyRecord, sessionID: String) throws {
        defer { upsertIdempotency.reset() }
        try upsertIdempotency.bind(1, sessionID)
        try upsertIdempotency.bind(2, record.key)
        try upsertIdempotency.bind(3, record.fingerprint)
        try upsertIdempotency.bind(4, record.status)
        try upsertIdempotency.bind(5, HeaderCoding.encode(record.headers))
        try upsertIdempotency.bind(6, record.body)
        try upsertIdempotency.bind(7, record.createdAt)
        try upsertIdempotency.run()
    }

    /// Moves `last_used` forward; false if the session does not exist.
    func touch(id: String, now: Int64) throws -> Bool {
        defer { touchSession.reset() }
        try touchSession.bind(1, id)
        try touchSession.bind(2, now)
        try touchSession.run()
        return connection.changes == 1
    }

    /// Deletes a session (a trigger deletes its idempotency records); with `expectedRevision`,
    /// only at that revision (one statement: the check and the delete cannot be split).
    func delete(id: String, expectedRevision: Int?) throws -> DeleteOutcome {
        let statement = expectedRevision == nil ? deleteSession : deleteSessionAtRevision
        do {
            defer { statement.reset() }
            try statement.bind(1, id)
            if let expectedRevision { try statement.bind(2, expectedRevision) }
            try statement.run()
            if connection.changes == 1 { return .deleted }
        }
        guard expectedRevision != nil, let current = try revision(of: id) else { return .notFound }
        return .conflict(currentRevision: current)
    }

    /// Deletes sessions last used before `sessionCutoff` and idempotency records created before
    /// `recordCutoff`; returns the deleted sessions' ids and journal windows.
    func expire(sessionCutoff: Int64, recordCutoff: Int64) throws -> [(id: String, window: SQLiteJournalWindow?)] {
        do {
            var ids: [(id: String, window: SQLiteJournalWindow?)] = []
            do {
                defer { selectExpired.reset() }
                try selectExpired.bind(1, sessionCutoff)
                while try selectExpired.step() {
                    ids.append((selectExpired.columnText(0), SQLiteJournalWindow(encoded: selectExpired.columnBlob(1))))
                }
            }
            if !ids.isEmpty {
                defer { deleteExpired.reset() }
                try deleteExpired.bind(1, sessionCutoff)
                try deleteExpired.run()
            }
            do {
                defer { deleteStaleIdempotency.reset() }
                try deleteStaleIdempotency.bind(1, recordCutoff)
                try deleteStaleIdempotency.run()
            }
            return ids
        }
    }

    /// The maintained session count (one row, kept by triggers).
    func storedCount() throws -> Int {
        defer { selectCount.reset() }
        guard try selectCount.step() else {
            throw StoreError.unavailable("sqlite: the counters row for sessions is missing")
        }
        return Int(selectCount.columnInt64(0))
    }
}
