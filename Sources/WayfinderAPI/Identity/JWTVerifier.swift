import WayfinderCore

/// Why a verifier cannot be set up (a JWKS document or key refused, a secret too short, …): the
/// server stops at start with the reason. Never holds key material.
package struct JWTConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, in words for the operator ("keys[1] (kid "a"): the RSA key has 1024 bits, …").
    package var reason: String
    init(_ reason: String) { self.reason = reason }
    package var description: String { reason }
}

/// A token that verified: who it is about, from whom, for whom, until when, and all its claims.
struct VerifiedToken: Sendable, Equatable {
    /// `sub`: the user, as the identity provider names them (a non-empty string).
    let subject: String
    /// `iss`: the configured issuer.
    let issuer: String
    /// `aud`, as a list (one element when the token gave a string); it contains the configured audience.
    let audience: [String]
    /// `exp`, in seconds since the epoch.
    let expiresAt: Int64
    /// The whole claims object, for what later needs more than the registered claims.
    let claims: JSONValue
}

/// Verifies bearer JWTs (compact JWS, RFC 7515 and 7519) from one identity provider: the
/// signature (HS256, RS256 or ES256, by OpenSSL), then the claims (expiry, not-before, issued-at,
/// issuer, audience, subject). It keeps no clock: the caller says what time it is.
///
/// An algorithm is accepted when the configuration has a key for it; `none` never is. The
/// header's `kid` picks the key; without one, the only key for the algorithm is used, and more
/// than one is refused. A key published with an `alg` verifies only that algorithm.
struct JWTVerifier: Sendable {
    /// The smallest HS256 secret accepted: RFC 7518 §3.2 wants at least the hash's 256 bits.
    static let minimumSecretLength = 32

    /// What a verifier accepts.
    struct Configuration: Sendable {
        /// The HS256 shared secret, if the provider signs with one.
        var hmacSecret: [UInt8]?
        /// The `kid` tokens signed with the secret carry, if they carry one.
        var hmacKeyID: String?
        /// The provider's RS256 and ES256 keys.
        var jwks: JWKS?
        /// The `iss` every token must have.
        var issuer: String
        /// The audience (`aud`, or one element of it) every token must name.
        var audience: String
        /// How many seconds clocks may disagree by, in the expiry, not-before and issued-at checks.
        var clockSkew: Int64 = 60
    }

    /// Every key, the secret first, then the JWKS's in its order.
    let keys: [JWTKey]
    /// The algorithms with a key.
    let algorithms: Set<JWTAlgorithm>
    /// The `iss` required.
    let issuer: String
    /// The audience `aud` must name.
    let audience: String
    /// Seconds of leeway in the time checks.
    let clockSkew: Int64

    /// A verifier of `configuration`: refused without keys, with a secret under 32 bytes, an
    /// empty issuer or audience, or a negative clock skew.
    init(_ configuration: Configuration) throws(JWTConfigurationError) {
        var keys: [JWTKey] = []
        if let secret = configuration.hmacSecret {
            guard secret.count >= Self.minimumSecretLength else {
                throw JWTConfigurationError("the HS256 secret is \(secret.count) bytes, fewer than the \(Self.minimumSecretLength) required")
            }
            keys.append(JWTKey(id: configuration.hmacKeyID, algorithm: JWTAlgorithm.hs256.rawValue, material: .hmac(secret)))
        }
        let published = configuration.jwks?.keys ?? []  // their kids are distinct (JWKS.parse)
        if let id = configuration.hmacKeyID, published.contains(where: { $0.id == id }) {
            throw JWTConfigurationError("the HS256 secret's kid \"\(id)\" is also a JWKS key's")
        }
        keys += published
        guard !keys.isEmpty else { throw JWTConfigurationError("no key: configure an HS256 secret or a JWKS") }
        guard !configuration.issuer.isEmpty else { throw JWTConfigurationError("the issuer is empty") }
        guard !configuration.audience.isEmpty else { throw JWTConfigurationError("the audience is empty") }
        guard configuration.clockSkew >= 0 else { throw JWTConfigurationError("the clock skew is negative") }
        self.keys = keys
        algorithms = Set(keys.map(\.family))
        issuer = configuration.issuer
        audience = configuration.audience
        clockSkew = configuration.clockSkew
    }

    /// Verifies `token` at `now` (seconds since the epoch): the token's claims, or why it is refused.
    func verify(_ token: String, now: Int64) -> Result<VerifiedToken, JWTRefusal> {
        Result { () throws(JWTRefusal) -> VerifiedToken in try check(token, now: now) }
    }

    /// The checks in order: the form, the header, the signature, then (signed, so worth reading) the claims.
    private func check(_ token: String, now: Int64) throws(JWTRefusal) -> VerifiedToken {
        let jws = try CompactJWS.parse(token)
        let key = try checkHeader(jws.header)
        guard verifies(jws, with: key) else { throw .signatureInvalid }
        let claims = try CompactJWS.parseObject(jws.payload, "payload")
        return try checkClaims(claims, now: now)
    }

    /// The key the header's `alg` and `kid` pick, after the header's own checks.
    private func checkHeader(_ header: JSONObject) throws(JWTRefusal) -> JWTKey {
        if let typ = header["typ"] {
            guard let typ = typ.stringValue else { throw .malformed("the header's typ is not a string") }
            guard typ.lowercased() == "jwt" else { throw .typeNotAllowed }
        }
        guard header["crit"] == nil else { throw .criticalHeader }
        guard let name = header["alg"]?.stringValue, let algorithm = JWTAlgorithm(rawValue: name), algorithms.contains(algorithm)
        else { throw .algorithmNotAllowed }
        let key: JWTKey
        if let kid = header["kid"] {
            guard let kid = kid.stringValue else { throw .malformed("the header's kid is not a string") }
            guard let named = keys.first(where: { $0.id == kid }) else { throw .keyUnknown }
            guard named.family == algorithm else { throw .keyAlgorithmMismatch }
            key = named
        } else {
            let candidates = keys.filter { $0.family == algorithm }
            guard candidates.count == 1 else { throw .keyAmbiguous }  // never 0: `algorithms` has a key for it
            key = candidates[0]
        }
        guard key.algorithm == nil || key.algorithm == algorithm.rawValue else { throw .keyAlgorithmMismatch }
        return key
    }

    /// Whether the token's signature is `key`'s over its signing input.
    private func verifies(_ jws: CompactJWS, with key: JWTKey) -> Bool {
        switch key.material {
        case .hmac(let secret):
            HMACSHA256.constantTimeEqual(HMACSHA256.authenticate(jws.signingInput, key: secret), jws.signature)
        case .rsa(let publicKey): publicKey.verifyRS256(jws.signature, of: jws.signingInput)
        case .ec(let publicKey): publicKey.verifyES256(jws.signature, of: jws.signingInput)
        }
    }

    /// The registered claims' checks (RFC 7519 §4.1), in the order: exp, nbf, iat, iss, aud, sub.
    private func checkClaims(_ claims: JSONObject, now: Int64) throws(JWTRefusal) -> VerifiedToken {
        guard let expiresAt = try Self.numericDate("exp", in: claims, roundingUp: false) else { throw .expiryMissing }
        guard now < expiresAt.saturatingAdding(clockSkew) else { throw .expired }
        if let notBefore = try Self.numericDate("nbf", in: claims, roundingUp: true) {
            guard now >= notBefore.saturatingAdding(-clockSkew) else { throw .notYetValid }
        }
        if let issuedAt = try Self.numericDate("iat", in: claims, roundingUp: true) {
            guard issuedAt <= now.saturatingAdding(clockSkew) else { throw .issuedInFuture }
        }

        guard let iss = claims["iss"] else { throw .issuerMismatch }
        guard let issuer = iss.stringValue else { throw .claimInvalid("iss") }
        guard issuer == self.issuer else { throw .issuerMismatch }

        let audience: [String]
        switch claims["aud"] {
        case nil: throw .audienceMismatch
        case .string(let one)?: audience = [one]
        case .array(let many)?:
            audience = try many.map { (element) throws(JWTRefusal) -> String in
                guard let string = element.stringValue else { throw .claimInvalid("aud") }
                return string
            }
        default: throw .claimInvalid("aud")
        }
        guard audience.contains(self.audience) else { throw .audienceMismatch }

        guard let sub = claims["sub"] else { throw .subjectMissing }
        guard let subject = sub.stringValue else { throw .claimInvalid("sub") }
        guard !subject.isEmpty else { throw .subjectMissing }

        return VerifiedToken(subject: subject, issuer: issuer, audience: audience, expiresAt: expiresAt, claims: .object(claims))
    }

    /// The NumericDate claim `name` in whole seconds, nil when absent. A fraction is rounded
    /// against the token (`exp` down; `nbf` and `iat` up), and a number beyond Int64 saturates.
    private static func numericDate(_ name: String, in claims: JSONObject, roundingUp: Bool) throws(JWTRefusal) -> Int64? {
        switch claims[name] {
        case nil: return nil
        case .int(let seconds)?: return Int64(seconds)
        case .double(let seconds)?:
            let whole = seconds.rounded(roundingUp ? .up : .down)
            if whole >= 0x1p63 { return .max }
            if whole < -0x1p63 { return .min }
            return Int64(whole)
        default: throw .claimInvalid(name)
        }
    }
}

extension Int64 {
    /// `self + other`, or the bound it would pass.
    fileprivate func saturatingAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
