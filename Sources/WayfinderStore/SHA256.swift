/// SHA-256 (FIPS 180-4), in pure Swift, for hashing bearer tokens before they are stored.
///
/// Written here because the project fetches no packages and the store must not depend on a
/// platform crypto library; it is checked against the FIPS/NIST vectors in the tests.
public enum SHA256 {
    /// The 32-byte digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
            0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
        )
        k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                // Whole blocks straight from the input, then the padded tail (one or two blocks).
                let fullBlocks = bytes.count / 64
                bytes.withUnsafeBufferPointer { input in
                    for block in 0..<fullBlocks {
                        compress(&state, w, k, UnsafeBufferPointer(rebasing: input[(block * 64)..<(block * 64 + 64)]))
                    }
                }
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                    let rest = bytes.count - fullBlocks * 64
                    let tailCount = rest < 56 ? 64 : 128
                    tail.initialize(repeating: 0)
                    for index in 0..<rest { tail[index] = bytes[fullBlocks * 64 + index] }
                    tail[rest] = 0x80
                    let bitLength = UInt64(bytes.count) &* 8
                    for index in 0..<8 {
                        tail[tailCount - 1 - index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(index * 8))
                    }
                    let padded = UnsafeBufferPointer(tail)
                    for block in 0..<(tailCount / 64) {
                        compress(&state, w, k, UnsafeBufferPointer(rebasing: padded[(block * 64)..<(block * 64 + 64)]))
                    }
                }
            }
        }
        return [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
            func put(_ word: UInt32, at index: Int) {
                digest[index * 4] = UInt8(truncatingIfNeeded: word >> 24)
                digest[index * 4 + 1] = UInt8(truncatingIfNeeded: word >> 16)
                digest[index * 4 + 2] = UInt8(truncatingIfNeeded: word >> 8)
                digest[index * 4 + 3] = UInt8(truncatingIfNeeded: word)
            }
            put(state.0, at: 0); put(state.1, at: 1); put(state.2, at: 2); put(state.3, at: 3)
            put(state.4, at: 4); put(state.5, at: 5); put(state.6, at: 6); put(state.7, at: 7)
            count = 32
        }
    }

    /// One 64-byte block of the compression function (FIPS 180-4 §6.2.2); `w` is scratch for
    /// the 64-word message schedule.
    private static func compress(
        _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
        _ w: UnsafeMutableBufferPointer<UInt32>,
        _ k: UnsafeBufferPointer<UInt32>,
        _ block: UnsafeBufferPointer<UInt8>
    ) {
        for t in 0..<16 {
            w[t] = UInt32(block[t * 4]) << 24 | UInt32(block[t * 4 + 1]) << 16
                | UInt32(block[t * 4 + 2]) << 8 | UInt32(block[t * 4 + 3])
        }
        for t in 16..<64 {
            let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
            let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        for t in 0..<64 {
            let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
            let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            h = g
            g = f
            f = e
            e = d &+ t1
            d = c
            c = b
            b = a
            a = t1 &+ t2
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
            state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
        )
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
        (x >> n) | (x << (32 - n))
    }

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}
