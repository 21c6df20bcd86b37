/// Appends compact JSON to a byte buffer, without Foundation.
///
/// Used for every response body on the hot path (rendered states, problems) and for the
/// canonical form of request bodies (sorted keys), which idempotency compares.
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public var bytes: [UInt8]
    /// Whether the next value or key needs a comma before it. One flag is enough: a value just
    /// ended (scalar or closed container) means a comma; an opened container or a key means none.
    private var needsComma = false

    /// An empty writer whose buffer is reserved for `capacity` bytes (it grows past them).
    public init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    // MARK: Structure

    /// Writes `{`; the members follow as ``key(_:)`` and a value each.
    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    /// Writes `}`, closing the object opened last.
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    /// Writes `[`; the elements follow as values.
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    /// Writes `]`, closing the array opened last.
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Writes `"name":`; the next value written belongs to it.
    public mutating func key(_ name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Scalars

    /// Writes a string, escaped as RFC 8259 requires.
    public mutating func string(_ value: String) { separate(); writeString(value) }
    /// Writes an integer.
    public mutating func int(_ value: Int) {
        separate()
        guard value >= 0, value < 10_000 else { bytes.append(contentsOf: String(value).utf8); return }
        // Small non-negative integers (revisions, counters) without a String.
        if value >= 1000 { bytes.append(UInt8(ascii: "0") + UInt8(value / 1000)) }
        if value >= 100 { bytes.append(UInt8(ascii: "0") + UInt8(value / 100 % 10)) }
        if value >= 10 { bytes.append(UInt8(ascii: "0") + UInt8(value / 10 % 10)) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) { separate(); bytes.append(contentsOf: (value ? "true" : "false").utf8) }
    /// Writes `null`.
    public mutating func null() { separate(); bytes.append(contentsOf: "null".utf8) }
    /// Writes a number in Swift's shortest round-trip form; NaN and the infinities, which JSON
    /// lacks, become `null`.
    public mutating func double(_ value: Double) {
        separate()
        if value.isFinite {
            // Swift's shortest round-trip form is valid JSON ("2.0", "1e+20", "5e-324") and keeps
            // integral doubles doubles, so parse(write(x)) == x.
            bytes.append(contentsOf: value.description.utf8)
        } else {
            bytes.append(contentsOf: "null".utf8)  // JSON has no NaN or infinity
        }
    }
    /// Appends an already-serialized JSON value (written by another `JSONWriter`).
    public mutating func raw(_ json: [UInt8]) { separate(); bytes.append(contentsOf: json) }

    /// Writes the string, or `null` for nil.
    public mutating func optionalString(_ value: String?) {
        if let value { string(value) } else { null() }
    }

    /// Writes any JSON value; object keys are sorted so equal values give equal bytes.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .int(let i): int(i)
        case .double(let d): double(d)
        case .string(let s): string(s)
        case .array(let items):
            beginArray()
            for item in items { self.value(item) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                key(name)
                self.value(member)
            }
            endObject()
        }
    }

    // MARK: Internals

    /// Writes the comma a value or key needs; what follows is a value unless it says otherwise.
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func writeString(_ s: String) {
        // Fast path: most strings (keys, names, ids) need no escaping and are copied at once.
        let copied = s.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            if Self.needsEscaping(utf8) { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if copied != true { writeEscaped(s) }
    }

    /// Whether any byte is a control character, `"`, `\` or DEL; eight bytes at a time (the
    /// classic "has a byte less than n" and "has a zero byte" word tests, exact as yes/no).
    private static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let count = utf8.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C), delete = word ^ (ones &* 0x7F)
            let control = (word &- ones &* 0x20) & ~word
            let equal = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((delete &- ones) & ~delete)
            if (control | equal) & high != 0 { return true }
            index += 8
        }
        while index < count {
            let byte = base[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return true }
            index += 1
        }
        return false
    }

    private mutating func writeEscaped(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "\\"))
            case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20, 0x7F:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// Compact JSON with sorted keys: the canonical form (equal values give equal bytes).
    public var canonicalBytes: [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.value(self)
        return writer.bytes
    }

    /// ``canonicalBytes`` as text: handy to compare values in tests and messages.
    public var canonicalString: String { String(decoding: canonicalBytes, as: UTF8.self) }
}
