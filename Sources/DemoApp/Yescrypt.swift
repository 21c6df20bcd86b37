import CCrypt
import Glibc

/// Password hashes with yescrypt (libxcrypt): slow on purpose, salted, compared in constant time.
enum Yescrypt {
    enum Failure: Error { case failed(Int32) }

    /// A hash of no one's password, made with the same setting ``hash(_:)`` uses: an address with
    /// no account is checked against it, so a sign-in takes as long whether the address has an
    /// account or not.
    static let dummy = "$y$j9T$xjTSdz5WIlk.tTU3Th67X.$RFFykyDoIGOPKha4QbS4xOyIh/Lc5eyGyFxhgtvFwb4"

    /// `$y$…`: a new salt's setting and the hash of `password`.
    static func hash(_ password: String) throws -> String {
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        guard crypt_gensalt_rn("$y$", 0, nil, 0, &setting, Int32(setting.count)) != nil else { throw Failure.failed(errno) }
        let length = setting.firstIndex(of: 0) ?? setting.count
        return try crypt(password, setting: String(decoding: setting[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Whether `password` hashes to `stored`.
    static func verify(_ password: String, _ stored: String) -> Bool {
        guard let computed = try? crypt(password, setting: stored), computed.utf8.count == stored.utf8.count else { return false }
        // Constant time: every byte is compared whatever the first difference.
        return zip(computed.utf8, stored.utf8).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static func crypt(_ password: String, setting: String) throws -> String {
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        defer { data.deallocate() }
        memset(data, 0, MemoryLayout<crypt_data>.size)
        guard let result = crypt_r(password, setting, data), result.pointee != 42 /* "*": failure */ else {
            throw Failure.failed(errno)
        }
        return String(cString: result)
    }
}
