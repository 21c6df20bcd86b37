import WayfinderCore

/// The built-in ``Authenticator``: a bearer JWT of the team's identity provider in the
/// `Authorization` header of `POST /v1/sessions` makes the new session that user's
/// (``JWTVerifier`` checks it). Other requests carry the session's own token there, so this
/// authenticator finds nothing in them: the session was bound to its user when it was created.
package struct JWTAuthenticator: Authenticator {
    let verifier: JWTVerifier
    /// Why the JWKS's left-out keys were left out, for the start-up log.
    package let ignoredKeys: [String]

    /// A verifier of tokens from `issuer` for `audience`, signed with the HS256 `hmacSecret` or
    /// a key of the JWKS document `jwks`; clocks may disagree by `clockSkewSeconds`.
    /// - Throws: why the configuration cannot verify anything (a JWKS that does not parse, a
    ///   secret too short, no key at all): the server does not start.
    package init(
        hmacSecret: [UInt8]?, jwks document: [UInt8]?, issuer: String, audience: String, clockSkewSeconds: Int64
    ) throws(JWTConfigurationError) {
        let jwks = try document.map { (bytes) throws(JWTConfigurationError) in try JWKS.parse(bytes) }
        verifier = try JWTVerifier(
            .init(hmacSecret: hmacSecret, jwks: jwks, issuer: issuer, audience: audience, clockSkew: clockSkewSeconds))
        ignoredKeys = jwks?.ignored ?? []
    }

    /// The session's own token is in `Authorization` on every other request.
    package var authenticatesSessionRequests: Bool { false }

    /// RFC 7519's registered claims, left out of an identity's `claims`.
    static let registeredClaims = ["iss", "sub", "aud", "exp", "nbf", "iat", "jti"]

    package func authenticate(_ request: AuthenticationRequest) -> Authentication {
        guard case .createSession = request.purpose, let header = request.header("Authorization") else { return .none }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            return .refused(code: "token_malformed", detail: "Authorization must be 'Bearer <JWT>'.")
        }
        let token = String(parts[1]).trimmingSpacesString
        switch verifier.verify(token, now: WallClock.nowMillis() / 1000) {
        case .success(let verified):
            // The registered claims were checked and say nothing more about the user (the
            // session outlives the token's `exp`); the rest is the provider's word about them.
            var claims = verified.claims.objectValue ?? [:]
            for name in Self.registeredClaims { claims.removeValue(forKey: name) }
            return .verified(Identity(subject: verified.subject, issuer: verified.issuer, claims: claims))
        case .failure(let refusal):
            return .refused(code: refusal.code, detail: refusal.detail)
        }
    }
}

extension JWTAuthenticator {
    /// An HS256 JWT of `claims`, signed with `secret` as an identity provider signs it: for the
    /// package's tests, which play the provider (a server never issues identity tokens).
    package static func hs256Token(claims: JSONObject, secret: [UInt8]) -> String {
        let header: JSONValue = ["alg": "HS256", "typ": "JWT"]
        let input = Credentials.base64URL(header.canonicalBytes) + "." + Credentials.base64URL(JSONValue.object(claims).canonicalBytes)
        return input + "." + Credentials.base64URL(HMACSHA256.authenticate(Array(input.utf8), key: secret))
    }
}
