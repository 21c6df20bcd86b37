/// A reading connection of an `SQLiteStore` with its prepared statements.
///
/// In WAL mode readers never block the writer nor each other; each query runs in its own read
/// transaction and so sees every commit that returned before it started.
final class SQLiteReader {
    private let connection: SQLiteConnection
    private let loadSession: SQLiteStatement
    private let loadIdempotency: SQLiteStatement
    private let selectOne: SQLiteStatement
    private let loadWindow: SQLiteStatement
    private let loadJournal: SQLiteStatement

    init(connection: SQLiteConnection) throws {
        self.connection = connection
        loadSession = try connection.prepare(
            "SELECT token_hash, revision, state, last_used FROM sessions WHERE id = ?1")
        loadIdempotency = try connection.prepare(
            """
            SELECT fingerprint, status, headers, body, created_at FROM idempotency
            WHERE session_id = ?1 AND key = ?2
            """)
        selectOne = try connection.prepare("SELECT value FROM counters WHERE name = 'sessions'")
        loadWindow = try connection.prepare("SELECT journal FROM sessions WHERE id = ?1")
        loadJournal = try connection.prepare("SELECT revision, record, state FROM journal WHERE rowid = ?1")
    }

    /// The session's journal entries from revision `since`, oldest first: the rows its window
    /// lists (see `SQLiteJournalWindow`), read in one read transaction with the window.
    func journal(id: String, since: Int) throws -> [JournalEntry] {
        let ownsTransaction = connection.isAutocommit
        if ownsTransaction { try connection.execute("BEGIN") }
        defer { if ownsTransaction { _ = try? connection.execute("COMMIT") } }
        let window: SQLiteJournalWindow
        do {
            defer { loadWindow.reset() }
            try loadWindow.bind(1, id)
            guard try loadWindow.step() else { return [] }
            guard let decoded = SQLiteJournalWindow(encoded: loadWindow.columnBlob(0)) else {
                throw StoreError.unavailable("sqlite: the journal window of session \(id) is corrupt")
            }
            window = decoded
        }
        var entries: [JournalEntry] = []
        for item in window.items where item.revision >= since {
            defer { loadJournal.reset() }
            try loadJournal.bind(1, item.rowid)
            guard try loadJournal.step() else {
                throw StoreError.unavailable("sqlite: journal entry \(item.revision) of session \(id) is missing")
            }
            entries.append(JournalEntry(
                revision: Int(loadJournal.columnInt64(0)), record: loadJournal.columnBlob(1), state: loadJournal.columnBlob(2)))
        }
        return entries
    }

    func session(id: String) throws -> StoredSession? {
        defer { loadSession.reset() }
        try loadSession.bind(1, id)
        guard try loadSession.step() else { return nil }
        return StoredSession(
            id: id,
            tokenHash: loadSession.columnBlob(0),
            revision: Int(loadSession.columnInt64(1)),
            state: loadSession.columnBlob(2),
            lastUsed: loadSession.columnInt64(3))
    }

    func idempotencyRecord(sessionID: String, key: String) throws -> IdempotencyRecord? {
        defer { loadIdempotency.reset() }
        try loadIdempotency.bind(1, sessionID)
        try loadIdempotency.bind(2, key)
        guard try loadIdempotency.step() else { return nil }
        return IdempotencyRecord(
            sessionID: sessionID,
            key: key,
            fingerprint: loadIdempotency.columnBlob(0),
            status: Int(loadIdempotency.columnInt64(1)),
            headers: try HeaderCoding.decode(loadIdempotency.columnBlob(2)),
            body: loadIdempotency.columnBlob(3),
            createdAt: loadIdempotency.columnInt64(4))
    }

    /// Up to `limit` sessions whose state holds the pending-effects marker (a scan: at start).
    func sessionsWithPendingEffects(limit: Int) throws -> [String] {
        let statement = try connection.prepare("SELECT id FROM sessions WHERE instr(state, ?1) > 0 LIMIT ?2")
        try statement.bind(1, PendingEffects.marker)
        try statement.bind(2, limit)
        var ids: [String] = []
        while try statement.step() { ids.append(statement.columnText(0)) }
        return ids
    }

    /// Reads one row: proves the file is readable and the schema is in place.
    func ping() throws {
        defer { selectOne.reset() }
        guard try selectOne.step() else {
            throw StoreError.unavailable("sqlite: the counters row for sessions is missing")
        }
    }
}
