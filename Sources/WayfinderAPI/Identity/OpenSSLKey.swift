import COpenSSL

/// Why OpenSSL would not take a key: what failed, with the reason from OpenSSL's error queue when
/// it gave one. Never holds key material.
struct OpenSSLKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed, in words for the operator.
    var reason: String
    var description: String { reason }

    /// `what` failed; OpenSSL's first queued reason is appended, and the queue emptied.
    static func openSSL(_ what: String) -> OpenSSLKeyError {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0, let reason = ERR_reason_error_string(code) else { return OpenSSLKeyError(reason: what) }
        return OpenSSLKeyError(reason: "\(what) (OpenSSL: \(String(cString: reason)))")
    }
}

/// A public key held by OpenSSL's libcrypto (an `EVP_PKEY`), for verifying RS256 and ES256
/// signatures. It is built from a JWK's numbers with `EVP_PKEY_fromdata` and checked by
/// `EVP_PKEY_public_check` before anything uses it.
///
/// `@unchecked Sendable`: the key is never modified after it is built, and OpenSSL 3 allows one
/// `EVP_PKEY` in concurrent verifications (each has its own `EVP_MD_CTX`).
final class OpenSSLPublicKey: @unchecked Sendable {
    /// The smallest RSA modulus accepted (RFC 7518 §3.3: 2048 bits or larger).
    static let minimumRSABits = 2048
    /// The largest RSA modulus accepted: OpenSSL's own limit for verification.
    static let maximumRSABits = 16384

    /// The two kinds of key: each verifies one algorithm only.
    enum Kind: Sendable {
        case rsa
        case p256
    }

    /// The `EVP_PKEY`, owned (freed in `deinit`).
    private let key: OpaquePointer
    /// RSA or P-256.
    let kind: Kind
    /// The key's size in bits: the modulus's for RSA, 256 for P-256.
    let bits: Int

    private init(owning key: OpaquePointer, kind: Kind) {
        self.key = key
        self.kind = kind
        bits = Int(EVP_PKEY_get_bits(key))
    }

    deinit { EVP_PKEY_free(key) }

    /// An RSA public key from its modulus and public exponent (big-endian bytes, as in a JWK's `n`
    /// and `e`); refused under 2048 bits.
    static func rsa(modulus: [UInt8], exponent: [UInt8]) throws(OpenSSLKeyError) -> OpenSSLPublicKey {
        guard modulus.count <= maximumRSABits / 8 else { throw OpenSSLKeyError(reason: "the RSA key is larger than \(maximumRSABits) bits") }
        guard exponent.count <= modulus.count else { throw OpenSSLKeyError(reason: "the RSA exponent is longer than the modulus") }
        guard let n = BN_bin2bn(modulus, Int32(modulus.count), nil) else { throw .openSSL("cannot read the RSA modulus") }
        defer { BN_free(n) }
        guard let e = BN_bin2bn(exponent, Int32(exponent.count), nil) else { throw .openSSL("cannot read the RSA exponent") }
        defer { BN_free(e) }
        // The size first: a short key is refused for its size, whatever OpenSSL's check would say.
        let bits = Int(BN_num_bits(n))
        guard bits >= minimumRSABits else {
            throw OpenSSLKeyError(reason: "the RSA key has \(bits) bits, fewer than the \(minimumRSABits) required")
        }
        return try build(.rsa) { builder in
            OSSL_PARAM_BLD_push_BN(builder, wayfinder_param_rsa_n(), n) == 1
                && OSSL_PARAM_BLD_push_BN(builder, wayfinder_param_rsa_e(), e) == 1
        }
    }

    /// A P-256 public key from its point's coordinates (32 big-endian bytes each, as in a JWK's
    /// `x` and `y`); OpenSSL refuses a point that is not on the curve.
    static func p256(x: [UInt8], y: [UInt8]) throws(OpenSSLKeyError) -> OpenSSLPublicKey {
        guard x.count == 32, y.count == 32 else {
            throw OpenSSLKeyError(reason: "a P-256 coordinate is 32 bytes, not \(x.count == 32 ? y.count : x.count)")
        }
        let point: [UInt8] = [0x04] + x + y  // SEC 1 uncompressed form
        return try point.withUnsafeBufferPointer { (point) throws(OpenSSLKeyError) -> OpenSSLPublicKey in
            // The builder reads `point` in OSSL_PARAM_BLD_to_param, inside this closure.
            try build(.p256) { builder in
                OSSL_PARAM_BLD_push_utf8_string(builder, wayfinder_param_group_name(), wayfinder_group_p256(), 0) == 1
                    && OSSL_PARAM_BLD_push_octet_string(builder, wayfinder_param_public_key(), point.baseAddress, point.count) == 1
            }
        }
    }

    /// A public key of `kind` from the parameters `push` adds to a builder, checked.
    private static func build(_ kind: Kind, _ push: (OpaquePointer) -> Bool) throws(OpenSSLKeyError) -> OpenSSLPublicKey {
        ERR_clear_error()
        guard let builder = OSSL_PARAM_BLD_new() else { throw .openSSL("cannot allocate a parameter builder") }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard push(builder), let parameters = OSSL_PARAM_BLD_to_param(builder) else {
            throw .openSSL("cannot build the key's parameters")
        }
        defer { OSSL_PARAM_free(parameters) }
        let type = kind == .rsa ? wayfinder_key_type_rsa() : wayfinder_key_type_ec()
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { throw .openSSL("cannot create a key context") }
        defer { EVP_PKEY_CTX_free(context) }
        var made: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &made, wayfinder_evp_pkey_public_key_selection(), parameters) == 1,
            let made
        else { throw .openSSL("OpenSSL refused the key") }
        let key = OpenSSLPublicKey(owning: made, kind: kind)  // frees the EVP_PKEY if the check below fails
        guard let checker = EVP_PKEY_CTX_new_from_pkey(nil, made, nil) else { throw .openSSL("cannot create a key context") }
        defer { EVP_PKEY_CTX_free(checker) }
        guard EVP_PKEY_public_check(checker) == 1 else { throw .openSSL("OpenSSL's check of the public key failed") }
        return key
    }

    /// Whether `signature` is this RSA key's RSASSA-PKCS1-v1_5 SHA-256 signature of `message`
    /// (RS256); false for a P-256 key, whatever the signature.
    func verifyRS256(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        kind == .rsa && verifySHA256(signature, of: message)
    }

    /// Whether `signature` (JWS form: r and s, 32 big-endian bytes each) is this P-256 key's ECDSA
    /// SHA-256 signature of `message` (ES256); false for an RSA key. OpenSSL verifies DER, so r||s
    /// is converted first.
    func verifyES256(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard kind == .p256, let der = Self.derECDSASignature(signature) else { return false }
        return verifySHA256(der, of: message)
    }

    /// `EVP_DigestVerify` with SHA-256, whatever the key's type (the callers check it): RSA keys
    /// use PKCS #1 v1.5 padding, OpenSSL's default.
    private func verifySHA256(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()  // a refused signature queues errors; none should outlive this call
        }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }

    /// The DER `ECDSA-Sig-Value` of a 64-byte r||s signature; nil for any other length.
    private static func derECDSASignature(_ raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let (r, s) = raw.withUnsafeBufferPointer { raw in
            (BN_bin2bn(raw.baseAddress, 32, nil), BN_bin2bn(raw.baseAddress! + 32, 32, nil))
        }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {  // on success, `signature` owns r and s
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? der : nil
    }
}

/// HMAC-SHA256 by OpenSSL's `EVP_MAC` ("HMAC" with digest SHA256), and the constant-time
/// comparison HS256 needs.
enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`, which is not empty (the verifier's secrets are
    /// 32 bytes or more; OpenSSL takes a missing key as no key at all).
    static func authenticate(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        precondition(!key.isEmpty, "an HMAC key is not empty")
        return [UInt8](unsafeUninitializedCapacity: 32) { mac, count in
            var length = 0
            let done = key.withUnsafeBytes { key in
                EVP_Q_mac(nil, "HMAC", nil, "SHA256", nil, key.baseAddress, key.count, message, message.count, mac.baseAddress, 32, &length)
            }
            // It fails only when it cannot allocate its context: as fatal as any failed allocation.
            precondition(done != nil && length == 32, "EVP_Q_mac(HMAC-SHA256) failed")
            count = 32
        }
    }

    /// Whether `a` and `b` are equal, in time that depends only on their lengths (`CRYPTO_memcmp`).
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { a in b.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }
}
