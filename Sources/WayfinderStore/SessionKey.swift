/// A session id as a dictionary key.
///
/// The API issues ids of 128 random bits as 22 base64url characters. Kept as a `String`, every
/// lookup in a table of many sessions follows a pointer to the key's characters to compare them
/// (the profile showed those compares among the top entries of a GET). Such an id is kept here as
/// its two 64-bit halves instead: stored inline in the table, hashed and compared as integers.
/// Any other id (tests, hand-made ids, a non-canonical encoding) stays a string, so the mapping
/// from ids to keys is one-to-one.
public enum SessionKey: Hashable, Sendable {
    case compact(UInt64, UInt64)
    case other(String)

    public init(_ id: String) {
        self = Self.compact(id) ?? .other(id)
    }

    /// A number for picking a shard: the random low bits for issued ids.
    public var shardHint: UInt {
        switch self {
        case .compact(_, let low): UInt(truncatingIfNeeded: low)
        case .other(let id): UInt(bitPattern: id.hashValue)
        }
    }

    private static func compact(_ id: String) -> SessionKey? {
        if let key = id.utf8.withContiguousStorageIfAvailable(parse) { return key }
        var copy = id
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable(parse) ?? nil
    }

    /// 22 base64url characters: 21 x 6 bits, then 2 bits and 4 zero bits (the canonical form).
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> SessionKey? {
        guard bytes.count == 22 else { return nil }
        var value: UInt128 = 0
        for index in 0..<21 {
            guard let sextet = sextet(bytes[index]) else { return nil }
            value = value << 6 | UInt128(sextet)
        }
        guard let last = sextet(bytes[21]), last & 0xF == 0 else { return nil }
        value = value << 2 | UInt128(last >> 4)
        return .compact(UInt64(truncatingIfNeeded: value >> 64), UInt64(truncatingIfNeeded: value))
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
