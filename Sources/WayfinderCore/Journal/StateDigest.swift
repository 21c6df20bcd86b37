/// A short fingerprint of a stored state (its ``StateCodec`` bytes): what a journal entry keeps
/// so that a replay can tell, per revision, whether it computed the same state.
///
/// XXH64 (xxHash, 64-bit, seed 0), written as 16 hex digits as `xxhsum -H1` prints it, so a
/// digest can be checked with common tools. It reads the bytes eight at a time (the journal
/// computes one on every accepted change). It detects divergence, nothing more: it is not a
/// cryptographic hash, and nothing trusts it against a forger.
public enum StateDigest {
    /// The digest of `bytes`.
    public static func of(_ bytes: [UInt8]) -> String { text(hash(bytes)) }

    /// The digest of `state` as it is stored.
    public static func of(_ state: SessionState) -> String { of(StateCodec.encode(state)) }

    /// XXH64 of `bytes`, the digest's value.
    static func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { xxh64($0) } }

    /// `value` as the digest's 16 lowercase hex digits.
    static func text(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// XXH64 of `data` with seed 0 (the reference algorithm: four lanes over 32-byte stripes,
    /// then the 8-, 4- and 1-byte tail, then the avalanche).
    static func xxh64(_ data: UnsafeRawBufferPointer) -> UInt64 {
        let count = data.count
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            var lanes = (prime1 &+ prime2, prime2, UInt64(0), 0 &- prime1)
            while offset + 32 <= count {
                lanes.0 = round(lanes.0, word(data, offset))
                lanes.1 = round(lanes.1, word(data, offset + 8))
                lanes.2 = round(lanes.2, word(data, offset + 16))
                lanes.3 = round(lanes.3, word(data, offset + 24))
                offset += 32
            }
            hash = rotl(lanes.0, 1) &+ rotl(lanes.1, 7) &+ rotl(lanes.2, 12) &+ rotl(lanes.3, 18)
            hash = merge(hash, lanes.0)
            hash = merge(hash, lanes.1)
            hash = merge(hash, lanes.2)
            hash = merge(hash, lanes.3)
        } else {
            hash = prime5
        }
        hash &+= UInt64(count)
        while offset + 8 <= count {
            hash = rotl(hash ^ round(0, word(data, offset)), 27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            let half = UInt64(UInt32(littleEndian: data.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            hash = rotl(hash ^ (half &* prime1), 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            hash = rotl(hash ^ (UInt64(data[offset]) &* prime5), 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }

    @inline(__always) private static func word(_ data: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: data.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always) private static func round(_ lane: UInt64, _ input: UInt64) -> UInt64 {
        rotl(lane &+ input &* prime2, 31) &* prime1
    }

    @inline(__always) private static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    @inline(__always) private static func rotl(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}
