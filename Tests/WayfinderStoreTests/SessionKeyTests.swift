import Testing
import WayfinderStore

@Suite("SessionKey")
struct SessionKeyTests {
    /// 16 bytes as unpadded base64url (the API's encoding), written out here independently.
    private func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var bits = "", out = ""
        for byte in bytes { bits += String(repeating: "0", count: 8 - String(byte, radix: 2).count) + String(byte, radix: 2) }
        while bits.count % 6 != 0 { bits += "0" }
        var index = bits.startIndex
        while index < bits.endIndex {
            let next = bits.index(index, offsetBy: 6)
            out.append(alphabet[Int(bits[index..<next], radix: 2)!])
            index = next
        }
        return out
    }

    @Test func issuedIdsBecomeTheirOwn128Bits() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let id = base64URL(bytes)
            #expect(id.count == 22)
            let high = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let low = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            #expect(SessionKey(id) == .compact(high, low), "\(id)")
        }
        #expect(SessionKey("AAAAAAAAAAAAAAAAAAAAAA") == .compact(0, 0))
        #expect(SessionKey("_____________________w") == .compact(.max, .max))
    }

    @Test func everyOtherIdStaysAStringSoNoTwoIdsShareAKey() {
        // Wrong length, a character outside base64url, and a non-canonical last character
        // ("_" carries bits that 16 bytes cannot have; it would otherwise equal "...w").
        for id in ["session-1", "", "AAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAA+A",
                   "_____________________x", "_____________________/", "AAAAAAAAAAAAAAAAAAAAAé"] {
            #expect(SessionKey(id) == .other(id), "\(id)")
        }
        #expect(SessionKey("_____________________x") != SessionKey("_____________________w"))
        // A substring-built id maps like the literal.
        let built = String("x_____________________w".dropFirst())
        #expect(SessionKey(built) == SessionKey("_____________________w"))
    }
}
