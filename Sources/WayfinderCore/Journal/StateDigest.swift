/// A short fingerprint of a stored state (its ``StateCodec`` bytes): what a journal entry keeps
/// so that a replay can tell, per revision, whether it computed the same state.
///
/// 64-bit FNV-1a, written as 16 hex digits. It detects divergence, nothing more: it is not a
/// cryptographic hash, and nothing trusts it against a forger.
public enum StateDigest {
    /// The digest of `bytes`.
    public static func of(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 16)
        for index in 0..<16 { out[index] = digits[Int((hash >> UInt64(60 - 4 * index)) & 0xF)] }
        return String(decoding: out, as: UTF8.self)
    }

    /// The digest of `state` as it is stored.
    public static func of(_ state: SessionState) -> String { of(StateCodec.encode(state)) }
}
