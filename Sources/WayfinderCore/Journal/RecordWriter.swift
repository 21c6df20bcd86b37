/// Writes a journal entry's stored form (``JournalRecord/encode(revision:time:requestID:actions:transitions:state:stateBytes:redacting:)``,
/// once per accepted change): integers as LEB128 varints (signed ones zigzagged), strings and
/// byte runs after their length. ``RecordReader`` reads it back.
struct RecordWriter {
    /// The bytes written so far.
    var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// `value` seven bits a byte, least significant first; the high bit says more follow.
    mutating func count(_ value: Int) { varint(UInt64(value)) }

    /// `value` zigzagged (0, -1, 1, -2, … as 0, 1, 2, 3, …), so a small negative stays short.
    mutating func int(_ value: Int) { varint(UInt64(bitPattern: Int64(value << 1 ^ value >> 63))) }

    /// `value`'s UTF-8 after its length.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// `value` after its length.
    mutating func run(_ value: [UInt8]) {
        count(value.count)
        bytes.append(contentsOf: value)
    }

    /// `value` as eight bytes, most significant first.
    mutating func word(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }
}

/// Reads what a ``RecordWriter`` wrote; anything cut short or out of range is
/// ``JournalError/malformed(_:)``.
struct RecordReader {
    private let bytes: [UInt8]
    private var offset: Int

    init(_ bytes: [UInt8], from offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Whether every byte was read.
    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte() throws(JournalError) -> UInt8 {
        guard offset < bytes.count else { throw .malformed("a stored entry ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A length or a count: at most what the rest of the entry could hold.
    mutating func count() throws(JournalError) -> Int {
        let value = try varint()
        guard value <= UInt64(bytes.count - offset) else { throw .malformed("a stored entry counts past its end") }
        return Int(value)
    }

    mutating func int() throws(JournalError) -> Int {
        let value = try varint()
        return Int(Int64(bitPattern: value >> 1 ^ (0 &- (value & 1))))
    }

    mutating func string() throws(JournalError) -> String { String(decoding: try run(), as: UTF8.self) }

    mutating func run() throws(JournalError) -> [UInt8] {
        let length = try count()
        defer { offset += length }
        return Array(bytes[offset..<offset + length])
    }

    mutating func word() throws(JournalError) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(try byte()) }
        return value
    }

    private mutating func varint() throws(JournalError) -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 7) {
            let next = try byte()
            value |= UInt64(next & 0x7F) << UInt64(shift)
            if next < 0x80 { return value }
        }
        throw .malformed("a stored entry has a number too long")
    }
}
