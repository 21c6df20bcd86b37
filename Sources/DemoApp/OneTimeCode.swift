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
