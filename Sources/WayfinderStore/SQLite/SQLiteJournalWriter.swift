import CSQLite

/// The journal's writes on the writing connection, inside whatever transaction the caller (the
/// store's group) has open, so an entry is committed or rolled back with the state it records.
///
/// The `journal` table has no index: each session's row holds its window (an
/// `SQLiteJournalWindow`: the rowids, revisions and sizes of the entries it keeps). Appending is
/// two steps around the session's compare-and-set: ``prepare(_:sessionID:maxEntries:maxBytes:)``
/// makes the new window (the caller writes it with the session's row, in the same `UPDATE`), and,
/// if the row was written, ``commit(_:)`` inserts the entry as the table's newest row. An index
/// on (session, revision) would cost one more page written per trigger, at a random place in the
/// file; the window rides in the page the save writes anyway.
///
/// Entries that leave a window (the bounds, a deleted or expired session) stay in the table until
/// ``sweep()`` — offered every group — deletes them, walking the table in rowid order from where it
/// stopped, two rows per entry that left (two per entry appended while, after opening, it is not
/// known whether any wait): the oldest entries sit together at the front, so once sessions reach
/// their bounds the sweep deletes runs of neighbours, each run with one statement, rather than
/// one row per page. Entries dropped by the bounds wait until the walk has ``walkBatch`` rows to
/// go: a group of one trigger (one connection) would otherwise rewrite the same few pages in
/// every commit; a deleted or expired session, or a rollback, has the next group walk at once.
///
/// Windows are remembered after their first use (at most `windowCapacity` sessions; none for a
/// file other processes write too) and forgotten whenever a group rolls back or sessions expire,
/// so they never disagree with the file.
///
/// - Important: used only by `SQLiteWriter`, under the store's writer lock.
final class SQLiteJournalWriter: @unchecked Sendable {
    /// A prepared append: the window to store with the session, and the entry to insert once
    /// the session's row is written.
    struct Pending {
        let sessionID: String
        let entry: JournalEntry
        let rowid: Int64
        let window: SQLiteJournalWindow
        let dropped: Int
    }

    private let selectWindow: SQLiteStatement
    private let selectNextRowid: SQLiteStatement
    private let insert: SQLiteStatement
    private let selectAfter: SQLiteStatement
    private let deleteRange: SQLiteStatement
    private var windows: [String: SQLiteJournalWindow] = [:]
    private let windowCapacity: Int
    /// The rowid the next entry gets (nil: read it from the file first).
    private var nextRowid: Int64?
    /// Rows to walk in the next sweep: grows with each entry appended.
    private var sweepBudget = 0
    /// Entries known to have left a window and not yet swept; `Int.max` while unknown.
    private var waiting = Int.max
    /// Where the sweep continues (rowids after it), and whether this pass found anything to delete.
    private var sweepCursor: Int64 = 0
    private var sweepPassDeleted = false
    /// Whether the next sweep walks whatever its budget (a session was deleted).
    private var sweepSoon = false
    /// The most rows one sweep walks (it runs inside a group, before the commit).
    private static let maxSweep = 4_096
    /// The fewest rows a sweep walks for entries the bounds dropped: it waits for them to add up.
    static let walkBatch = 128

    init(connection: SQLiteConnection, windowCapacity: Int = 16_384) throws {
        self.windowCapacity = windowCapacity
        selectWindow = try connection.prepare("SELECT journal FROM sessions WHERE id = ?1")
        selectNextRowid = try connection.prepare("SELECT coalesce(max(rowid), 0) + 1 FROM journal")
        insert = try connection.prepare(
            "INSERT INTO journal (rowid, session_id, revision, record, state) VALUES (?1, ?2, ?3, ?4, ?5)")
        selectAfter = try connection.prepare("SELECT rowid, session_id FROM journal WHERE rowid > ?1 ORDER BY rowid LIMIT ?2")
        deleteRange = try connection.prepare("DELETE FROM journal WHERE rowid BETWEEN ?1 AND ?2")
    }

    /// The window `sessionID` gets with `entry` appended and the bounds applied (the session's
    /// current window read from the file unless remembered). `isNew`: the session has no row yet.
    func prepare(_ entry: JournalEntry, sessionID: String, isNew: Bool = false, maxEntries: Int, maxBytes: Int) throws -> Pending {
        let rowid = try nextRowid ?? readNextRowid()
        nextRowid = rowid
        var window = isNew ? SQLiteJournalWindow() : try windows[sessionID] ?? read(sessionID) ?? SQLiteJournalWindow()
        let dropped = window.append(.init(rowid: rowid, revision: entry.revision, size: entry.size), maxEntries: maxEntries, maxBytes: maxBytes)
        return Pending(sessionID: sessionID, entry: entry, rowid: rowid, window: window, dropped: dropped)
    }

    /// Inserts the prepared entry (its session's row, with the window, was just written).
    func commit(_ pending: Pending) throws {
        do {
            defer { insert.reset() }
            try insert.bind(1, pending.rowid)
            try insert.bind(2, pending.sessionID)
            try insert.bind(3, pending.entry.revision)
            try insert.bind(4, pending.entry.record)
            try insert.bind(5, pending.entry.state)
            try insert.run()
        }
        nextRowid = windowCapacity > 0 ? pending.rowid + 1 : nil
        // While it is not known whether entries wait (after opening), the sweep walks faster
        // than the table grows, so its pass ends; otherwise it walks for the entries dropped.
        if waiting == Int.max { sweepBudget = min(sweepBudget + 2, Self.maxSweep) }
        if pending.dropped > 0 { noteLeft(pending.dropped) }
        guard windowCapacity > 0 else { return }
        if windows.count >= windowCapacity { windows.removeAll(keepingCapacity: true) }
        windows[pending.sessionID] = pending.window
    }

    /// Walks the rows earned since the last walk (two per entry that left), on from where it
    /// stopped (and from the start again at the end, within the same share), and deletes those no
    /// window keeps. Does nothing while fewer than ``walkBatch`` rows are earned, unless a session
    /// was deleted or it is not known what waits (after opening, a rollback or an expiry).
    func sweep() throws {
        guard waiting > 0 else {
            sweepBudget = 0
            return
        }
        guard sweepBudget >= Self.walkBatch || sweepSoon || waiting == Int.max else { return }
        sweepSoon = false
        var remaining = min(sweepBudget, Self.maxSweep)
        sweepBudget = 0
        var wrapped = false
        while remaining > 0 {
            let rows = try rows(after: sweepCursor, limit: remaining)
            remaining -= rows.count
            let deleted = try deleteUnlisted(rows)
            if deleted > 0 {
                sweepPassDeleted = true
                if waiting != Int.max { waiting = max(0, waiting - deleted) }
            }
            if remaining == 0, let last = rows.last {
                sweepCursor = last.rowid
                break
            }
            // The end of the table: a whole pass that deleted nothing proves nothing waits.
            if !sweepPassDeleted { waiting = 0 }
            sweepCursor = 0
            sweepPassDeleted = false
            if wrapped || waiting == 0 { break }
            wrapped = true
        }
    }

    private func rows(after cursor: Int64, limit: Int) throws -> [(rowid: Int64, sessionID: String)] {
        defer { selectAfter.reset() }
        try selectAfter.bind(1, cursor)
        try selectAfter.bind(2, limit)
        var rows: [(rowid: Int64, sessionID: String)] = []
        while try selectAfter.step() { rows.append((selectAfter.columnInt64(0), selectAfter.columnText(1))) }
        return rows
    }

    /// Deletes the rows (neighbours in rowid order) that no window lists, a run of them with one
    /// range `DELETE`; returns how many.
    private func deleteUnlisted(_ rows: [(rowid: Int64, sessionID: String)]) throws -> Int {
        var deleted = 0
        var run: (first: Int64, last: Int64)?
        func flush() throws {
            guard let (first, last) = run else { return }
            defer { deleteRange.reset() }
            try deleteRange.bind(1, first)
            try deleteRange.bind(2, last)
            try deleteRange.run()
            run = nil
        }
        for row in rows {
            let window = try windows[row.sessionID] ?? read(row.sessionID)
            if window?.keeps(rowid: row.rowid) == true {
                try flush()
                continue
            }
            run = (run?.first ?? row.rowid, row.rowid)
            deleted += 1
        }
        try flush()
        return deleted
    }

    /// Notes that a session's entries left the journal (the session was deleted).
    func forget(_ sessionID: String) {
        noteLeft(windows.removeValue(forKey: sessionID)?.items.count ?? Int.max)
        sweepSoon = true
    }

    /// Forgets every remembered window and the next rowid, and has the sweep walk a whole pass
    /// (after a rollback, whose deletions did not happen, or when sessions expired, whose entries
    /// now wait for it).
    func forgetWindows() {
        windows.removeAll(keepingCapacity: true)
        nextRowid = nil
        noteLeft(Int.max)
    }

    /// `count` entries left their windows (`Int.max`: an unknown number): the sweep looks for them.
    private func noteLeft(_ count: Int) {
        waiting = count == Int.max || waiting == Int.max ? Int.max : waiting + count
        sweepBudget = min(sweepBudget + (count == Int.max ? 256 : 2 * count), Self.maxSweep)
    }

    private func readNextRowid() throws -> Int64 {
        defer { selectNextRowid.reset() }
        guard try selectNextRowid.step() else { return 1 }
        return selectNextRowid.columnInt64(0)
    }

    /// The session's window as its row has it; nil if the session has no row.
    private func read(_ sessionID: String) throws -> SQLiteJournalWindow? {
        defer { selectWindow.reset() }
        try selectWindow.bind(1, sessionID)
        guard try selectWindow.step() else { return nil }
        guard let window = SQLiteJournalWindow(encoded: selectWindow.columnBlob(0)) else {
            throw StoreError.unavailable("sqlite: the journal window of session \(sessionID) is corrupt")
        }
        return window
    }
}
