import Foundation
import WayfinderAPI
import WayfinderCore

/// The identity provider of the end-to-end tests: it signs HS256 JWTs with a shared secret, as a
/// team's provider does, and the servers of the tests verify them (the built-in authenticator).
enum TestIdentity {
    static let issuer = "https://id.wayfinder.test"
    static let audience = "wayfinder-e2e"
    static let secret = Array("the end-to-end tests' HS256 secret, 32+ bytes".utf8)
    /// The operator key of the tests' servers.
    static let operatorKey = "operator-key-of-the-end-to-end-tests-0123456789"

    /// The authenticator an in-process server is configured with.
    static let authenticator: JWTAuthenticator = {
        do {
            return try JWTAuthenticator(hmacSecret: secret, jwks: nil, issuer: issuer, audience: audience, clockSkewSeconds: 60)
        } catch {
            fatalError("the tests' JWT configuration is refused: \(error)")
        }
    }()

    /// A token for `subject` (with `email` as its email claim), valid for `lifetime` seconds from
    /// now (negative: expired), signed with `key` (default: the provider's secret).
    static func token(
        subject: String, email: String? = nil, lifetime: Int = 3600, audience: String = audience, key: [UInt8] = secret
    ) -> String {
        let now = Int(Date().timeIntervalSince1970)
        var claims: JSONObject = [
            "iss": .string(issuer), "aud": .string(audience), "sub": .string(subject), "iat": .int(now - 5), "exp": .int(now + lifetime),
        ]
        if let email { claims["email"] = .string(email) }
        return JWTAuthenticator.hs256Token(claims: claims, secret: key)
    }

    /// `Authorization` for creating a session as `subject`.
    static func header(subject: String = "user-a", email: String? = "a@b.c") -> (String, String) {
        ("Authorization", "Bearer " + token(subject: subject, email: email))
    }

    /// The `wayfinder` flags that make a binary server verify these tokens and take the operator
    /// key, with the secret written into `folder`.
    static func arguments(folder: String) throws -> [String] {
        let path = folder + "/jwt-secret"
        try Data(secret).write(to: URL(fileURLWithPath: path))
        return ["--jwt-issuer", issuer, "--jwt-audience", audience, "--jwt-secret-file", path]
    }
}
