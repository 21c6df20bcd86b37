import Glibc

/// The time as the sample app's services read it: flows have no clock, so every limit that
/// depends on time (backoff, lockouts, codes that expire, mail per day) lives in a service.
/// Tests pass a clock they move by hand.
public struct DemoClock: Sendable {
    /// Time since an arbitrary start that never goes back.
    public let now: @Sendable () -> Duration

    /// A clock that reads `now`.
    public init(now: @escaping @Sendable () -> Duration) { self.now = now }

    /// The system's monotonic clock.
    public static let system = DemoClock {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}
