/// One entry of a session's journal as a store keeps it: the revision it records, its record
/// (bytes written by the API) and, for some entries, the session's state after it — opaque to the
/// store, like a session's state. The state is kept apart so a store in memory shares its bytes with the
/// session's own state (one buffer, not two) while that is the newest.
public struct JournalEntry: Sendable, Equatable {
    /// The revision the entry records.
    public var revision: Int
    /// The entry's record without the state (the API's stored form, or JSON in stores written before it).
    public var record: [UInt8]
    /// The session's stored state after it; empty when the entry does not keep it.
    public var state: [UInt8]

    /// An entry; the store keeps its bytes as they are.
    public init(revision: Int, record: [UInt8], state: [UInt8]) {
        self.revision = revision
        self.record = record
        self.state = state
    }

    /// What the entry counts against the journal's byte bound: its record and its state.
    public var size: Int { record.count + state.count }
}

/// A session's journal in memory, with its bounds applied as entries are appended (the memory
/// store keeps one per session; the other stores apply the same rule in their own terms).
struct JournalLog: Sendable {
    private(set) var entries: [JournalEntry] = []
    private(set) var bytes = 0

    /// Appends `entry`, then drops the oldest entries while more than `maxEntries` are kept or
    /// they hold more than `maxBytes` (never the newest).
    mutating func append(_ entry: JournalEntry, maxEntries: Int, maxBytes: Int) {
        entries.append(entry)
        bytes += entry.size
        var drop = 0
        while entries.count - drop > 1, entries.count - drop > maxEntries || bytes > maxBytes {
            bytes -= entries[drop].size
            drop += 1
        }
        if drop > 0 { entries.removeFirst(drop) }
    }

    /// The entries with a revision of at least `since`.
    func since(_ revision: Int) -> [JournalEntry] {
        guard let first = entries.firstIndex(where: { $0.revision >= revision }) else { return [] }
        return Array(entries[first...])
    }
}
