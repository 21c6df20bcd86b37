import COpenSSL
import WayfinderCore

@testable import WayfinderAPI

/// A private key OpenSSL generates for a test run, which signs tokens as an identity provider
/// would and publishes its public half as a JWK. Nothing here is precomputed: every key and
/// signature is made fresh, so a check that stopped checking would let a bad token through.
final class TestSigningKey: @unchecked Sendable {
    enum Kind {
        case rsa(bits: Int32)
        case p256
    }

    let kind: Kind
    /// The `EVP_PKEY` (private and public), owned.
    private let key: OpaquePointer

    init(_ kind: Kind) {
        self.kind = kind
        let type = if case .rsa = kind { wayfinder_key_type_rsa() } else { wayfinder_key_type_ec() }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { fatalError("EVP_PKEY_CTX_new_from_name failed") }
        defer { EVP_PKEY_CTX_free(context) }
        precondition(EVP_PKEY_keygen_init(context) == 1, "EVP_PKEY_keygen_init failed")
        switch kind {
        case .rsa(let bits): precondition(EVP_PKEY_CTX_set_rsa_keygen_bits(context, bits) == 1)
        case .p256: precondition(EVP_PKEY_CTX_set_group_name(context, "P-256") == 1)
        }
        var made: OpaquePointer?
        precondition(EVP_PKEY_generate(context, &made) == 1, "EVP_PKEY_generate failed")
        key = made!
    }

    deinit { EVP_PKEY_free(key) }

    /// The public key as a JWK: `kty`, `n` and `e`, or `crv`, `x` and `y`; `kid` and `alg` when given.
    func jwk(kid: String? = nil, alg: String? = nil) -> JSONValue {
        var members: JSONObject
        switch kind {
        case .rsa: members = ["kty": "RSA", "n": .string(encode(modulus)), "e": .string(encode(exponent))]
        case .p256: members = ["kty": "EC", "crv": "P-256", "x": .string(encode(x)), "y": .string(encode(y))]
        }
        if let kid { members["kid"] = .string(kid) }
        if let alg { members["alg"] = .string(alg) }
        return .object(members)
    }

    /// The RSA modulus's big-endian bytes (also what an attacker would try as an HMAC secret).
    var modulus: [UInt8] { number("n") }
    /// The RSA public exponent's big-endian bytes.
    var exponent: [UInt8] { number("e") }
    /// The P-256 point's x coordinate (32 bytes).
    var x: [UInt8] { Array(publicPoint()[1..<33]) }
    /// The P-256 point's y coordinate (32 bytes).
    var y: [UInt8] { Array(publicPoint()[33...]) }

    /// The signature JWS wants of `message` with SHA-256: PKCS #1 v1.5 for RSA, r||s (64 bytes) for P-256.
    func sign(_ message: [UInt8]) -> [UInt8] {
        let der = signDER(message)
        guard case .p256 = kind else { return der }
        return der.withUnsafeBufferPointer { buffer -> [UInt8] in
            var cursor = buffer.baseAddress
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { fatalError("d2i_ECDSA_SIG failed") }
            defer { ECDSA_SIG_free(signature) }
            var r: OpaquePointer?, s: OpaquePointer?
            ECDSA_SIG_get0(signature, &r, &s)
            var raw = [UInt8](repeating: 0, count: 64)
            raw.withUnsafeMutableBufferPointer { out in
                precondition(BN_bn2binpad(r, out.baseAddress, 32) == 32 && BN_bn2binpad(s, out.baseAddress! + 32, 32) == 32)
            }
            return raw
        }
    }

    /// OpenSSL's signature as it makes it: PKCS #1 v1.5 for RSA, DER `ECDSA-Sig-Value` for P-256.
    func signDER(_ message: [UInt8]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        precondition(EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1, "EVP_DigestSignInit failed")
        var length = 0
        precondition(EVP_DigestSign(context, nil, &length, message, message.count) == 1)
        var signature = [UInt8](repeating: 0, count: length)
        precondition(EVP_DigestSign(context, &signature, &length, message, message.count) == 1, "EVP_DigestSign failed")
        return Array(signature.prefix(length))
    }

    private func number(_ name: String) -> [UInt8] {
        var bn: OpaquePointer?
        precondition(EVP_PKEY_get_bn_param(key, name, &bn) == 1, "EVP_PKEY_get_bn_param(\(name)) failed")
        defer { BN_free(bn) }
        var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(bn)) + 7) / 8)
        precondition(Int(BN_bn2bin(bn, &bytes)) == bytes.count)
        return bytes
    }

    /// The uncompressed point 0x04||x||y.
    private func publicPoint() -> [UInt8] {
        var point = [UInt8](repeating: 0, count: 65)
        var length = 0
        precondition(EVP_PKEY_get_octet_string_param(key, "pub", &point, point.count, &length) == 1 && length == 65 && point[0] == 4)
        return point
    }

    private func encode(_ bytes: [UInt8]) -> String { Credentials.base64URL(bytes) }
}
