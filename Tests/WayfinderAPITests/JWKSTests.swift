import Testing
import WayfinderCore

@testable import WayfinderAPI

@Suite("JWKS and the verifier's configuration")
struct JWKSTests {
    /// The reason loading `document` fails with; nil if it loads.
    private func reason(_ document: String) -> String? {
        do {
            _ = try JWKS.parse(document)
            return nil
        } catch {
            return error.reason
        }
    }

    private func reason(_ keys: JSONValue...) -> String? { reason(JSONValue.object(["keys": .array(keys)]).canonicalString) }

    /// `jwk` with `member` set to `value`.
    private func changed(_ jwk: JSONValue, _ member: String, _ value: JSONValue?) -> JSONValue {
        var jwk = jwk
        jwk[member] = value
        return jwk
    }

    @Test func aDocumentOfRSAAndECKeysLoads() throws {
        let document = #"{"keys":[\#(Fixture.rsa.jwk(kid: "rsa-1", alg: "RS256").canonicalString), \#(Fixture.ec.jwk(kid: "ec-1").canonicalString)]}"#
        let jwks = try JWKS.parse(document)
        #expect(jwks.keys.map(\.id) == ["rsa-1", "ec-1"])
        #expect(jwks.keys.map(\.algorithm) == ["RS256", nil])
        #expect(jwks.keys.map(\.family) == [.rs256, .es256])
        #expect(jwks.ignored.isEmpty)
        if case .rsa(let key) = jwks.keys[0].material { #expect(key.bits == 2048) } else { Issue.record("not RSA") }
        if case .ec(let key) = jwks.keys[1].material { #expect(key.bits == 256) } else { Issue.record("not EC") }
    }

    @Test func aDocumentThatIsNotAJWKSIsRefused() {
        #expect(reason("{\"keys\":[") == "the JWKS document is not JSON: unexpected end of input at byte 9")
        #expect(reason("") != nil)
        #expect(reason("{}") == "the JWKS document has no \"keys\" array")
        #expect(reason(#"{"keys":{}}"#) == "the JWKS document has no \"keys\" array")
        #expect(reason(#"{"keys":[]}"#) == "the JWKS document has no RSA or P-256 signing key")
        #expect(reason(#"{"keys":["RSA"]}"#) == "keys[0]: a key is an object, not a string")
        #expect(reason(#"{"keys":[{"n":"AQAB"}]}"#) == "keys[0]: kty is missing")
        #expect(reason(#"{"keys":[{"kty":1}]}"#) == "keys[0]: kty is an integer, not a string")
    }

    @Test func aKeyWithBadBase64URLIsRefusedWithItsReason() {
        let jwk = Fixture.rsa.jwk(kid: "bad")
        let n = jwk["n"]!.stringValue!
        #expect(reason(changed(jwk, "n", .string(n + "=="))) == #"keys[0] (kid "bad"): n is not base64url"#)
        #expect(reason(changed(jwk, "n", .string("+" + n.dropFirst()))) == #"keys[0] (kid "bad"): n is not base64url"#)
        #expect(reason(changed(jwk, "e", "")) == #"keys[0] (kid "bad"): e is not base64url"#)
        #expect(reason(changed(jwk, "e", nil)) == #"keys[0] (kid "bad"): e is missing"#)
        let ec = Fixture.ec.jwk(kid: "ec")
        #expect(reason(changed(ec, "y", "not base64url!")) == #"keys[0] (kid "ec"): y is not base64url"#)
    }

    @Test func anRSAKeyUnder2048BitsIsRefused() {
        let small = TestSigningKey(.rsa(bits: 1024))
        #expect(reason(small.jwk(kid: "old")) == #"keys[0] (kid "old"): the RSA key has 1024 bits, fewer than the 2048 required"#)
        // Leading zero bytes do not make a key longer.
        let jwk = small.jwk(kid: "old")
        let padded = [0, 0] + Base64URL.decode(jwk["n"]!.stringValue!.utf8)!
        #expect(reason(changed(jwk, "n", .string(TokenMaker.base64URL(padded)))) == #"keys[0] (kid "old"): the RSA key has 1024 bits, fewer than the 2048 required"#)
    }

    @Test func anRSAKeyOpenSSLRejectsIsRefused() throws {
        let jwk = Fixture.rsa.jwk(kid: "even")
        var n = try #require(Base64URL.decode(jwk["n"]!.stringValue!.utf8))
        n[n.count - 1] &= 0xFE  // an even modulus is no RSA modulus
        let refused = try #require(reason(changed(jwk, "n", .string(TokenMaker.base64URL(n)))))
        #expect(refused.hasPrefix(#"keys[0] (kid "even"): OpenSSL's check of the public key failed (OpenSSL: "#))
    }

    @Test func anECKeyOffP256IsRefused() {
        let jwk = Fixture.ec.jwk(kid: "ec")
        #expect(reason(changed(jwk, "crv", "P-384")) == #"keys[0] (kid "ec"): curve P-384 is not supported (only P-256)"#)
        #expect(reason(changed(jwk, "crv", "secp256k1")) == #"keys[0] (kid "ec"): curve secp256k1 is not supported (only P-256)"#)
        #expect(reason(changed(jwk, "crv", nil)) == #"keys[0] (kid "ec"): crv is missing"#)
        let short = TokenMaker.base64URL([UInt8](repeating: 1, count: 31))
        #expect(reason(changed(jwk, "x", .string(short))) == #"keys[0] (kid "ec"): a P-256 coordinate is 32 bytes, not 31"#)
    }

    @Test func anECPointOffTheCurveIsRefused() throws {
        let jwk = changed(Fixture.ec.jwk(kid: "ec"), "y", .string(TokenMaker.base64URL([UInt8](repeating: 2, count: 32))))
        let refused = try #require(reason(jwk))
        // OpenSSL's own words: "... (OpenSSL: point is not on curve)".
        #expect(refused.hasPrefix(#"keys[0] (kid "ec"): OpenSSL refused the key (OpenSSL: "#))
        #expect(refused.contains("not on curve"))
    }

    @Test func aPrivateKeyIsRefused() {
        let rsa = changed(Fixture.rsa.jwk(kid: "leak"), "d", "AQAB")
        #expect(reason(rsa) == #"keys[0] (kid "leak"): it is a private key (it has d): publish only public keys"#)
        let ec = changed(Fixture.ec.jwk(), "d", "AQAB")
        #expect(reason(ec) == "keys[0]: it is a private key (it has d): publish only public keys")
    }

    @Test func twoKeysWithOneKidAreRefused() {
        #expect(reason(Fixture.rsa.jwk(kid: "k"), Fixture.ec.jwk(kid: "k")) == #"keys[1] (kid "k"): another key has the same kid"#)
        #expect(reason(Fixture.rsa.jwk(), Fixture.otherRSA.jwk()) == nil)  // two without a kid are fine
    }

    @Test func keysTheVerifierCannotUseAreLeftOutAndListed() throws {
        let document = JSONValue.object([
            "keys": [
                changed(Fixture.otherRSA.jwk(kid: "enc-1"), "use", "enc"),
                ["kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "kid": "ed"],
                ["kty": "oct", "k": "c2VjcmV0", "kid": "hs"],
                changed(Fixture.rsa.jwk(kid: "sig-1"), "use", "sig"),
            ]
        ])
        let jwks = try JWKS.parse(document.canonicalString)
        #expect(jwks.keys.map(\.id) == ["sig-1"])
        #expect(
            jwks.ignored == [
                #"keys[0] (kid "enc-1"): use is enc, not sig"#, #"keys[1] (kid "ed"): kty OKP is not supported (only RSA and EC)"#,
                #"keys[2] (kid "hs"): kty oct is not supported (only RSA and EC)"#,
            ])
        #expect(reason(changed(Fixture.rsa.jwk(), "use", "enc")) == "the JWKS document has no RSA or P-256 signing key")
        // A key left out is unknown to the verifier.
        let verifier = try JWTVerifier(.init(jwks: jwks, issuer: Fixture.issuer, audience: Fixture.audience))
        let token = TokenMaker.token(
            header: ["alg": "RS256", "kid": "enc-1"], claims: .object(Fixture.claims), .key(Fixture.otherRSA))
        #expect(verifier.verify(token, now: Fixture.now).refusalCode == "token_key_unknown")
    }

    @Test func aVerifierNeedsAKeyAnIssuerAnAudienceAndALongEnoughSecret() throws {
        func reason(_ configuration: JWTVerifier.Configuration) -> String? {
            do {
                _ = try JWTVerifier(configuration)
                return nil
            } catch {
                return error.reason
            }
        }
        let jwks = try Fixture.standardJWKS()
        #expect(reason(.init(issuer: "i", audience: "a")) == "no key: configure an HS256 secret or a JWKS")
        #expect(reason(.init(hmacSecret: Array(repeating: 7, count: 31), issuer: "i", audience: "a"))
            == "the HS256 secret is 31 bytes, fewer than the 32 required")
        #expect(reason(.init(hmacSecret: Array(repeating: 7, count: 32), issuer: "i", audience: "a")) == nil)
        #expect(reason(.init(jwks: jwks, issuer: "", audience: "a")) == "the issuer is empty")
        #expect(reason(.init(jwks: jwks, issuer: "i", audience: "")) == "the audience is empty")
        #expect(reason(.init(jwks: jwks, issuer: "i", audience: "a", clockSkew: -1)) == "the clock skew is negative")
        #expect(reason(.init(hmacSecret: Fixture.secret, hmacKeyID: "ec-1", jwks: jwks, issuer: "i", audience: "a"))
            == #"the HS256 secret's kid "ec-1" is also a JWKS key's"#)
        #expect(try JWTVerifier(.init(jwks: jwks, issuer: "i", audience: "a")).clockSkew == 60)
    }
}
