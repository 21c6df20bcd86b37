/// Writes a journal entry's bytes (``JournalRecord/encode(revision:time:requestID:actions:transitions:state:stateBytes:redacting:)``,
/// once per accepted change): its fixed keys are copied as literals and its plain strings as
/// they are, which costs a fraction of a ``JSONWriter`` call per key; the actions, and any string
/// that needs escaping, are written by a ``JSONWriter`` continuing the same bytes.
struct RecordWriter {
    /// The JSON written so far.
    var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends `text` as it is: JSON punctuation and keys the caller wrote.
    mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `value` in decimal (the digits straight into the buffer, no `String`).
    mutating func int(_ value: Int) {
        var rest = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits and a sign
        let count = withUnsafeMutableBytes(of: &digits) { out in
            var start = out.count
            repeat {
                start -= 1
                out[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            if value < 0 { start -= 1; out[start] = UInt8(ascii: "-") }
            return out.count - start
        }
        withUnsafeBytes(of: digits) { bytes.append(contentsOf: $0.suffix(count)) }
    }

    /// Appends `value` as 16 lowercase hex digits, most significant first (a ``StateDigest``).
    mutating func hex(_ value: UInt64) {
        var digits: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &digits) { out in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF
                out[index] = nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10)
            }
        }
        withUnsafeBytes(of: digits) { bytes.append(contentsOf: $0) }
    }

    /// Appends `value` as a JSON string.
    mutating func string(_ value: String) {
        // Printable ASCII but `"` and `\`, and any UTF-8 above it, stand for themselves.
        let plain = value.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 != 0x7F }) else { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if plain != true { json { $0.string(value) } }
    }

    /// Lets `write` append one JSON value with a ``JSONWriter`` (no comma before it).
    mutating func json(_ write: (inout JSONWriter) -> Void) {
        var writer = JSONWriter(capacity: 0)
        swap(&writer.bytes, &bytes)
        write(&writer)
        swap(&writer.bytes, &bytes)
    }
}
