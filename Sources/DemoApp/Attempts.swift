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
