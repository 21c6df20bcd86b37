import Foundation
import WayfinderAPI
import WayfinderCore

/// The client tests' identity provider: the live servers trust its HS256 tokens.
enum TestIdentity {
    static let issuer = "https://id.client.test"
    static let audience = "wayfinder-client-tests"
    static let secret = Array("the client tests' HS256 secret, 32 bytes or more".utf8)

    static let authenticator: JWTAuthenticator = {
        do {
            return try JWTAuthenticator(hmacSecret: secret, jwks: nil, issuer: issuer, audience: audience, clockSkewSeconds: 60)
        } catch {
            fatalError("the tests' JWT configuration is refused: \(error)")
        }
    }()

    /// A token for `email`, valid for an hour.
    static func token(_ email: String) -> String {
        let now = Int(Date().timeIntervalSince1970)
        return JWTAuthenticator.hs256Token(
            claims: ["iss": .string(issuer), "aud": .string(audience), "sub": .string(email), "email": .string(email), "iat": .int(now), "exp": .int(now + 3600)],
            secret: secret)
    }
}
