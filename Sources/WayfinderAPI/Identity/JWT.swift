import WayfinderCore
import WayfinderStore

/// The signature algorithms a verifier can accept (RFC 7518 names). Anything else, `none`
/// included, is not one of them.
enum JWTAlgorithm: String, Sendable, CaseIterable {
    /// HMAC with SHA-256, under a shared secret.
    case hs256 = "HS256"
    /// RSASSA-PKCS1-v1_5 with SHA-256, under an RSA public key.
    case rs256 = "RS256"
    /// ECDSA on P-256 with SHA-256, under an EC public key.
    case es256 = "ES256"
}

/// A compact JWS (RFC 7515 §7.1) split and decoded, nothing trusted yet: `header.payload.signature`,
/// each part base64url without padding.
struct CompactJWS: Sendable {
    /// The header's members.
    let header: JSONObject
    /// The payload's bytes (the claims, once the signature is verified).
    let payload: [UInt8]
    /// What the signature covers: the ASCII of `header.payload` as it was sent.
    let signingInput: [UInt8]
    /// The signature's bytes (empty when the third part is).
    let signature: [UInt8]

    /// Tokens longer than this many bytes are refused before any decoding.
    static let maximumLength = 8 * 1024

    /// Splits `token` into its three parts and decodes them; the header must be a JSON object.
    static func parse(_ token: String) throws(JWTRefusal) -> CompactJWS {
        guard token.utf8.count <= maximumLength else { throw .tooLarge }
        let bytes = Array(token.utf8)
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("a token has three parts separated by dots, not \(parts.count)") }
        guard let headerBytes = Base64URL.decode(parts[0]) else { throw .malformed("the header is not base64url") }
        guard let payload = Base64URL.decode(parts[1]) else { throw .malformed("the payload is not base64url") }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }
        let header = try parseObject(headerBytes, "header")
        return CompactJWS(header: header, payload: payload, signingInput: Array(bytes[..<parts[1].endIndex]), signature: signature)
    }

    /// `bytes` as a JSON object, or a refusal naming `part` ("header", "payload"). The parser's
    /// reason stays out of the refusal: it may quote the text (a member named twice is named).
    static func parseObject(_ bytes: [UInt8], _ part: String) throws(JWTRefusal) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw .malformed("the \(part) is not JSON (at byte \(error.offset))")
        }
        guard let object = value.objectValue else { throw .malformed("the \(part) is \(value.typeNameWithArticle), not an object") }
        return object
    }
}

/// Strict base64url (RFC 4648 §5) as JWS uses it (RFC 7515 §2): the URL-safe alphabet only, no
/// padding, and the unused bits of the last character zero, so that one byte string has exactly
/// one encoding.
enum Base64URL {
    /// The bytes `text` encodes; nil for any character outside the alphabet (`=`, `+`, `/`,
    /// whitespace included), an impossible length or non-zero unused bits.
    static func decode<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3 + 2)
        var group: UInt32 = 0, count = 0
        for character in text {
            let sextet = Base64URLAlphabet.sextets[Int(character)]
            guard sextet & Base64URLAlphabet.invalid == 0 else { return nil }
            group = group << 6 | UInt32(sextet)
            count += 1
            if count == 4 {
                out.append(UInt8(truncatingIfNeeded: group >> 16))
                out.append(UInt8(truncatingIfNeeded: group >> 8))
                out.append(UInt8(truncatingIfNeeded: group))
                group = 0
                count = 0
            }
        }
        switch count {
        case 2:  // 12 bits: one byte, 4 unused
            guard group & 0xF == 0 else { return nil }
            out.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:  // 18 bits: two bytes, 2 unused
            guard group & 0x3 == 0 else { return nil }
            out.append(UInt8(truncatingIfNeeded: group >> 10))
            out.append(UInt8(truncatingIfNeeded: group >> 2))
        default: break
        }
        return out
    }
}
