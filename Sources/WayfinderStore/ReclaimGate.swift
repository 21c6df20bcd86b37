import Synchronization

/// Limits how often a create at the session cap may run an expiry pass to make room.
///
/// Without it, a server held at the cap would scan every session on every refused create. The gate
/// lets one pass through per `intervalMillis` of the callers' clock (the `now` they pass in); an
/// `expire` pass run by the sweeper also counts.
final class ReclaimGate: Sendable {
    private let intervalMillis: Int64
    private let lastPass = Atomic<Int64>(.min)

    init(intervalMillis: Int64) {
        self.intervalMillis = intervalMillis
    }

    /// True for at most one caller per interval.
    func admit(now: Int64) -> Bool {
        let last = lastPass.load(ordering: .relaxed)
        if last != .min && now &- last < intervalMillis { return false }
        return lastPass.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged
    }

    /// Records that an expiry pass ran at `now`.
    func noteExpiryPass(now: Int64) {
        var last = lastPass.load(ordering: .relaxed)
        while last == .min || last < now {
            let (exchanged, original) = lastPass.compareExchange(
                expected: last, desired: now, ordering: .relaxed)
            if exchanged { return }
            last = original
        }
    }
}
