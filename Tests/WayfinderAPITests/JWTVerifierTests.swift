import Testing
import WayfinderCore

@testable import WayfinderAPI

@Suite("JWTVerifier: signatures and headers")
struct JWTSignatureTests {
    let now = Fixture.now

    @Test(arguments: JWTAlgorithm.allCases)
    func aValidTokenIsAccepted(_ algorithm: JWTAlgorithm) throws {
        let verified = try Fixture.verifier().verify(Fixture.token(algorithm), now: now).get()
        #expect(verified.subject == Fixture.subject)
        #expect(verified.issuer == Fixture.issuer)
        #expect(verified.audience == [Fixture.audience])
        #expect(verified.expiresAt == now + 600)
        #expect(verified.claims["sub"] == .string(Fixture.subject))
        #expect(verified.claims["iat"] == .int(Int(now)))
    }

    @Test(arguments: JWTAlgorithm.allCases)
    func aTokenSignedByAnotherKeyIsRefused(_ algorithm: JWTAlgorithm) throws {
        let token = Fixture.token(algorithm, otherKey: true)  // same kid, another key's signature
        #expect(try Fixture.verifier().verify(token, now: now).refusalCode == "token_signature_invalid")
    }

    @Test(arguments: JWTAlgorithm.allCases)
    func aTamperedHeaderOrPayloadIsRefused(_ algorithm: JWTAlgorithm) throws {
        func parts(_ token: String) -> [String] { token.split(separator: ".").map(String.init) }
        let good = parts(Fixture.token(algorithm))
        let header = parts(Fixture.token(algorithm, header: { $0["typ"] = "jwt" }))[0]
        let payload = parts(Fixture.token(algorithm, claims: { $0["sub"] = "admin" }))[1]
        let verifier = try Fixture.verifier()
        for tampered in [[header, good[1], good[2]], [good[0], payload, good[2]]] {
            #expect(verifier.verify(tampered.joined(separator: "."), now: now).refusalCode == "token_signature_invalid")
        }
    }

    @Test(arguments: JWTAlgorithm.allCases)
    func aSignatureWithOneBitFlippedOrCutShortIsRefused(_ algorithm: JWTAlgorithm) throws {
        let parts = Fixture.token(algorithm).split(separator: ".").map(String.init)
        var signature = try #require(Base64URL.decode(parts[2].utf8))
        signature[signature.count / 2] ^= 0x01
        let flipped = parts[0] + "." + parts[1] + "." + TokenMaker.base64URL(signature)
        let short = parts[0] + "." + parts[1] + "." + TokenMaker.base64URL(Array(signature.dropLast()))
        let empty = parts[0] + "." + parts[1] + "."
        let verifier = try Fixture.verifier()
        #expect(verifier.verify(flipped, now: now).refusalCode == "token_signature_invalid")
        #expect(verifier.verify(short, now: now).refusalCode == "token_signature_invalid")
        #expect(verifier.verify(empty, now: now).refusalCode == "token_signature_invalid")
    }

    /// JWS ES256 signatures are r||s; the DER form OpenSSL makes is not one.
    @Test func anES256SignatureInDERIsRefused() throws {
        let input = TokenMaker.base64URL(JSONValue.object(Fixture.header(.es256)).canonicalBytes) + "."
            + TokenMaker.base64URL(JSONValue.object(Fixture.claims).canonicalBytes)
        let token = input + "." + TokenMaker.base64URL(Fixture.ec.signDER(Array(input.utf8)))
        #expect(try Fixture.verifier().verify(token, now: now).refusalCode == "token_signature_invalid")
    }

    @Test func algNoneIsRefusedWithOrWithoutASignature() throws {
        let verifier = try Fixture.verifier()
        for none in ["none", "None", "NONE"] {
            let header = JSONValue.object(["alg": .string(none), "typ": "JWT"])
            let unsigned = TokenMaker.token(header: header, claims: .object(Fixture.claims), .bytes([]))
            #expect(unsigned.hasSuffix("."))
            #expect(verifier.verify(unsigned, now: now).refusalCode == "token_algorithm_not_allowed")
            let signed = TokenMaker.token(header: header, claims: .object(Fixture.claims), .hmac(Fixture.secret))
            #expect(verifier.verify(signed, now: now).refusalCode == "token_algorithm_not_allowed")
            // Without the third part at all, it is not a JWS.
            #expect(verifier.verify(String(unsigned.dropLast()), now: now).refusalCode == "token_malformed")
        }
    }

    @Test(arguments: ["HS384", "HS512", "RS384", "RS512", "PS256", "ES384", "ES256K", "EdDSA", "hs256", "Rs256", ""])
    func anUnknownAlgorithmIsRefused(_ name: String) throws {
        let token = Fixture.token(.hs256, header: { $0["alg"] = .string(name) })
        #expect(try Fixture.verifier().verify(token, now: now).refusalCode == "token_algorithm_not_allowed")
    }

    @Test func aMissingOrNonStringAlgIsRefused() throws {
        let verifier = try Fixture.verifier()
        #expect(verifier.verify(Fixture.token(.hs256, header: { $0["alg"] = nil }), now: now).refusalCode == "token_algorithm_not_allowed")
        #expect(verifier.verify(Fixture.token(.hs256, header: { $0["alg"] = 256 }), now: now).refusalCode == "token_algorithm_not_allowed")
    }

    @Test func anAlgorithmTheConfigurationHasNoKeyForIsRefused() throws {
        let secretOnly = try Fixture.verifier(standardJWKS: false)
        #expect(secretOnly.verify(Fixture.token(.hs256), now: now).refusalCode == nil)
        #expect(secretOnly.verify(Fixture.token(.rs256), now: now).refusalCode == "token_algorithm_not_allowed")
        #expect(secretOnly.verify(Fixture.token(.es256), now: now).refusalCode == "token_algorithm_not_allowed")
        let rsaOnly = try Fixture.verifier(secret: nil, jwks: Fixture.jwks(Fixture.rsa.jwk(kid: "rsa-1")))
        #expect(rsaOnly.verify(Fixture.token(.rs256), now: now).refusalCode == nil)
        #expect(rsaOnly.verify(Fixture.token(.es256), now: now).refusalCode == "token_algorithm_not_allowed")
        #expect(rsaOnly.verify(Fixture.token(.hs256), now: now).refusalCode == "token_algorithm_not_allowed")
    }

    /// The classic confusion: the RSA public key (anyone has it) as the secret of an HS256 token.
    @Test func anRSAPublicKeyUsedAsAnHS256SecretIsRefused() throws {
        let jwk = Fixture.rsa.jwk(kid: "rsa-1", alg: "RS256")
        let publicSecrets = [Fixture.rsa.modulus, jwk.canonicalBytes]
        let header = JSONValue.object(["alg": "HS256", "typ": "JWT"])
        let headerWithKid = JSONValue.object(["alg": "HS256", "typ": "JWT", "kid": "rsa-1"])
        let claims = JSONValue.object(Fixture.claims)
        // A verifier with only the JWKS has no HS256 key at all.
        let jwksOnly = try Fixture.verifier(secret: nil)
        // One with a secret too: the public key is not that secret, and the RSA key's kid is not for HS256.
        let both = try Fixture.verifier()
        for secret in publicSecrets {
            for verifier in [jwksOnly, both] {
                let withKid = TokenMaker.token(header: headerWithKid, claims: claims, .hmac(secret))
                #expect(verifier.verify(withKid, now: now).refusalCode == (verifier.algorithms.contains(.hs256) ? "token_key_algorithm_mismatch" : "token_algorithm_not_allowed"))
            }
            let withoutKid = TokenMaker.token(header: header, claims: claims, .hmac(secret))
            #expect(jwksOnly.verify(withoutKid, now: now).refusalCode == "token_algorithm_not_allowed")
            #expect(both.verify(withoutKid, now: now).refusalCode == "token_signature_invalid")
        }
    }

    @Test func anUnknownKidIsRefused() throws {
        let verifier = try Fixture.verifier()
        #expect(verifier.verify(Fixture.token(.rs256, header: { $0["kid"] = "rsa-2" }), now: now).refusalCode == "token_key_unknown")
        #expect(verifier.verify(Fixture.token(.hs256, header: { $0["kid"] = "hs-1" }), now: now).refusalCode == "token_key_unknown")
        #expect(verifier.verify(Fixture.token(.rs256, header: { $0["kid"] = 1 }), now: now).refusalCode == "token_malformed")
    }

    @Test func aKidPicksTheKeyAmongSeveral() throws {
        let verifier = try Fixture.verifier(jwks: Fixture.jwks(Fixture.otherRSA.jwk(kid: "rsa-0"), Fixture.rsa.jwk(kid: "rsa-1")))
        #expect(verifier.verify(Fixture.token(.rs256), now: now).refusalCode == nil)
        let byOther = TokenMaker.token(
            header: .object(Fixture.header(.rs256).merging(["kid": "rsa-0"]) { $1 }), claims: .object(Fixture.claims), .key(Fixture.otherRSA))
        #expect(verifier.verify(byOther, now: now).refusalCode == nil)
    }

    @Test func withoutAKidTheOnlyKeyOfItsTypeIsUsed() throws {
        // The standard JWKS has one RSA and one EC key: each alone of its type.
        let verifier = try Fixture.verifier()
        for algorithm in JWTAlgorithm.allCases {
            #expect(verifier.verify(Fixture.token(algorithm, header: { $0["kid"] = nil }), now: now).refusalCode == nil)
        }
    }

    @Test func withoutAKidSeveralKeysOfItsTypeAreRefused() throws {
        let verifier = try Fixture.verifier(jwks: Fixture.jwks(Fixture.rsa.jwk(kid: "rsa-1"), Fixture.otherRSA.jwk(kid: "rsa-2"), Fixture.ec.jwk()))
        #expect(verifier.verify(Fixture.token(.rs256, header: { $0["kid"] = nil }), now: now).refusalCode == "token_key_ambiguous")
        #expect(verifier.verify(Fixture.token(.rs256), now: now).refusalCode == nil)
        #expect(verifier.verify(Fixture.token(.es256, header: { $0["kid"] = nil }), now: now).refusalCode == nil)
    }

    @Test func aKeyPublishedForAnotherAlgorithmIsRefused() throws {
        let verifier = try Fixture.verifier(jwks: Fixture.jwks(Fixture.rsa.jwk(kid: "rsa-1", alg: "RS384"), Fixture.ec.jwk(kid: "ec-1", alg: "ES256")))
        #expect(verifier.verify(Fixture.token(.rs256), now: now).refusalCode == "token_key_algorithm_mismatch")
        #expect(verifier.verify(Fixture.token(.rs256, header: { $0["kid"] = nil }), now: now).refusalCode == "token_key_algorithm_mismatch")
        #expect(verifier.verify(Fixture.token(.es256), now: now).refusalCode == nil)
        // A kid that names a key of another type: an ES256 token naming the RSA key.
        #expect(verifier.verify(Fixture.token(.es256, header: { $0["kid"] = "rsa-1" }), now: now).refusalCode == "token_key_algorithm_mismatch")
    }

    /// Keys published without an `alg` verify their type's algorithm only: a header cannot
    /// borrow a key of another type by its kid, even with that key's good signature.
    @Test func aKidNamingAKeyOfAnotherTypeIsRefused() throws {
        let verifier = try Fixture.verifier(jwks: Fixture.jwks(Fixture.rsa.jwk(kid: "rsa-1"), Fixture.ec.jwk(kid: "ec-1")))
        let claims = JSONValue.object(Fixture.claims)
        let cases: [(alg: String, kid: String, TokenMaker.Signature)] = [
            ("ES256", "rsa-1", .key(Fixture.rsa)), ("RS256", "ec-1", .key(Fixture.ec)), ("HS256", "rsa-1", .hmac(Fixture.secret)),
            ("HS256", "ec-1", .hmac(Fixture.secret)), ("RS256", "ec-1", .hmac(Fixture.secret)),
        ]
        for (alg, kid, signature) in cases {
            let token = TokenMaker.token(header: ["alg": .string(alg), "kid": .string(kid)], claims: claims, signature)
            #expect(verifier.verify(token, now: now).refusalCode == "token_key_algorithm_mismatch", "\(alg) \(kid)")
        }
    }

    @Test func aSecretWithAKidIsPickedByIt() throws {
        let verifier = try JWTVerifier(
            .init(hmacSecret: Fixture.secret, hmacKeyID: "hs-1", issuer: Fixture.issuer, audience: Fixture.audience))
        #expect(verifier.verify(Fixture.token(.hs256, header: { $0["kid"] = "hs-1" }), now: now).refusalCode == nil)
        #expect(verifier.verify(Fixture.token(.hs256), now: now).refusalCode == nil)
        #expect(verifier.verify(Fixture.token(.hs256, header: { $0["kid"] = "hs-2" }), now: now).refusalCode == "token_key_unknown")
    }

    @Test func critIsRefused() throws {
        let verifier = try Fixture.verifier()
        for crit: JSONValue in [["exp"], [], ["b64"], "exp", .null] {
            for algorithm in JWTAlgorithm.allCases {
                let token = Fixture.token(algorithm, header: { $0["crit"] = crit; $0["b64"] = false })
                #expect(verifier.verify(token, now: now).refusalCode == "token_critical_header_unsupported")
            }
        }
    }

    @Test func typMustBeJWTWhenPresent() throws {
        let verifier = try Fixture.verifier()
        #expect(verifier.verify(Fixture.token(.hs256, header: { $0["typ"] = nil }), now: now).refusalCode == nil)
        #expect(verifier.verify(Fixture.token(.hs256, header: { $0["typ"] = "jwt" }), now: now).refusalCode == nil)
        #expect(verifier.verify(Fixture.token(.hs256, header: { $0["typ"] = "Jwt" }), now: now).refusalCode == nil)
        for other: JSONValue in ["JWS", "at+jwt", "application/jwt", "JWT "] {
            #expect(verifier.verify(Fixture.token(.hs256, header: { $0["typ"] = other }), now: now).refusalCode == "token_type_not_allowed")
        }
        #expect(verifier.verify(Fixture.token(.hs256, header: { $0["typ"] = 1 }), now: now).refusalCode == "token_malformed")
    }

    /// RFC 7515 appendix A.1: the specification's own HS256 example verifies (its claims have no
    /// `aud`, so the refusal after the signature is the audience's).
    @Test func theRFC7515ExampleHS256SignatureVerifies() throws {
        let key = try #require(Base64URL.decode("AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow".utf8))
        let token = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            + ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        let verifier = try JWTVerifier(.init(hmacSecret: key, issuer: "joe", audience: "any"))
        #expect(verifier.verify(token, now: 1_300_819_379).refusalCode == "token_audience_mismatch")
        #expect(verifier.verify(token.dropLast() + "g", now: 1_300_819_379).refusalCode == "token_signature_invalid")
    }
}

@Suite("JWTVerifier: claims")
struct JWTClaimTests {
    let now = Fixture.now

    private func code(_ edit: (inout JSONObject) -> Void, now: Int64 = Fixture.now, clockSkew: Int64 = 60) throws -> String? {
        try Fixture.verifier(clockSkew: clockSkew).verify(Fixture.token(.es256, claims: edit), now: now).refusalCode
    }

    @Test func expiryIsRequired() throws {
        #expect(try code({ $0["exp"] = nil }) == "token_expiry_missing")
        #expect(try code({ $0["exp"] = "tomorrow" }) == "token_claim_invalid")
        #expect(try code({ $0["exp"] = .null }) == "token_claim_invalid")
    }

    @Test func anExpiredTokenIsRefusedAfterTheSkew() throws {
        let exp = now - 100
        #expect(try code({ $0["exp"] = .int(Int(exp)); $0["iat"] = .int(Int(exp) - 600) }, now: exp + 59) == nil)
        #expect(try code({ $0["exp"] = .int(Int(exp)); $0["iat"] = .int(Int(exp) - 600) }, now: exp + 60) == "token_expired")
        #expect(try code({ $0["exp"] = .int(Int(exp)); $0["iat"] = .int(Int(exp) - 600) }, now: exp) == nil)
        // With no skew, exp itself is too late.
        #expect(try code({ $0["exp"] = .int(Int(now)) }, now: now, clockSkew: 0) == "token_expired")
        #expect(try code({ $0["exp"] = .int(Int(now) + 1) }, now: now, clockSkew: 0) == nil)
    }

    @Test func fractionalAndHugeExpiries() throws {
        // exp 1.5 s after now rounds down: valid at now, expired one second later (no skew).
        #expect(try code({ $0["exp"] = .double(Double(now) + 1.5) }, now: now, clockSkew: 0) == nil)
        #expect(try code({ $0["exp"] = .double(Double(now) + 1.5) }, now: now + 1, clockSkew: 0) == "token_expired")
        // Beyond Int64: saturates instead of trapping.
        #expect(try code({ $0["exp"] = .double(1e300) }) == nil)
        #expect(try code({ $0["exp"] = .int(Int.max) }) == nil)
        #expect(try code({ $0["exp"] = .double(-1e300) }) == "token_expired")
    }

    @Test func aTokenNotYetValidIsRefusedBeforeTheSkew() throws {
        #expect(try code({ $0["nbf"] = .int(Int(now) + 61) }) == "token_not_yet_valid")
        #expect(try code({ $0["nbf"] = .int(Int(now) + 60) }) == nil)
        #expect(try code({ $0["nbf"] = .int(Int(now)) }, clockSkew: 0) == nil)
        #expect(try code({ $0["nbf"] = .int(Int(now) + 1) }, clockSkew: 0) == "token_not_yet_valid")
        #expect(try code({ $0["nbf"] = .double(Double(now) + 0.5) }, clockSkew: 0) == "token_not_yet_valid")
        #expect(try code({ $0["nbf"] = .int(Int.min) }) == nil)
        #expect(try code({ $0["nbf"] = "now" }) == "token_claim_invalid")
    }

    @Test func aTokenIssuedInTheFutureBeyondTheSkewIsRefused() throws {
        #expect(try code({ $0["iat"] = .int(Int(now) + 61) }) == "token_issued_in_future")
        #expect(try code({ $0["iat"] = .int(Int(now) + 60) }) == nil)
        #expect(try code({ $0["iat"] = nil }) == nil)
        #expect(try code({ $0["iat"] = .int(Int(now) + 1) }, clockSkew: 0) == "token_issued_in_future")
        #expect(try code({ $0["iat"] = .bool(true) }) == "token_claim_invalid")
    }

    @Test func withinTheSkewEveryTimeIsAccepted() throws {
        let edit: (inout JSONObject) -> Void = {
            $0["exp"] = .int(Int(self.now) - 30)
            $0["nbf"] = .int(Int(self.now) + 30)
            $0["iat"] = .int(Int(self.now) + 30)
        }
        #expect(try code(edit) == nil)
        #expect(try code(edit, clockSkew: 29) == "token_expired")
    }

    @Test func theIssuerMustBeTheConfiguredOne() throws {
        #expect(try code({ $0["iss"] = "https://evil.example.com" }) == "token_issuer_mismatch")
        #expect(try code({ $0["iss"] = "https://id.example.com/" }) == "token_issuer_mismatch")
        #expect(try code({ $0["iss"] = nil }) == "token_issuer_mismatch")
        #expect(try code({ $0["iss"] = ["https://id.example.com"] }) == "token_claim_invalid")
    }

    @Test func theAudienceMustBeOrContainTheConfiguredOne() throws {
        #expect(try code({ $0["aud"] = "another-service" }) == "token_audience_mismatch")
        #expect(try code({ $0["aud"] = ["another-service", "a-third"] }) == "token_audience_mismatch")
        #expect(try code({ $0["aud"] = [] }) == "token_audience_mismatch")
        #expect(try code({ $0["aud"] = nil }) == "token_audience_mismatch")
        #expect(try code({ $0["aud"] = "WAYFINDER" }) == "token_audience_mismatch")
        #expect(try code({ $0["aud"] = ["another-service", 7] }) == "token_claim_invalid")
        #expect(try code({ $0["aud"] = 7 }) == "token_claim_invalid")
        for audience: [JSONValue] in [["wayfinder"], ["another-service", "wayfinder"], ["wayfinder", "another-service"], ["a", "wayfinder", "b"]] {
            let verified = try Fixture.verifier().verify(Fixture.token(.hs256, claims: { $0["aud"] = .array(audience) }), now: now).get()
            #expect(verified.audience == audience.compactMap(\.stringValue))
        }
    }

    @Test func theSubjectIsRequired() throws {
        #expect(try code({ $0["sub"] = nil }) == "token_subject_missing")
        #expect(try code({ $0["sub"] = "" }) == "token_subject_missing")
        #expect(try code({ $0["sub"] = 42 }) == "token_claim_invalid")
    }

    @Test func otherClaimsArePassedOn() throws {
        let verified = try Fixture.verifier().verify(Fixture.token(.rs256, claims: { $0["email"] = "ada@example.com"; $0["groups"] = ["admins"] }), now: now).get()
        #expect(verified.claims["email"] == "ada@example.com")
        #expect(verified.claims["groups"] == ["admins"])
    }
}

@Suite("JWTVerifier: encoding and size")
struct JWTEncodingTests {
    let now = Fixture.now

    @Test func aTokenNeedsExactlyThreeParts() throws {
        let verifier = try Fixture.verifier()
        let good = Fixture.token(.hs256)
        for token in ["", ".", "..", "...", "abc", good + ".", "a.b", good + "." + "AAAA", good.split(separator: ".").joined(separator: "..")] {
            #expect(verifier.verify(token, now: now).refusalCode == "token_malformed", "\(token.prefix(20))")
        }
    }

    @Test func charactersOutsideBase64URLAreRefusedInEachPart() throws {
        let verifier = try Fixture.verifier()
        let good = Fixture.token(.hs256).split(separator: ".").map(String.init)
        for part in 0..<3 {
            for bad in ["+", "/", "=", " ", "\n", "é", "%2D", "\u{0}", "*"] {
                var parts = good
                parts[part].insert(contentsOf: bad, at: parts[part].index(parts[part].startIndex, offsetBy: 4))
                #expect(verifier.verify(parts.joined(separator: "."), now: now).refusalCode == "token_malformed", "part \(part): \(bad.debugDescription)")
            }
        }
    }

    @Test func paddingIsRefused() throws {
        let verifier = try Fixture.verifier()
        let good = Fixture.token(.hs256).split(separator: ".").map(String.init)
        for part in 0..<3 {
            var parts = good
            // Pad to a multiple of 4, as standard base64 would; a part already there gets "==" anyway.
            let padding = parts[part].utf8.count % 4 == 0 ? "==" : String(repeating: "=", count: 4 - parts[part].utf8.count % 4)
            parts[part] += padding
            #expect(verifier.verify(parts.joined(separator: "."), now: now).refusalCode == "token_malformed", "part \(part)")
        }
        // The HS256 signature is 32 bytes: 43 characters, one short of a multiple of 4.
        #expect(good[2].utf8.count == 43)
    }

    @Test func base64URLIsStrict() {
        #expect(Base64URL.decode("".utf8) == [])
        #expect(Base64URL.decode("AQ".utf8) == [1])
        #expect(Base64URL.decode("AQI".utf8) == [1, 2])
        #expect(Base64URL.decode("AQID".utf8) == [1, 2, 3])
        #expect(Base64URL.decode("-_8".utf8) == [0xFB, 0xFF])
        #expect(Base64URL.decode("A".utf8) == nil)  // a length of 4n+1 is impossible
        #expect(Base64URL.decode("AR".utf8) == nil)  // non-zero unused bits: not the canonical encoding
        #expect(Base64URL.decode("AQJ".utf8) == nil)
        #expect(Base64URL.decode("AQ==".utf8) == nil)
        #expect(Base64URL.decode("+/8".utf8) == nil)
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            #expect(Base64URL.decode(TokenMaker.base64URL(bytes).utf8) == bytes)
        }
    }

    @Test func aTokenOverEightKiBIsRefusedBeforeDecoding() throws {
        let verifier = try Fixture.verifier()
        // Not even base64url: refused for its size first, malformed only when within it.
        #expect(verifier.verify(String(repeating: "*", count: 8193), now: now).refusalCode == "token_too_large")
        #expect(verifier.verify(String(repeating: "*", count: 8192), now: now).refusalCode == "token_malformed")
        // A good token just under the limit is accepted; the same padded past it is refused.
        var pad = 5000
        var token = ""
        while true {
            let next = Fixture.token(.hs256, claims: { $0["pad"] = .string(String(repeating: "x", count: pad + 1)) })
            if next.utf8.count > 8192 { break }
            token = next
            pad += 1
        }
        #expect(token.utf8.count >= 8190)
        #expect(verifier.verify(token, now: now).refusalCode == nil)
        let over = Fixture.token(.hs256, claims: { $0["pad"] = .string(String(repeating: "x", count: pad + 1)) })
        #expect(verifier.verify(over, now: now).refusalCode == "token_too_large")
    }

    @Test func aHeaderThatIsNotAJSONObjectIsRefused() throws {
        let verifier = try Fixture.verifier()
        let claims = JSONValue.object(Fixture.claims).canonicalBytes
        for header in [#"{"alg":"HS256""#, #"{"alg":"HS256",}"#, "[\"HS256\"]", "\"HS256\"", "", "{'alg':'HS256'}", #"{"alg":"HS256"} x"#] {
            let token = TokenMaker.token(header: Array(header.utf8), payload: claims, .hmac(Fixture.secret))
            #expect(verifier.verify(token, now: now).refusalCode == "token_malformed", "\(header)")
        }
        let notUTF8 = TokenMaker.token(header: [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], payload: claims, .hmac(Fixture.secret))
        #expect(verifier.verify(notUTF8, now: now).refusalCode == "token_malformed")
    }

    /// A member named twice (RFC 7515 §4: reject, or take the last): refused, so that no header
    /// or claim means one thing here and another to a parser that keeps the first. The refusal
    /// does not repeat the name.
    @Test func aMemberNamedTwiceIsRefused() throws {
        let verifier = try Fixture.verifier()
        let claims = JSONValue.object(Fixture.claims).canonicalBytes
        let algTwice = TokenMaker.token(header: Array(#"{"alg":"none","alg":"HS256"}"#.utf8), payload: claims, .hmac(Fixture.secret))
        let nameTwice = Array(#"{"alg":"HS256","zq-twice-zq":1,"zq-twice-zq":2}"#.utf8)
        let twiceInHeader = TokenMaker.token(header: nameTwice, payload: claims, .hmac(Fixture.secret))
        let payload = Array(String(decoding: claims.dropLast(), as: UTF8.self).appending(#","sub":"admin"}"#).utf8)
        let twiceInPayload = TokenMaker.token(header: JSONValue.object(Fixture.header(.hs256)).canonicalBytes, payload: payload, .hmac(Fixture.secret))
        for token in [algTwice, twiceInHeader, twiceInPayload] {
            guard case .failure(let refusal) = verifier.verify(token, now: now) else {
                Issue.record("accepted")
                continue
            }
            #expect(refusal.code == "token_malformed")
            #expect(!refusal.detail.contains("zq-twice-zq") && !refusal.detail.contains("sub"), "\(refusal.detail)")
        }
    }

    @Test func aSignedPayloadThatIsNotAJSONObjectIsRefused() throws {
        let verifier = try Fixture.verifier()
        let header = JSONValue.object(Fixture.header(.rs256)).canonicalBytes
        for payload in [#"{"sub":"#, #"{"sub":"user-42""#, "[]", "null", "42", "", #"{"exp":1e999}"#] {
            let token = TokenMaker.token(header: header, payload: Array(payload.utf8), .key(Fixture.rsa))
            let result = verifier.verify(token, now: now)
            #expect(result.refusalCode == "token_malformed", "\(payload)")
            if case .failure(let refusal) = result { #expect(refusal.detail.contains("payload")) }
        }
    }
}

@Suite("JWTRefusal")
struct JWTRefusalTests {
    static let all: [JWTRefusal] = [
        .tooLarge, .malformed("x"), .typeNotAllowed, .criticalHeader, .algorithmNotAllowed, .keyUnknown, .keyAmbiguous,
        .keyAlgorithmMismatch, .signatureInvalid, .claimInvalid("exp"), .expiryMissing, .expired, .notYetValid, .issuedInFuture,
        .issuerMismatch, .audienceMismatch, .subjectMissing,
    ]

    @Test func codesAreDistinctAndStable() {
        let codes = Self.all.map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { $0.hasPrefix("token_") && $0.allSatisfy { $0.isLowercase || $0 == "_" } })
        #expect(codes.contains("token_malformed") && codes.contains("token_algorithm_not_allowed") && codes.contains("token_expired"))
    }

    /// Refusals of tokens whose parts, subject, issuer and audience are all distinctive: no detail
    /// repeats any of them, nor the key ids or secrets.
    @Test func detailsNeverEchoTheTokenOrKeys() throws {
        let verifier = try Fixture.verifier()
        let marker = "zq-marker-zq"
        let tokens = [
            Fixture.token(.hs256, otherKey: true, claims: { $0["sub"] = .string(marker) }),
            Fixture.token(.rs256, header: { $0["kid"] = .string(marker) }),
            Fixture.token(.es256, header: { $0["alg"] = .string(marker) }),
            Fixture.token(.hs256, header: { $0["typ"] = .string(marker) }),
            Fixture.token(.hs256, claims: { $0["iss"] = .string(marker) }),
            Fixture.token(.hs256, claims: { $0["aud"] = .string(marker) }),
            Fixture.token(.hs256, claims: { $0["exp"] = .string(marker) }),
            Fixture.token(.hs256, claims: { $0["exp"] = 1 }),
            TokenMaker.token(header: Array(marker.utf8), payload: [], .bytes([])),
            String(repeating: marker, count: 1000),
        ]
        let secrets = [Fixture.secret, Fixture.otherSecret].map { String(decoding: $0, as: UTF8.self) }
        for token in tokens {
            guard case .failure(let refusal) = verifier.verify(token, now: Fixture.now) else {
                Issue.record("accepted")
                continue
            }
            let parts = token.split(separator: ".").map(String.init).filter { $0.count >= 8 }
            #expect(!refusal.detail.contains(marker), "\(refusal.code)")
            #expect(!parts.contains { refusal.detail.contains($0) }, "\(refusal.code)")
            #expect(!secrets.contains { refusal.detail.contains($0) }, "\(refusal.code)")
            #expect(!refusal.detail.contains("rsa-1") && !refusal.detail.contains(Fixture.subject))
        }
    }
}
