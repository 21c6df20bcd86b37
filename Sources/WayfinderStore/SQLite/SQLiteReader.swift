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
    private let selectOfUser: SQLiteStatement
    private let log: SQLiteEntryLog
    private let seesPending: Bool

    /// A reader of `connection`; the journal's entries are read from `log`, with its pending
    /// entries too if `seesPending` (the writing connection's reader, used under the writer lock).
    init(connection: SQLiteConnection, log: SQLiteEntryLog, seesPending: Bool = false) throws {
        self.connection = connection
        self.log = log
        self.seesPending = seesPending
        loadSession = try connection.prepare(
            "SELECT token_hash, revision, state, last_used, user FROM sessions WHERE id = ?1")
        loadIdempotency = try connection.prepare(
            """
            SELECT fingerprint, status, headers, body, created_at FROM idempotency
            WHERE session_id = ?1 AND key = ?2
            """)
        selectOne = try connection.prepare("SELECT value FROM counters WHERE name = 'sessions'")
        loadWindow = try connection.prepare("SELECT journal FROM sessions WHERE id = ?1")
        // A range of the index `sessions_by_user`, already in id order.
        selectOfUser = try connection.prepare(
            "SELECT id FROM sessions WHERE user = ?1 AND last_used >= ?2 ORDER BY id LIMIT ?3")
    }

    /// The session's journal entries from revision `since`, oldest first: those its window lists
    /// (see `SQLiteJournalWindow`), read from the entry log. If an entry's segment is gone (the
    /// log's collector moved it forward after the window was read), the window is read again.
    func journal(id: String, since: Int) throws -> [JournalEntry] {
        for _ in 0..<3 {
            if let entries = try journalOnce(id: id, since: since) { return entries }
            guard connection.isAutocommit else { break }
        }
        throw StoreError.unavailable("sqlite: a journal entry of session \(id) is missing from \(log.directory)")
    }

    /// The entries, or nil if one is not where its window says.
    private func journalOnce(id: String, since: Int) throws -> [JournalEntry]? {
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
        var files = SQLiteEntryLog.SegmentFiles()
        var entries: [JournalEntry] = []
        for item in window.items where item.revision >= since {
            let found = try seesPending ? log.readOwn(at: item.position, files: &files) : log.read(at: item.position, files: &files)
            guard let found, found.sessionID == id, found.entry.revision == item.revision else { return nil }
            entries.append(found.entry)
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
            lastUsed: loadSession.columnInt64(3),
            user: loadSession.columnOptionalText(4))
    }

    /// Up to `limit` ids of the sessions of `user` last used at or after `cutoff`, sorted.
    func sessions(ofUser user: String, cutoff: Int64, limit: Int) throws -> [String] {
        defer { selectOfUser.reset() }
        try selectOfUser.bind(1, user)
        try selectOfUser.bind(2, cutoff)
        try selectOfUser.bind(3, limit)
        var ids: [String] = []
        while try selectOfUser.step() { ids.append(selectOfUser.columnText(0)) }
        return ids
    }

    func idempotencyRecord(sessionID: String, key: String) throws -> IdempotencyRecord? {
        defer { loadIdempotency.reset() }
        try loadIdempotency.bind(1, sessionID)
        try loadIdempotency.bind(2, key)
        guard try loadIdempotency.step() else { return nil }
        let headers = loadIdempotency.columnBlob(2)
        let dropped = headers == HeaderCoding.dropped
        return IdempotencyRecord(
            sessionID: sessionID,
            key: key,
            fingerprint: loadIdempotency.columnBlob(0),
            status: Int(loadIdempotency.columnInt64(1)),
            headers: dropped ? [] : try HeaderCoding.decode(headers),
            body: loadIdempotency.columnBlob(3),
            createdAt: loadIdempotency.columnInt64(4),
            answerDropped: dropped)
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
