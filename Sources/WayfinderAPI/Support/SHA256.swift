import COpenSSL

/// SHA-256 by OpenSSL's libcrypto: bearer tokens are stored as their digest, and an idempotency
/// key's request as its fingerprint.
enum SHA256 {
    /// The 32-byte digest of `bytes`.
    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
            var length: UInt32 = 0
            let done = bytes.withUnsafeBytes { input in
                EVP_Digest(input.baseAddress, input.count, digest.baseAddress, &length, EVP_sha256(), nil)
            }
            // EVP_Digest fails only when it cannot allocate its context: as fatal as any failed allocation.
            precondition(done == 1 && length == 32, "EVP_Digest(SHA-256) failed")
            count = 32
        }
    }
}
