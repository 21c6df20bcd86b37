import CSQLite

/// The journal's writes on the writing connection: appending an entry and dropping the oldest
/// past the bounds, inside whatever transaction the caller (the store's group) has open, so an
/// entry is committed or rolled back with the state it records.
///
/// - Important: used only by `SQLiteWriter`, under the store's writer lock.
final class SQLiteJournalWriter: @unchecked Sendable {
    private let connection: SQLiteConnection
    private let selectNewest: SQLiteStatement
    private let selectOldest: SQLiteStatement
    private let insert: SQLiteStatement
    private let deleteOne: SQLiteStatement

    init(connection: SQLiteConnection) throws {
        self.connection = connection
        selectNewest = try connection.prepare(
            "SELECT seq, start + length(record) + length(state) FROM journal WHERE session_id = ?1 ORDER BY revision DESC LIMIT 1")
        selectOldest = try connection.prepare(
            "SELECT revision, seq, start FROM journal WHERE session_id = ?1 ORDER BY revision LIMIT 1")
        insert = try connection.prepare(
            "INSERT OR REPLACE INTO journal (session_id, revision, seq, start, record, state) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        deleteOne = try connection.prepare("DELETE FROM journal WHERE session_id = ?1 AND revision = ?2")
    }

    /// Appends `entry` to the session's journal, then drops its oldest entries while more than
    /// `maxEntries` are kept or they hold more than `maxBytes` (never the one just appended).
    func append(_ entry: JournalEntry, sessionID: String, maxEntries: Int, maxBytes: Int) throws {
        var seq: Int64 = 0
        var end: Int64 = 0
        do {
            defer { selectNewest.reset() }
            try selectNewest.bind(1, sessionID)
            if try selectNewest.step() {
                seq = selectNewest.columnInt64(0)
                end = selectNewest.columnInt64(1)
            }
        }
        let newSeq = seq + 1
        let newEnd = end + Int64(entry.size)
        do {
            defer { insert.reset() }
            try insert.bind(1, sessionID)
            try insert.bind(2, entry.revision)
            try insert.bind(3, newSeq)
            try insert.bind(4, end)
            try insert.bind(5, entry.record)
            try insert.bind(6, entry.state)
            try insert.run()
        }
        while true {
            let oldest: (revision: Int64, seq: Int64, start: Int64)
            do {
                defer { selectOldest.reset() }
                try selectOldest.bind(1, sessionID)
                guard try selectOldest.step() else { return }
                oldest = (selectOldest.columnInt64(0), selectOldest.columnInt64(1), selectOldest.columnInt64(2))
            }
            let kept = newSeq - oldest.seq + 1
            guard oldest.revision != Int64(entry.revision), kept > Int64(maxEntries) || newEnd - oldest.start > Int64(maxBytes) else {
                return
            }
            defer { deleteOne.reset() }
            try deleteOne.bind(1, sessionID)
            try deleteOne.bind(2, oldest.revision)
            try deleteOne.run()
        }
    }
}
