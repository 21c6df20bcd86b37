/// Failed attempts on one key (an address or a session): a few are free, then each must wait
/// twice as long as the one before; past ``lockAfter`` the key is locked.
struct Attempts: Sendable {
    /// Attempts that wait for nothing.
    static let free = 5
    /// Failed attempts (the throttled ones included) after which an address is locked.
    static let lockAfter = 10
    /// The longest wait between two attempts.
    static let longestWait = Duration.seconds(300)

    var failures = 0
    var last = Duration.zero

    /// How long the next attempt must still wait at `now`; nil when it may go ahead.
    func wait(at now: Duration, free: Int = Attempts.free) -> Duration? {
        guard failures >= free else { return nil }
        let shift = min(failures - free, 8)
        let next = last + min(.seconds(1 << shift), Self.longestWait)
        return now < next ? next - now : nil
    }

    mutating func fail(at now: Duration) {
        failures += 1
        last = now
    }
}

/// A code sent by mail that proves the address: six digits, valid for ``lifetime``, and for
/// ``tries`` wrong entries at most.
struct OneTimeCode: Sendable {
    static let lifetime = Duration.seconds(15 * 60)
    static let tries = 5

    let value: String
    let expires: Duration
    var triesLeft = OneTimeCode.tries

    init(now: Duration) {
        value = String(UInt32.random(in: 0..<1_000_000) + 1_000_000).dropFirst().description
        expires = now + Self.lifetime
    }

    /// Whether `entered` is this code, still valid at `now`; a wrong entry uses up a try.
    mutating func check(_ entered: String, at now: Duration) -> Bool {
        guard now < expires, triesLeft > 0 else { return false }
        let matches = entered.trimmed.utf8.count == value.utf8.count
            && zip(entered.trimmed.utf8, value.utf8).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
        if !matches { triesLeft -= 1 }
        return matches
    }
}
