import Synchronization
import WayfinderCore

/// The sample app's accounts, kept the way a bank keeps them, because teams copy the sample:
/// one line of JSON per account in a file the app owns (or in memory only), each password a
/// yescrypt hash, never stored, logged or compared in clear. What the auth and change-password
/// flows' effects ask of.
///
/// - Important: no answer tells whether an address has an account. A sign-in is one answer for
///   an unknown address and a wrong password, and takes as long (a dummy hash); a sign-up always
///   answers "code sent" (the code goes to the address; its owner, if it has an account, gets a
///   note instead); failed attempts are throttled per address and per session with a doubling
///   wait, and an address is locked after ``Attempts/lockAfter`` of them, until its owner enters
///   the code mailed to it (or resets the password). Every time is the service's clock.
public final class UserStore: Sendable {
    /// What an account operation came to.
    enum Answer: String, Codable, Sendable, Hashable {
        /// The password is the account's: the session signs in.
        case signedIn
        /// No account with this address and password: one answer for both.
        case refused
        /// Too many failed attempts just now: wait, then try again.
        case throttled
        /// Too many failed attempts: locked until the owner enters the code mailed to the address.
        case locked
        /// A code went to the address, if it can have one (the same answer either way).
        case codeSent
        /// The code was right: the account exists now.
        case registered
        /// The code was wrong, expired or used up.
        case wrongCode
        /// The new password is the account's.
        case passwordChanged
    }

    private struct Account: Codable, Sendable {
        var email: String
        var name: String
        /// `$y$…`: the yescrypt setting and hash.
        var hash: String
    }

    private struct SignUp: Sendable {
        var account: Account
        var code: OneTimeCode
    }

    /// Everything the store knows, behind one lock.
    private struct Ledger: Sendable {
        var accounts: [String: Account] = [:]
        var signUps: [String: SignUp] = [:]
        var resets: [String: OneTimeCode] = [:]
        var unlocks: [String: OneTimeCode] = [:]
        var addresses: [String: Attempts] = [:]
        var sessions: [String: Attempts] = [:]
    }

    /// Failed attempts a session makes (on any address) before it waits too.
    static let sessionFree = 10
    /// How long a lock lasts when nobody lifts it.
    static let lockLifetime = Duration.seconds(24 * 3600)
    /// Pending sign-ups and codes kept at most (the oldest go when there are more).
    static let pendingLimit = 10_000

    private let ledger: Mutex<Ledger>
    private let path: String?
    private let clock: DemoClock
    /// Where the codes go.
    public let mailer: Mailer

    /// - Parameters:
    ///   - path: the accounts file (created if absent); nil keeps them in memory.
    ///   - mailer: sends the codes.
    ///   - clock: the time the limits and codes are measured in.
    public init(path: String?, mailer: Mailer = Mailer(), clock: DemoClock = .system) throws {
        self.path = path
        self.mailer = mailer
        self.clock = clock
        var loaded = Ledger()
        // A later line is a newer version of the account (a changed password).
        for account in path.map({ JSONLinesFile.decode(Account.self, from: $0) }) ?? [] { loaded.accounts[account.email] = account }
        ledger = Mutex(loaded)
    }

    /// Creates a verified account at once, with no code: how an operator imports accounts.
    public func register(name: String, email: String, password: String) throws {
        try save(Account(email: Self.key(email), name: name, hash: try Yescrypt.hash(password)))
    }

    /// Accounts in memory, an address to its password (each password hashed once for every store
    /// made so): how tests start with accounts.
    public static func inMemory(accounts: [String: String], mailer: Mailer = Mailer(), clock: DemoClock = .system) throws -> UserStore {
        let users = try UserStore(path: nil, mailer: mailer, clock: clock)
        for (email, password) in accounts {
            let hash = try testHashes.withLock { hashes in
                if let hash = hashes[password] { return hash }
                let hash = try Yescrypt.hash(password)
                hashes[password] = hash
                return hash
            }
            try users.save(Account(email: Self.key(email), name: "Tester", hash: hash))
        }
        return users
    }

    private static let testHashes = Mutex<[String: String]>([:])

    // MARK: Signing in

    /// Checks `password` for `email`, throttled per address and per `session`.
    func signIn(email: String, password: String, session: String) throws -> Answer {
        let key = Self.key(email), now = clock.now()
        if let gate = try gate(key, session: session, at: now) { return gate }
        let account = ledger.withLock { $0.accounts[key] }
        let matches = Yescrypt.verify(password, account?.hash ?? Yescrypt.dummy) && account != nil
        if matches {
            ledger.withLock {
                $0.addresses[key] = nil
                $0.sessions[session] = nil
            }
            return .signedIn
        }
        return try fail(key, session: session, at: now) ? .locked : .refused
    }

    /// Lifts the lock on `email` (and the session's wait) with the code mailed to it, then signs
    /// in with `password`.
    func unlock(email: String, code: String, password: String, session: String) throws -> Answer {
        let key = Self.key(email), now = clock.now()
        let lifted = ledger.withLock { ledger -> Bool in
            guard var unlock = ledger.unlocks[key] else { return false }
            let right = unlock.check(code, at: now)
            ledger.unlocks[key] = right ? nil : unlock
            if right {
                ledger.addresses[key] = nil
                ledger.sessions[session] = nil
            }
            return right
        }
        guard lifted else { return .wrongCode }
        return try signIn(email: email, password: password, session: session)
    }

    /// Nil when the attempt may go ahead; `throttled` or `locked` (and counted) when not.
    private func gate(_ key: String, session: String, at now: Duration) throws -> Answer? {
        let (answer, mail) = ledger.withLock { ledger -> (Answer?, Bool) in
            let attempts = ledger.addresses[key] ?? Attempts()
            if Self.isLocked(attempts, at: now) { return (.locked, false) }
            let waiting = attempts.wait(at: now) ?? ledger.sessions[session]?.wait(at: now, free: Self.sessionFree)
            guard waiting != nil else { return (nil, false) }
            let locked = Self.record(&ledger, key, session: session, at: now)
            return (locked ? .locked : .throttled, locked)
        }
        if mail { try mailUnlockCode(key) }
        return answer
    }

    /// Counts a failed attempt; true when it locked the address.
    private func fail(_ key: String, session: String, at now: Duration) throws -> Bool {
        let locked = ledger.withLock { Self.record(&$0, key, session: session, at: now) }
        if locked { try mailUnlockCode(key) }
        return locked
    }

    private static func record(_ ledger: inout Ledger, _ key: String, session: String, at now: Duration) -> Bool {
        prune(&ledger.addresses, at: now)
        prune(&ledger.sessions, at: now)
        ledger.addresses[key, default: Attempts()].fail(at: now)
        ledger.sessions[session, default: Attempts()].fail(at: now)
        return ledger.addresses[key]?.failures == Attempts.lockAfter
    }

    private static func isLocked(_ attempts: Attempts, at now: Duration) -> Bool {
        attempts.failures >= Attempts.lockAfter && now - attempts.last < lockLifetime
    }

    /// Forgets attempts older than a lock's lifetime once there are many.
    private static func prune(_ attempts: inout [String: Attempts], at now: Duration) {
        guard attempts.count >= pendingLimit else { return }
        attempts = attempts.filter { now - $0.value.last < lockLifetime }
    }

    /// A code that lifts the lock, to the account's address; nothing to an address without one.
    private func mailUnlockCode(_ key: String) throws {
        let now = clock.now()
        let code = ledger.withLock { ledger -> OneTimeCode? in
            guard ledger.accounts[key] != nil else { return nil }
            let code = OneTimeCode(now: now)
            ledger.unlocks[key] = code
            return code
        }
        guard let code else { return }
        _ = try mailer.send(code: code.value, to: key, subject: "Your account is locked",
                            why: "Someone tried to sign in to your account many times with a wrong password. To unlock it", key: nil)
    }

    // MARK: Signing up

    /// Starts a sign-up: the address gets a code that creates the account (an address that has
    /// an account gets a note instead, and the answer is the same). `key` is the effect's.
    func startSignUp(name: String, email: String, password: String, key effect: String) throws -> Answer {
        let key = Self.key(email), now = clock.now()
        let account = Account(email: key, name: name, hash: try Yescrypt.hash(password))
        let code = ledger.withLock { ledger -> OneTimeCode? in
            guard ledger.accounts[key] == nil else { return nil }
            if ledger.signUps.count >= Self.pendingLimit { ledger.signUps = ledger.signUps.filter { now < $0.value.code.expires } }
            let code = OneTimeCode(now: now)
            ledger.signUps[key] = SignUp(account: account, code: code)
            return code
        }
        if let code {
            _ = try mailer.send(code: code.value, to: key, subject: "Confirm your account", why: "To create your account", key: effect)
        } else {
            _ = try mailer.send(
                Mailer.Message(key: effect, to: key, subject: "You already have an account",
                               body: "Someone asked to create an account with this address, which has one. Sign in, or reset your password."))
        }
        return .codeSent
    }

    /// Creates the account `startSignUp` began when `code` is the one mailed.
    func confirmSignUp(email: String, code: String) throws -> Answer {
        let key = Self.key(email), now = clock.now()
        let account = ledger.withLock { ledger -> Account? in
            guard var signUp = ledger.signUps[key], ledger.accounts[key] == nil else { return nil }
            let right = signUp.code.check(code, at: now)
            ledger.signUps[key] = right ? nil : signUp
            return right ? signUp.account : nil
        }
        guard let account else { return .wrongCode }
        try save(account)
        return .registered
    }

    // MARK: Passwords

    /// Changes the password of the signed-in `email`, which must give its current one (a wrong
    /// one counts as a failed sign-in).
    func changePassword(email: String, current: String, new password: String, session: String) throws -> Answer {
        let answer = try signIn(email: email, password: current, session: session)
        guard answer == .signedIn, var account = ledger.withLock({ $0.accounts[Self.key(email)] }) else { return answer }
        account.hash = try Yescrypt.hash(password)
        try save(account)
        return .passwordChanged
    }

    /// Mails a code that resets the password, if `email` has an account (the answer is the same).
    func sendResetCode(email: String, key effect: String) throws -> Answer {
        let key = Self.key(email), now = clock.now()
        let code = ledger.withLock { ledger -> OneTimeCode? in
            guard ledger.accounts[key] != nil else { return nil }
            let code = OneTimeCode(now: now)
            ledger.resets[key] = code
            return code
        }
        if let code {
            _ = try mailer.send(code: code.value, to: key, subject: "Reset your password", why: "To choose a new password", key: effect)
        }
        return .codeSent
    }

    /// Sets `password` when `code` is the one `sendResetCode` mailed; lifts the address's lock and
    /// the session's wait too (the code proves the address).
    func resetPassword(email: String, code: String, password: String, session: String) throws -> Answer {
        let key = Self.key(email), now = clock.now()
        let hash = try Yescrypt.hash(password)
        let account = ledger.withLock { ledger -> Account? in
            guard var reset = ledger.resets[key], var account = ledger.accounts[key] else { return nil }
            let right = reset.check(code, at: now)
            ledger.resets[key] = right ? nil : reset
            guard right else { return nil }
            ledger.addresses[key] = nil
            ledger.sessions[session] = nil
            ledger.unlocks[key] = nil
            account.hash = hash
            return account
        }
        guard let account else { return .wrongCode }
        try save(account)
        return .passwordChanged
    }

    // MARK: Storage

    private func save(_ account: Account) throws {
        if let path { try JSONLinesFile.append(account, to: path) }
        ledger.withLock { $0.accounts[account.email] = account }
    }

    /// Addresses are compared without case or surrounding spaces.
    private static func key(_ email: String) -> String { email.trimmed.lowercased() }
}
