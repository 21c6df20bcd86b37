import CCrypt
import Glibc
import Synchronization
import WayfinderCore

/// The sample app's accounts: one line of JSON per account in a file the app owns (or in memory
/// only), each password kept as a yescrypt hash (libxcrypt): never stored, logged or compared in
/// clear. What the auth flow's effects ask of.
public final class UserStore: Sendable {
    /// What signing in or up came to.
    enum Answer: String, Codable, Sendable, Hashable {
        case signedIn, wrongPassword, unknownAddress, registered, addressTaken
    }

    private struct Account: Codable, Sendable {
        var email: String
        var name: String
        /// `$y$…`: the yescrypt setting and hash.
        var hash: String
    }

    private let accounts: Mutex<[String: Account]>
    private let path: String?

    /// - Parameter path: the accounts file (created if absent); nil keeps them in memory.
    public init(path: String?) throws {
        self.path = path
        var loaded: [String: Account] = [:]
        for account in path.map({ JSONLinesFile.decode(Account.self, from: $0) }) ?? [] { loaded[account.email] = account }
        accounts = Mutex(loaded)
    }

    /// Checks `password` for `email`: an address with no account is `unknownAddress`.
    func signIn(email: String, password: String) -> Answer {
        guard let account = accounts.withLock({ $0[Self.key(email)] }) else { return .unknownAddress }
        return Self.verify(password, account.hash) ? .signedIn : .wrongPassword
    }

    /// Creates the account unless the address has one.
    func signUp(name: String, email: String, password: String) throws -> Answer {
        let key = Self.key(email)
        if accounts.withLock({ $0[key] != nil }) { return .addressTaken }
        let account = Account(email: key, name: name, hash: try Self.hash(password))
        let added = accounts.withLock { accounts -> Bool in
            guard accounts[key] == nil else { return false }
            accounts[key] = account
            return true
        }
        guard added else { return .addressTaken }
        if let path { try JSONLinesFile.append(account, to: path) }
        return .registered
    }

    /// Addresses are compared without case.
    private static func key(_ email: String) -> String { email.lowercased() }

    // MARK: yescrypt

    enum HashError: Error { case failed(Int32) }

    static func hash(_ password: String) throws -> String {
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        guard crypt_gensalt_rn("$y$", 0, nil, 0, &setting, Int32(setting.count)) != nil else { throw HashError.failed(errno) }
        let length = setting.firstIndex(of: 0) ?? setting.count
        return try crypt(password, setting: String(decoding: setting[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

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
            throw HashError.failed(errno)
        }
        return String(cString: result)
    }
}
