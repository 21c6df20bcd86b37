/// A session id as a dictionary key.
///
/// The API issues ids of 128 random bits as 22 base64url characters. Kept as a `String`, every
/// lookup in a table of many sessions follows a pointer to the key's characters to compare them
/// (the profile showed those compares among the top entries of a GET). Such an id is kept here as
/// its two 64-bit halves instead: stored inline in the table, hashed and compared as integers.
/// Any other id (tests, hand-made ids, a non-canonical encoding) stays a string, so the mapping
/// from ids to keys is one-to-one.
public enum SessionKey: Hashable, Sendable {
    /// An id issued by the API: its 128 bits as two integers.
    case compact(UInt64, UInt64)
    /// Any other id, as it is.
    case other(String)

    /// The key of session `id`.
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
    /// The first 10 characters fill 60 bits of the high half; the 11th splits 4 / 2; the next 10
    /// fill 60 bits of the low half after those 2; the last gives the final 2 bits.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> SessionKey? {
        guard bytes.count == 22 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0, invalid: UInt8 = 0
        func accumulate(_ range: Range<Int>, into word: inout UInt64) {
            for index in range {
                let sextet = Base64URLAlphabet.sextets[Int(bytes[index])]
                invalid |= sextet
                word = word << 6 | UInt64(sextet)
            }
        }
        accumulate(0..<10, into: &high)
        let split = Base64URLAlphabet.sextets[Int(bytes[10])]
        invalid |= split
        high = high << 4 | UInt64(split >> 2)
        low = UInt64(split & 0x3)
        accumulate(11..<21, into: &low)
        let last = Base64URLAlphabet.sextets[Int(bytes[21])]
        invalid |= last
        // An invalid character maps to a bit no sextet has.
        guard invalid & Base64URLAlphabet.invalid == 0, last & 0xF == 0 else { return nil }
        low = low << 2 | UInt64(last >> 4)
        return .compact(high, low)
    }
}
