import CSQLite

/// The journal's writes, inside whatever transaction the caller (the store's group) has open, so
/// an entry is committed or rolled back with the state it records.
///
/// Entries go to the entry log beside the database (`SQLiteEntryLog`), not into its pages; each
/// session's row holds its window (an `SQLiteJournalWindow`: the positions, revisions and sizes of
/// the entries it keeps). Appending is two steps around the session's compare-and-set:
/// ``prepare(_:sessionID:isNew:maxEntries:maxBytes:)`` makes the new window (the caller writes it
/// with the session's row, in the same `UPDATE`), and, if the row was written, ``commit(_:)``
/// appends the entry to the log's buffer, which ``flushLog()`` writes before the group commits.
///
/// The collector. What each segment holds is counted in entry bytes: written to it, and still in
/// some window (the entries that leave a window, by the bounds, a deleted or an expired session,
/// are subtracted). A sealed segment nothing is left in is deleted once the group commits. When
/// more than half of what the counted segments hold has left them, the sealed one with the least
/// left in it is walked and its live entries are copied to the head of the log, their windows
/// updated in the group, before it is deleted; so the log stays within about twice what the
/// windows keep, and entries that will soon leave anyway (the bound drops them as their sessions
/// go on) are not copied for nothing. Segments whose count is not known (on disk when the store opened, written by
/// another process, or after a rollback) are walked once to count them. ``sweep()``, offered every
/// group, walks two bytes for every byte appended, in runs of at least ``walkBatch``.
///
/// Windows are remembered after their first use (at most `windowCapacity` sessions; none for a
/// file other processes write too) and forgotten whenever a group rolls back, so they never
/// disagree with the file.
///
/// - Important: used only by `SQLiteWriter`, under the store's writer lock.
final class SQLiteJournalWriter: @unchecked Sendable {
    /// A prepared append: the window to store with the session, and the entry to append once
    /// the session's row is written.
    struct Pending {
        let sessionID: String
        let entry: JournalEntry
        let position: Int64
        /// The bytes the entry takes in the log.
        let length: Int
        let window: SQLiteJournalWindow
        /// The entries that left the window.
        let left: [SQLiteJournalWindow.Item]
    }

    /// Entry bytes a segment holds (each entry counted one byte more than its size, so that an
    /// empty one counts too): written to it, and still named by a window.
    private struct Usage {
        var written = 0
        var live = 0
    }

    /// A walk through a sealed segment: counting what is live in it, or moving it forward.
    private struct Walk {
        let segment: UInt32
        let moves: Bool
        var offset = 0
        var counted = Usage()
    }

    let log: SQLiteEntryLog
    private let selectWindow: SQLiteStatement
    private let updateWindow: SQLiteStatement
    private var windows: [String: SQLiteJournalWindow] = [:]
    private let windowCapacity: Int
    /// Segments counted (every one this process started since the last rollback, and those walked).
    private var usage: [UInt32: Usage] = [:]
    /// Segments on disk not counted, oldest first.
    private var uncounted: [UInt32]
    /// The newest segment this process started (it is counted from its first byte).
    private var started: UInt32
    private var walk: Walk?
    /// Bytes to walk in the next sweep: grows with each entry appended.
    private var budget = 0
    /// Segments to delete once the group commits.
    private var collected: [UInt32] = []
    /// Windows changed by moves in this sweep, written to their rows at its end.
    private var moved: [String: SQLiteJournalWindow] = [:]
    /// The fewest bytes a sweep walks (it waits for them to add up): 64 KiB, or a segment if smaller.
    let walkBatch: Int
    /// The most bytes one sweep walks (it runs inside a group, before the commit).
    private static let maxSweep = 1 << 20

    init(connection: SQLiteConnection, log: SQLiteEntryLog, windowCapacity: Int = 16_384) throws {
        self.log = log
        self.windowCapacity = windowCapacity
        walkBatch = min(64 << 10, log.segmentBytes)
        uncounted = try log.segmentsOnDisk()
        started = log.current
        selectWindow = try connection.prepare("SELECT journal FROM sessions WHERE id = ?1")
        updateWindow = try connection.prepare("UPDATE sessions SET journal = ?2 WHERE id = ?1")
    }

    /// The window `sessionID` gets with `entry` appended and the bounds applied (the session's
    /// current window read from the file unless remembered). `isNew`: the session has no row yet.
    func prepare(_ entry: JournalEntry, sessionID: String, isNew: Bool = false, maxEntries: Int, maxBytes: Int) throws -> Pending {
        let length = SQLiteEntryLog.encodedLength(sessionID: sessionID, entry)
        let position = try log.nextPosition(for: length)
        noteStarted()
        var window = isNew ? SQLiteJournalWindow() : try self.window(of: sessionID) ?? SQLiteJournalWindow()
        var left: [SQLiteJournalWindow.Item] = []
        window.append(.init(position: position, revision: entry.revision, size: entry.size), maxEntries: maxEntries, maxBytes: maxBytes) {
            left.append($0)
        }
        return Pending(sessionID: sessionID, entry: entry, position: position, length: length, window: window, left: left)
    }

    /// Appends the prepared entry to the log (its session's row, with the window, was just written).
    func commit(_ pending: Pending) throws {
        try log.append(pending.entry, sessionID: pending.sessionID)
        add(pending.entry.size, to: pending.position)
        for item in pending.left { subtract(item) }
        budget = min(budget + 2 * pending.length, Self.maxSweep)
        guard windowCapacity > 0 else { return }
        if windows.count >= windowCapacity { windows.removeAll(keepingCapacity: true) }
        windows[pending.sessionID] = pending.window
    }

    /// Writes the entries appended in the group (before its commit).
    func flushLog() throws {
        try log.flush()
    }

    /// The group committed: deletes the segments it left with nothing in them.
    func didCommit() {
        for segment in collected where (try? log.remove(segment)) == nil {
            uncounted.append(segment)
        }
        collected.removeAll()
    }

    /// The session's window (remembered, or read from its row); nil if it has no row.
    func window(of sessionID: String) throws -> SQLiteJournalWindow? {
        if let window = moved[sessionID] ?? windows[sessionID] { return window }
        return try read(sessionID)
    }

    /// A session's entries left the journal (the session was deleted or expired; `window` is
    /// what its row held).
    func forget(_ sessionID: String, window: SQLiteJournalWindow?) {
        windows.removeValue(forKey: sessionID)
        moved.removeValue(forKey: sessionID)
        for item in window?.items ?? [] { subtract(item) }
    }

    /// Forgets every remembered window, the entries not yet written and every segment's count
    /// (after a rollback: what the group did to them did not happen).
    func forgetWindows() {
        windows.removeAll(keepingCapacity: true)
        moved.removeAll()
        log.discardPending()
        // Every segment it knew of is counted again: those counted, the one it was walking and
        // those it meant to delete.
        uncounted = Array(Set(uncounted).union(usage.keys).union(collected).union(walk.map { [$0.segment] } ?? [])).sorted()
        usage.removeAll()
        walk = nil
        collected.removeAll()
    }

    /// Walks the bytes earned since the last sweep (two per byte appended), once at least
    /// ``walkBatch`` are: counts uncounted segments, moves the live entries of those with little
    /// left forward, and collects the empty ones (deleted once the group commits).
    func sweep() throws {
        guard budget >= walkBatch else { return }
        var remaining = budget
        budget = 0
        while remaining > 0 {
            if walk == nil {
                guard let next = try nextWalk() else { break }
                walk = next
            }
            guard var current = walk else { break }
            let (entries, next, atEnd) = try log.scan(current.segment, from: current.offset, limit: min(remaining, 256 << 10))
            remaining -= max(1, next - current.offset)
            for entry in entries {
                let position = Int64(current.segment) << 32 | Int64(entry.offset)
                guard var window = try window(of: entry.sessionID), window.keeps(position: position) else { continue }
                current.counted.live += Self.weight(entry.size)
                if current.moves {
                    let to = try log.nextPosition(for: entry.bytes.count)
                    noteStarted()
                    try log.append(encoded: entry.bytes)
                    _ = window.move(from: position, to: to)
                    moved[entry.sessionID] = window
                    if windows[entry.sessionID] != nil { windows[entry.sessionID] = window }
                    add(entry.size, to: to)
                    usage[current.segment]?.live -= Self.weight(entry.size)
                }
            }
            current.counted.written += entries.reduce(0) { $0 + Self.weight($1.size) }
            current.offset = next
            walk = current
            guard atEnd else { continue }
            walk = nil
            if current.moves {
                usage.removeValue(forKey: current.segment)
                collected.append(current.segment)
            } else {
                usage[current.segment] = current.counted
            }
        }
        try writeMoved()
    }

    /// The next segment to walk; collects, on the way, counted ones nothing is left in.
    private func nextWalk() throws -> Walk? {
        let current = log.current
        for (segment, counted) in usage where segment != current && counted.live <= 0 {
            usage.removeValue(forKey: segment)
            collected.append(segment)
        }
        if let index = uncounted.firstIndex(where: { log.isSealed($0) }) {
            return Walk(segment: uncounted.remove(at: index), moves: false)
        }
        // More than half of what the counted segments hold has left them: move the live
        // entries out of the sealed one with the least left in it.
        let total = usage.values.reduce(into: Usage()) { total, counted in
            total.written += counted.written
            total.live += counted.live
        }
        if total.written > 2 * total.live,
            let emptiest = usage.filter({ $0.key != current }).min(by: { $0.value.live * $1.value.written < $1.value.live * $0.value.written })
        {
            return Walk(segment: emptiest.key, moves: true)
        }
        if windowCapacity == 0 {
            // Other processes write the log too: look for segments they sealed since.
            let known = Set(usage.keys).union(uncounted).union(collected)
            uncounted = try log.segmentsOnDisk().filter { !known.contains($0) && $0 != current && $0 != walk?.segment }
        }
        return nil
    }

    /// What an entry of `size` counts in a segment's usage: one more, so that an empty one counts.
    private static func weight(_ size: Int) -> Int { size + 1 }

    /// Counts the bytes of the entry at `position` in its segment (if that is counted).
    private func add(_ size: Int, to position: Int64) {
        let segment = SQLiteEntryLog.segment(of: position)
        usage[segment]?.written += Self.weight(size)
        usage[segment]?.live += Self.weight(size)
    }

    /// An entry left its window.
    private func subtract(_ item: SQLiteJournalWindow.Item) {
        usage[SQLiteEntryLog.segment(of: item.position)]?.live -= Self.weight(item.size)
    }

    /// A segment the log just started is counted from its first byte.
    private func noteStarted() {
        guard log.current != started else { return }
        started = log.current
        usage[started] = Usage()
    }

    private func writeMoved() throws {
        for (sessionID, window) in moved {
            defer { updateWindow.reset() }
            try updateWindow.bind(1, sessionID)
            try updateWindow.bind(2, window.encoded)
            try updateWindow.run()
        }
        moved.removeAll()
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
