import Foundation
import WayfinderAPI
import WayfinderCore

/// The identity settings: bearer JWTs of the team's identity provider, and the operator key.
struct IdentitySettings: Sendable {
    var jwtIssuer: String?
    var jwtAudience: String?
    var jwtSecretFile: String?
    var jwksFile: String?
    var jwtClockSkewSeconds = 60.0
    var operatorKeyFile: String?
    /// The operator key itself (only from `WAYFINDER_OPERATOR_KEY`: a flag would show it in `ps`).
    var operatorKey: String?

    /// Whether any JWT setting is given (then issuer, audience and a key are all required).
    var jwtConfigured: Bool { jwtIssuer != nil || jwtAudience != nil || jwtSecretFile != nil || jwksFile != nil }

    /// The smallest operator key accepted, in bytes.
    static let minimumOperatorKeyBytes = 32

    /// The built-in JWT authenticator these settings describe (nil: none configured).
    /// - Throws: ``StartError`` naming the setting at fault: a file that cannot be read, a JWKS
    ///   that does not parse, a secret too short, an issuer or audience missing.
    func jwtAuthenticator() throws -> JWTAuthenticator? {
        guard jwtConfigured else { return nil }
        guard let issuer = jwtIssuer, let audience = jwtAudience else {
            throw StartError(message: "--jwt-issuer and --jwt-audience are both required with the other --jwt settings")
        }
        guard jwtSecretFile != nil || jwksFile != nil else {
            throw StartError(message: "--jwt-secret-file or --jwt-jwks-file is required with --jwt-issuer")
        }
        let secret = try jwtSecretFile.map { try Self.read($0, "--jwt-secret-file") }.map(Self.trimmingNewline)
        let jwks = try jwksFile.map { try Self.read($0, "--jwt-jwks-file") }
        do {
            return try JWTAuthenticator(
                hmacSecret: secret, jwks: jwks, issuer: issuer, audience: audience, clockSkewSeconds: Int64(jwtClockSkewSeconds))
        } catch {
            throw StartError(message: "cannot verify JWTs: \(error.reason)")
        }
    }

    /// The operator key (the file's first line, or the environment's), at least 32 bytes; nil: none.
    func resolvedOperatorKey() throws -> String? {
        var key = operatorKey
        if let file = operatorKeyFile {
            guard key == nil else { throw StartError(message: "give the operator key by --operator-key-file or WAYFINDER_OPERATOR_KEY, not both") }
            key = String(decoding: Self.trimmingNewline(try Self.read(file, "--operator-key-file")), as: UTF8.self)
        }
        guard let key else { return nil }
        guard key.utf8.count >= Self.minimumOperatorKeyBytes else {
            throw StartError(message: "the operator key is \(key.utf8.count) bytes, fewer than the \(Self.minimumOperatorKeyBytes) required")
        }
        guard key.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw StartError(message: "the operator key may hold only visible ASCII characters (it is sent as a bearer token)")
        }
        return key
    }

    private static func read(_ path: String, _ setting: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw StartError(message: "\(setting) \(path): cannot be read") }
        return Array(data)
    }

    /// A secret kept in a file usually ends with a newline that is not part of it.
    private static func trimmingNewline(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
        return bytes
    }
}

extension Settings {
    /// An issuer or audience: a URL or a name, in printable ASCII.
    private static func claimValue(_ v: String) throws(Invalid) -> String {
        guard !v.isEmpty, v.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
            throw Invalid(message: "must be printable ASCII without spaces (a URL or a name, as the tokens carry it)")
        }
        return v
    }

    /// A file the server reads at start.
    private static func readableFile(_ v: String) throws(Invalid) -> String {
        guard !v.isEmpty, FileManager.default.isReadableFile(atPath: v) else { throw Invalid(message: "must be a file this process can read") }
        return v
    }

    static let identityOptions: [Option] = [
        Option(name: "jwt-issuer", help: "the iss every identity JWT must have (with the audience and a key: sessions get a verified user)", defaultValue: { $0.identity.jwtIssuer ?? "none" }) { s, v throws(Invalid) in
            s.identity.jwtIssuer = try claimValue(v)
        },
        Option(name: "jwt-audience", help: "the aud every identity JWT must name", defaultValue: { $0.identity.jwtAudience ?? "none" }) { s, v throws(Invalid) in
            s.identity.jwtAudience = try claimValue(v)
        },
        Option(name: "jwt-secret-file", help: "file holding the HS256 shared secret (32 bytes or more)", defaultValue: { $0.identity.jwtSecretFile ?? "none" }) { s, v throws(Invalid) in
            s.identity.jwtSecretFile = try readableFile(v)
        },
        Option(name: "jwt-jwks-file", help: "JWKS file of the provider's RS256 and ES256 public keys", defaultValue: { $0.identity.jwksFile ?? "none" }) { s, v throws(Invalid) in
            s.identity.jwksFile = try readableFile(v)
        },
        Option(name: "jwt-clock-skew", help: "how far clocks may disagree in the exp, nbf and iat checks", defaultValue: { duration($0.identity.jwtClockSkewSeconds) }) { s, v throws(Invalid) in
            s.identity.jwtClockSkewSeconds = try seconds(v)
        },
        Option(name: "operator-key-file", help: "file holding the operator key (32+ visible ASCII bytes; or WAYFINDER_OPERATOR_KEY); none: operator endpoints off", defaultValue: { $0.identity.operatorKeyFile ?? "none" }) { s, v throws(Invalid) in
            s.identity.operatorKeyFile = try readableFile(v)
        },
    ]
}
