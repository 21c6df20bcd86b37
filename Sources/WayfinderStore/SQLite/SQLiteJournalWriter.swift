import CSQLite

/// The journal's writes on the writing connection: appending an entry and dropping the oldest
/// past the bounds, inside whatever transaction the caller (the store's group) has open, so an
/// entry is committed or rolled back with the state it records.
///
/// Each session's window (the revisions it keeps and their sizes) is remembered after its first
/// append, so an append is one insert and, at the bounds, one range delete — no read. The memory
/// holds at most `windowCapacity` sessions (it starts over past that; none for a file other
/// processes write too) and is forgotten whenever a group rolls back, so it never disagrees with
/// the file.
///
/// - Important: used only by `SQLiteWriter`, under the store's writer lock.
final class SQLiteJournalWriter: @unchecked Sendable {
    private struct Window {
        var revisions: [Int] = []
        var sizes: [Int] = []
        var bytes = 0
    }

    private let selectWindow: SQLiteStatement
    private let insert: SQLiteStatement
    private let deleteUpTo: SQLiteStatement
    private var windows: [String: Window] = [:]
    private let windowCapacity: Int

    init(connection: SQLiteConnection, windowCapacity: Int = 16_384) throws {
        self.windowCapacity = windowCapacity
        selectWindow = try connection.prepare(
            "SELECT revision, length(record) + length(state) FROM journal WHERE session_id = ?1 ORDER BY revision")
        insert = try connection.prepare(
            "INSERT OR REPLACE INTO journal (session_id, revision, record, state) VALUES (?1, ?2, ?3, ?4)")
        deleteUpTo = try connection.prepare("DELETE FROM journal WHERE session_id = ?1 AND revision <= ?2")
    }

    /// Appends `entry` to the session's journal, then drops its oldest entries while more than
    /// `maxEntries` are kept or they hold more than `maxBytes` (never the one just appended).
    func append(_ entry: JournalEntry, sessionID: String, maxEntries: Int, maxBytes: Int) throws {
        var window = try windows.removeValue(forKey: sessionID) ?? read(sessionID)
        do {
            defer { insert.reset() }
            try insert.bind(1, sessionID)
            try insert.bind(2, entry.revision)
            try insert.bind(3, entry.record)
            try insert.bind(4, entry.state)
            try insert.run()
        }
        if let last = window.revisions.last, last >= entry.revision {
            window = try read(sessionID)  // a revision written again: read what the file has
        } else {
            window.revisions.append(entry.revision)
            window.sizes.append(entry.size)
            window.bytes += entry.size
        }
        var drop = 0
        while window.revisions.count - drop > 1, window.revisions.count - drop > maxEntries || window.bytes > maxBytes {
            window.bytes -= window.sizes[drop]
            drop += 1
        }
        if drop > 0 {
            defer { deleteUpTo.reset() }
            try deleteUpTo.bind(1, sessionID)
            try deleteUpTo.bind(2, window.revisions[drop - 1])
            try deleteUpTo.run()
            window.revisions.removeFirst(drop)
            window.sizes.removeFirst(drop)
        }
        guard windowCapacity > 0 else { return }
        if windows.count >= windowCapacity { windows.removeAll(keepingCapacity: true) }
        windows[sessionID] = window
    }

    /// Forgets every remembered window (after a rollback, or when sessions expire).
    func forgetWindows() {
        windows.removeAll(keepingCapacity: true)
    }

    /// Forgets the window of a deleted session.
    func forget(_ sessionID: String) {
        windows[sessionID] = nil
    }

    /// The session's window as the file has it.
    private func read(_ sessionID: String) throws -> Window {
        defer { selectWindow.reset() }
        try selectWindow.bind(1, sessionID)
        var window = Window()
        while try selectWindow.step() {
            let size = Int(selectWindow.columnInt64(1))
            window.revisions.append(Int(selectWindow.columnInt64(0)))
            window.sizes.append(size)
            window.bytes += size
        }
        return window
    }
}
