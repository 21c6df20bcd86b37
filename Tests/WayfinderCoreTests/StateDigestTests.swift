import Testing
import WayfinderCore

/// The journal's state digest is XXH64 with seed 0, as the reference library (Debian's
/// libxxhash, `XXH64(data, length, 0)`) computes it: the expected values below come from it, one
/// input per path through the algorithm (no stripe, a stripe and a tail of 8-, 4- and 1-byte
/// steps).
@Suite struct StateDigestTests {
    @Test(arguments: [
        ("", "ef46db3751d8e999"),
        ("a", "d24ec4f1a98c6e5b"),
        ("abc", "44bc2cf5ad770999"),
        ("abcd", "de0327b0d25d92cc"),
        ("0123456789abcdef", "5c5b90c34e376d0b"),
        (String(repeating: "x", count: 31), "60dd0d01083b99f0"),
        (String(repeating: "x", count: 32), "e2df261fc2ec30eb"),
        ("The quick brown fox jumps over the lazy dog", "0b242d361fda71bc"),
    ])
    func digestIsTheReferenceXXH64(input: String, expected: String) {
        #expect(StateDigest.of(Array(input.utf8)) == expected)
    }

    @Test func digestOfBytesWithEveryValueIsTheReferenceXXH64() {
        #expect(StateDigest.of(Array(0..<45)) == "10fdd84d6409abdf")
    }

    @Test func oneChangedByteAnywhereChangesTheDigest() {
        let bytes = Array(#"{"v":1,"revision":7,"root":{"stack":{"screens":[{"id":"s1","name":"home"}]}}}"#.utf8)
        let digest = StateDigest.of(bytes)
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x01
            #expect(StateDigest.of(changed) != digest, "byte \(index)")
        }
    }
}
