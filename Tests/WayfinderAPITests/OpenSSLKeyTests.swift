import Testing

@testable import WayfinderAPI

@Suite("OpenSSLPublicKey")
struct OpenSSLPublicKeyTests {
    static let rsa = TestSigningKey(.rsa(bits: 2048))
    static let ec = TestSigningKey(.p256)

    /// The verifier's own key built from the public numbers of `key`.
    static func publicKey(_ key: TestSigningKey) throws -> OpenSSLPublicKey {
        if case .rsa = key.kind { return try OpenSSLPublicKey.rsa(modulus: key.modulus, exponent: key.exponent) }
        return try OpenSSLPublicKey.p256(x: key.x, y: key.y)
    }

    @Test func keysOpenSSLRefuses() throws {
        #expect(throws: OpenSSLKeyError(reason: "a P-256 coordinate is 32 bytes, not 33")) {
            try OpenSSLPublicKey.p256(x: Self.ec.x, y: [0] + Self.ec.y)
        }
        #expect(throws: OpenSSLKeyError(reason: "the RSA key has 2047 bits, fewer than the 2048 required")) {
            try OpenSSLPublicKey.rsa(modulus: [0x7F] + [UInt8](repeating: 0xFF, count: 255), exponent: [1, 0, 1])
        }
        #expect(throws: OpenSSLKeyError(reason: "the RSA exponent is longer than the modulus")) {
            try OpenSSLPublicKey.rsa(modulus: Self.rsa.modulus, exponent: [1] + Self.rsa.modulus)
        }
        #expect(throws: OpenSSLKeyError(reason: "the RSA key is larger than 16384 bits")) {
            try OpenSSLPublicKey.rsa(modulus: [UInt8](repeating: 0xFF, count: 2049), exponent: [1, 0, 1])
        }
    }

    /// Each key verifies its own signature of the message and nothing else: not another message,
    /// a shortened or empty signature, nor as the other algorithm.
    @Test(arguments: ["RSA", "P-256"])
    func aKeyVerifiesItsOwnSignatureOnly(_ type: String) throws {
        let signer = type == "RSA" ? Self.rsa : Self.ec
        let key = try Self.publicKey(signer)
        let verify = type == "RSA" ? key.verifyRS256 : key.verifyES256
        let verifyAsTheOther = type == "RSA" ? key.verifyES256 : key.verifyRS256
        #expect(key.bits == (type == "RSA" ? 2048 : 256))
        let message = Array("header.payload".utf8)
        let signature = signer.sign(message)
        #expect(signature.count == (type == "RSA" ? 256 : 64))
        #expect(verify(signature, message))
        #expect(!verify(signature, Array("header.payloaD".utf8)))
        #expect(!verify(Array(signature.dropFirst()), message))
        #expect(!verify([], message))
        #expect(!verifyAsTheOther(signature, message))
        #expect(!verifyAsTheOther(signer.signDER(message), message))
    }

    @Test func es256SignaturesOutOfFormOrRangeAreRefused() throws {
        let key = try Self.publicKey(Self.ec)
        let message = Array("header.payload".utf8)
        let signature = Self.ec.sign(message)
        // r and s swapped, or out of range (zero; all ones, beyond the group order), are no signature.
        #expect(!key.verifyES256(Array(signature[32...] + signature[..<32]), of: message))
        #expect(!key.verifyES256([UInt8](repeating: 0, count: 64), of: message))
        #expect(!key.verifyES256([UInt8](repeating: 0xFF, count: 64), of: message))
        // The DER form OpenSSL makes is not the JWS form.
        #expect(!key.verifyES256(Self.ec.signDER(message), of: message))
    }

    /// One key shared by concurrent verifications (the `@unchecked Sendable` claim).
    @Test func concurrentVerificationsShareOneKey() async throws {
        let rsa = try Self.publicKey(Self.rsa), ec = try Self.publicKey(Self.ec)
        let message = Array("header.payload".utf8)
        let rsaSignature = Self.rsa.sign(message), ecSignature = Self.ec.sign(message)
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    index.isMultiple(of: 2) ? rsa.verifyRS256(rsaSignature, of: message) : ec.verifyES256(ecSignature, of: message)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
    }
}

@Suite("HMACSHA256")
struct HMACSHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }

    /// RFC 4231 test cases 1 and 2.
    @Test func rfc4231() {
        let one = HMACSHA256.authenticate(Array("Hi There".utf8), key: Array(repeating: 0x0B, count: 20))
        #expect(Self.hex(one) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        let two = HMACSHA256.authenticate(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(Self.hex(two) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func constantTimeEqual() {
        #expect(HMACSHA256.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!HMACSHA256.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!HMACSHA256.constantTimeEqual([1, 2, 3], [1, 2]))
        #expect(HMACSHA256.constantTimeEqual([], []))
    }
}
