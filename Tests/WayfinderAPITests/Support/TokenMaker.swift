@testable import WayfinderAPI
import WayfinderCore

/// Makes compact JWS tokens the way an identity provider does, signed with the test keys.
enum TokenMaker {
    /// How the third part is made.
    enum Signature {
        /// HMAC-SHA256 with this secret (HS256).
        case hmac([UInt8])
        /// This key's signature (RS256 or ES256).
        case key(TestSigningKey)
        /// These bytes, whatever the header says.
        case bytes([UInt8])
    }

    static func base64URL(_ bytes: [UInt8]) -> String { Credentials.base64URL(bytes) }

    /// `header.payload.signature` of two JSON values.
    static func token(header: JSONValue, claims: JSONValue, _ signature: Signature) -> String {
        token(header: header.canonicalBytes, payload: claims.canonicalBytes, signature)
    }

    /// `header.payload.signature` of any bytes, JSON or not.
    static func token(header: [UInt8], payload: [UInt8], _ signature: Signature) -> String {
        let input = base64URL(header) + "." + base64URL(payload)
        let bytes: [UInt8] =
            switch signature {
            case .hmac(let secret): HMACSHA256.authenticate(Array(input.utf8), key: secret)
            case .key(let key): key.sign(Array(input.utf8))
            case .bytes(let bytes): bytes
            }
        return input + "." + base64URL(bytes)
    }
}

/// The identity provider of the tests: its keys, its usual claims, and verifiers that trust it.
enum Fixture {
    static let issuer = "https://id.example.com"
    static let audience = "wayfinder"
    static let subject = "user-42"
    static let now: Int64 = 1_750_000_000
    static let secret = Array("the HS256 secret of the tests, 32 bytes or more".utf8)
    static let otherSecret = Array("another HS256 secret, also 32 bytes or more".utf8)

    // Made once per run (RSA key generation is the slow part).
    static let rsa = TestSigningKey(.rsa(bits: 2048))
    static let otherRSA = TestSigningKey(.rsa(bits: 2048))
    static let ec = TestSigningKey(.p256)
    static let otherEC = TestSigningKey(.p256)

    /// The claims of a good token: issued now, valid for ten minutes.
    static var claims: JSONObject {
        ["iss": .string(issuer), "aud": .string(audience), "sub": .string(subject), "exp": .int(Int(now) + 600), "iat": .int(Int(now))]
    }

    /// A JWKS document of `keys` (JWK objects).
    static func jwks(_ keys: JSONValue...) throws -> JWKS {
        try JWKS.parse(JSONValue.object(["keys": .array(keys)]).canonicalString)
    }

    /// The provider's published keys: `rsa-1` (alg RS256) and `ec-1` (no alg).
    static func standardJWKS() throws -> JWKS { try jwks(rsa.jwk(kid: "rsa-1", alg: "RS256"), ec.jwk(kid: "ec-1")) }

    /// A verifier of the secret and the standard JWKS unless told otherwise.
    static func verifier(secret: [UInt8]? = secret, jwks: JWKS? = nil, standardJWKS useStandard: Bool = true, clockSkew: Int64 = 60)
        throws -> JWTVerifier
    {
        try JWTVerifier(
            .init(hmacSecret: secret, jwks: jwks ?? (useStandard ? standardJWKS() : nil), issuer: issuer, audience: audience, clockSkew: clockSkew))
    }

    /// The header of a good token of `algorithm`: `typ` JWT, and the standard key's `kid`.
    static func header(_ algorithm: JWTAlgorithm) -> JSONObject {
        var header: JSONObject = ["alg": .string(algorithm.rawValue), "typ": "JWT"]
        switch algorithm {
        case .hs256: break
        case .rs256: header["kid"] = "rsa-1"
        case .es256: header["kid"] = "ec-1"
        }
        return header
    }

    /// How the provider signs with `algorithm`; `other` for a key the verifier does not know.
    static func signature(_ algorithm: JWTAlgorithm, other: Bool = false) -> TokenMaker.Signature {
        switch algorithm {
        case .hs256: .hmac(other ? otherSecret : secret)
        case .rs256: .key(other ? otherRSA : rsa)
        case .es256: .key(other ? otherEC : ec)
        }
    }

    /// A token of `algorithm` with the good header and claims as `edit` changes them.
    static func token(
        _ algorithm: JWTAlgorithm, otherKey: Bool = false,
        header editHeader: (inout JSONObject) -> Void = { _ in }, claims editClaims: (inout JSONObject) -> Void = { _ in }
    ) -> String {
        var header = header(algorithm)
        editHeader(&header)
        var claims = claims
        editClaims(&claims)
        return TokenMaker.token(header: .object(header), claims: .object(claims), signature(algorithm, other: otherKey))
    }
}

extension Result where Failure == JWTRefusal {
    /// The refusal's code; nil when the token was accepted.
    var refusalCode: String? {
        if case .failure(let refusal) = self { refusal.code } else { nil }
    }
}
