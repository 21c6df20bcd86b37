import WayfinderCore

/// A key a token may be verified with: its material, and the `kid` and `alg` it was published with.
struct JWTKey: Sendable {
    /// What verifies the signature.
    enum Material: Sendable {
        /// An HS256 shared secret.
        case hmac([UInt8])
        /// An RSA public key (RS256).
        case rsa(OpenSSLPublicKey)
        /// A P-256 public key (ES256).
        case ec(OpenSSLPublicKey)
    }

    /// The key's id (`kid`), which a token's header names to pick it.
    let id: String?
    /// The JWK's `alg` when it had one, as written: a token must use exactly that algorithm.
    let algorithm: String?
    /// The secret or public key.
    let material: Material

    /// The only algorithm the key's type can verify.
    var family: JWTAlgorithm {
        switch material {
        case .hmac: .hs256
        case .rsa: .rs256
        case .ec: .es256
        }
    }
}

/// A JWK Set (RFC 7517 §5) read into keys: the identity provider's RSA and P-256 signing keys.
///
/// Strict, because a bad document is a configuration error the server stops at: a key of a
/// supported type that OpenSSL refuses, an RSA key under 2048 bits, a curve other than P-256, a
/// private key, or two keys with one `kid` fail the whole document, with the reason. Keys the
/// verifier could never use are left out and listed in `ignored`: encryption keys (`use` not
/// `sig`) and key types other than RSA and EC (symmetric `oct` keys included: an HS256 secret is
/// configured as such, never read from a published document).
struct JWKS: Sendable {
    /// The signing keys, in the document's order.
    let keys: [JWTKey]
    /// Why each left-out key was left out ("keys[2] (kid "k"): use is enc"), for the log.
    let ignored: [String]

    /// Reads a JWKS JSON document.
    static func parse(_ document: [UInt8]) throws(JWTConfigurationError) -> JWKS {
        let value: JSONValue
        do {
            value = try JSONParser.parse(document)
        } catch {
            throw JWTConfigurationError("the JWKS document is not JSON: \(error)")
        }
        guard let entries = value["keys"]?.arrayValue else { throw JWTConfigurationError("the JWKS document has no \"keys\" array") }
        var keys: [JWTKey] = []
        var ignored: [String] = []
        for (index, entry) in entries.enumerated() {
            let name = "keys[\(index)]" + (entry["kid"]?.stringValue.map { " (kid \"\($0)\")" } ?? "")
            do throws(JWTConfigurationError) {
                switch try readKey(entry) {
                case .key(let key):
                    if let id = key.id, keys.contains(where: { $0.id == id }) { throw JWTConfigurationError("another key has the same kid") }
                    keys.append(key)
                case .ignored(let reason): ignored.append("\(name): \(reason)")
                }
            } catch {
                throw JWTConfigurationError("\(name): \(error.reason)")
            }
        }
        guard !keys.isEmpty else { throw JWTConfigurationError("the JWKS document has no RSA or P-256 signing key") }
        return JWKS(keys: keys, ignored: ignored)
    }

    /// Reads a JWKS JSON document given as text.
    static func parse(_ document: String) throws(JWTConfigurationError) -> JWKS { try parse(Array(document.utf8)) }

    /// A JWK read: a key, or why it is of no use for verifying signatures.
    private enum Entry {
        case key(JWTKey)
        case ignored(String)
    }

    /// One JWK: a key of a supported type, refused when unusable, or left out.
    private static func readKey(_ entry: JSONValue) throws(JWTConfigurationError) -> Entry {
        guard let members = entry.objectValue else { throw JWTConfigurationError("a key is an object, not \(entry.typeNameWithArticle)") }
        let kty = try requiredString("kty", in: members)
        let id = try optionalString("kid", in: members)
        let algorithm = try optionalString("alg", in: members)
        if let use = try optionalString("use", in: members), use != "sig" { return .ignored("use is \(use), not sig") }
        guard kty == "RSA" || kty == "EC" else { return .ignored("kty \(kty) is not supported (only RSA and EC)") }
        guard members["d"] == nil else { throw JWTConfigurationError("it is a private key (it has d): publish only public keys") }
        let material: JWTKey.Material
        if kty == "RSA" {
            let n = try bytes("n", in: members), e = try bytes("e", in: members)
            material = .rsa(try openSSL { () throws(OpenSSLKeyError) in try OpenSSLPublicKey.rsa(modulus: n, exponent: e) })
        } else {
            let curve = try requiredString("crv", in: members)
            guard curve == "P-256" else { throw JWTConfigurationError("curve \(curve) is not supported (only P-256)") }
            let x = try bytes("x", in: members), y = try bytes("y", in: members)
            material = .ec(try openSSL { () throws(OpenSSLKeyError) in try OpenSSLPublicKey.p256(x: x, y: y) })
        }
        return .key(JWTKey(id: id, algorithm: algorithm, material: material))
    }

    /// The string member `name`, which must be there.
    private static func requiredString(_ name: String, in members: JSONObject) throws(JWTConfigurationError) -> String {
        guard let string = try optionalString(name, in: members) else { throw JWTConfigurationError("\(name) is missing") }
        return string
    }

    /// The string member `name`, or nil when it is absent.
    private static func optionalString(_ name: String, in members: JSONObject) throws(JWTConfigurationError) -> String? {
        guard let member = members[name] else { return nil }
        guard let string = member.stringValue else { throw JWTConfigurationError("\(name) is \(member.typeNameWithArticle), not a string") }
        return string
    }

    /// The base64url-encoded bytes of the required member `name` (a key's numbers are never empty).
    private static func bytes(_ name: String, in members: JSONObject) throws(JWTConfigurationError) -> [UInt8] {
        let text = try requiredString(name, in: members)
        guard let bytes = Base64URL.decode(text.utf8), !bytes.isEmpty else { throw JWTConfigurationError("\(name) is not base64url") }
        return bytes
    }

    /// Runs `build`, its error as a configuration error.
    private static func openSSL<T>(_ build: () throws(OpenSSLKeyError) -> T) throws(JWTConfigurationError) -> T {
        do {
            return try build()
        } catch {
            throw JWTConfigurationError(error.reason)
        }
    }
}
