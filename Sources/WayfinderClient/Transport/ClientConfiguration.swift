/// How the client talks to the server: retries, timeouts, event-stream reconnection, extra headers.
public struct ClientConfiguration: Sendable {
    /// Retries of requests that got no answer (and of `503 service_unavailable`).
    public var retry = RetryPolicy()
    /// Seconds a request may wait for its answer.
    public var requestTimeout: Double = 30
    /// Seconds an event stream may stay silent before it counts as dropped and reconnects. The
    /// server sends a comment line at least every 15 s, so the default allows two lost ones.
    public var eventIdleTimeout: Double = 45
    /// Delays between event-stream reconnections.
    public var eventReconnect = Backoff(initial: 0.5, maximum: 15)
    /// Headers sent with every request (for example an app version or a capabilities header).
    public var headers: [String: String] = [:]

    /// The defaults.
    public init() {}
}

/// How often and how soon a request that got no answer is sent again.
///
/// Only requests that are safe to repeat are retried: reads, deletes, and changes, which always
/// carry an `Idempotency-Key` (the same key on every attempt, so the server applies the change at
/// most once and answers a repeat with its first answer). Creating a session is retried only when
/// the connection could not be made at all.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included (1 = never retry).
    public var maxAttempts: Int
    /// Delays between attempts.
    public var backoff: Backoff

    /// A policy; the default tries three times, after 0.25 s and 0.5 s (with jitter).
    public init(maxAttempts: Int = 3, backoff: Backoff = Backoff(initial: 0.25, maximum: 8)) {
        self.maxAttempts = max(1, maxAttempts)
        self.backoff = backoff
    }
}

/// Exponential backoff with jitter: `initial`, then doubling up to `maximum`, each delay drawn
/// between half and all of its step so that many clients do not come back at the same moment.
public struct Backoff: Sendable, Hashable {
    /// Seconds before the first retry.
    public var initial: Double
    /// The longest delay, in seconds.
    public var maximum: Double

    /// A backoff from `initial` to `maximum` seconds.
    public init(initial: Double, maximum: Double) {
        self.initial = max(0, initial)
        self.maximum = max(self.initial, maximum)
    }

    /// The delay before retry number `retry` (1 for the first), in seconds.
    public func delay(forRetry retry: Int) -> Double {
        let step = min(maximum, initial * pow2(max(0, retry - 1)))
        return step / 2 + Double.random(in: 0...(step / 2))
    }

    private func pow2(_ n: Int) -> Double { n >= 62 ? .greatestFiniteMagnitude : Double(1 << n) }
}
