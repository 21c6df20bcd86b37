import Testing
@testable import WayfinderAPI

@Suite("SHA256")
struct SHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }

    @Test func emptyInput() {
        #expect(Self.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func abc() {
        #expect(Self.hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func twoBlockMessage() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(Self.hex(SHA256.hash(Array(message.utf8))) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    /// Padding edge: 55 bytes fit one block, 56 need two.
    @Test func paddingBoundaries() {
        #expect(Self.hex(SHA256.hash([UInt8](repeating: 0x61, count: 55))) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(Self.hex(SHA256.hash([UInt8](repeating: 0x61, count: 56))) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(Self.hex(SHA256.hash([UInt8](repeating: 0x61, count: 64))) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    /// The FIPS 180-2 vector: one million "a" (about 1 MB).
    @Test func oneMillionAs() {
        let input = [UInt8](repeating: 0x61, count: 1_000_000)
        #expect(Self.hex(SHA256.hash(input)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func digestIsThirtyTwoBytes() {
        #expect(SHA256.hash(Array("token".utf8)).count == 32)
    }
}
