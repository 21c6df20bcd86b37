/// The entries a session's journal keeps in the SQLite store, oldest first: where each is (its
/// position in the entry log, `SQLiteEntryLog`), its revision and its size. Stored in the
/// session's own row (column `journal`), so the journal needs no index: appending an entry writes
/// the session's row (which the save writes anyway) and a few bytes to the log, and reading a
/// session's history reads its entries at their positions.
///
/// Encoded as LEB128 varints, three per entry: the position's change from the entry before
/// (zigzag-signed: positions grow as entries are appended, but an entry the log's collector moved
/// forward comes after newer ones), the revision's increase (revisions only grow) and the size —
/// about five bytes an entry.
struct SQLiteJournalWindow: Equatable {
    struct Item: Equatable {
        var position: Int64
        var revision: Int
        var size: Int
    }

    private(set) var items: [Item] = []
    private(set) var bytes = 0

    init() {}

    /// Decodes a stored window; nil (empty) decodes as an empty window, malformed bytes as nil.
    init?(encoded: [UInt8]) {
        var reader = VarintReader(bytes: encoded)
        var position: Int64 = 0
        var revision = 0
        while !reader.isAtEnd {
            guard let positionChange = reader.next(), let revisionStep = reader.next(), let size = reader.next(),
                revisionStep > 0 || items.isEmpty, revisionStep <= UInt64(Int.max - revision), size <= UInt64(Int.max - bytes)
            else { return nil }
            let (next, overflow) = position.addingReportingOverflow(Self.unzigzag(positionChange))
            guard !overflow, next > 0 else { return nil }
            position = next
            revision += Int(revisionStep)
            items.append(Item(position: position, revision: revision, size: Int(size)))
            bytes += Int(size)
        }
    }

    /// The stored form (see the type's description).
    var encoded: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(items.count * 6)
        var position: Int64 = 0
        var revision = 0
        for item in items {
            Self.appendVarint(Self.zigzag(item.position - position), to: &out)
            Self.appendVarint(UInt64(item.revision - revision), to: &out)
            Self.appendVarint(UInt64(item.size), to: &out)
            position = item.position
            revision = item.revision
        }
        return out
    }

    /// Whether the window keeps the entry at `position`.
    func keeps(position: Int64) -> Bool {
        items.contains { $0.position == position }
    }

    /// Moves the entry at `from` to `to` (the log's collector copied it forward); false if the
    /// window does not keep it.
    mutating func move(from: Int64, to: Int64) -> Bool {
        guard let index = items.firstIndex(where: { $0.position == from }) else { return false }
        items[index].position = to
        return true
    }

    /// Appends `item` (a revision written again replaces the entries from that revision on),
    /// then drops the oldest entries while more than `maxEntries` are kept or they hold more than
    /// `maxBytes` (never the newest), telling `left` of each. Returns how many entries left.
    @discardableResult
    mutating func append(_ item: Item, maxEntries: Int, maxBytes: Int, left: (Item) -> Void = { _ in }) -> Int {
        var dropped = 0
        while let last = items.last, last.revision >= item.revision {
            left(last)
            bytes -= last.size
            items.removeLast()
            dropped += 1
        }
        items.append(item)
        bytes += item.size
        var drop = 0
        while items.count - drop > 1, items.count - drop > maxEntries || bytes > maxBytes {
            left(items[drop])
            bytes -= items[drop].size
            drop += 1
        }
        items.removeFirst(drop)
        return dropped + drop
    }

    private static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    private static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    /// Appends `value` as an LEB128 varint (the entry log writes its lengths the same way).
    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    private struct VarintReader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func next() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count, shift < 64 {
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7f) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            return nil
        }
    }
}
