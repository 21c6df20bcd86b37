import Foundation
import Synchronization

/// Runs `expire(now:)` on a store at a fixed interval on its own thread: the only clock of the
/// store layer.
///
/// The sweeper keeps `count` close to the number of live sessions and removes idempotency records
/// after their 24 h. Run it every `ttl/100` (the default), so a session outlives its TTL by at most
/// 1 %. Errors do not stop it; each pass's outcome goes to `onPass` (for logs and metrics).
///
/// - Important: The thread holds the sweeper until `stop()` is called; `stop()` waits for a pass
///   in progress to end, so the store can be closed right after.
public final class ExpirySweeper: Sendable {
    private let store: any SessionStore
    private let intervalMillis: Int64
    private let now: @Sendable () -> Int64
    private let onPass: @Sendable (Result<Int, any Error>) -> Void
    private let wakeUp = NSCondition()
    private let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - intervalMillis: time between passes; defaults to the store TTL / 100 (at least 1 s).
    ///   - now: the clock (unix milliseconds); the wall clock by default.
    ///   - onPass: told the number of sessions expired by each pass, or its error.
    public init(
        store: any SessionStore,
        intervalMillis: Int64,
        now: @escaping @Sendable () -> Int64 = ExpirySweeper.wallClockMillis,
        onPass: @escaping @Sendable (Result<Int, any Error>) -> Void = { _ in }
    ) {
        precondition(intervalMillis > 0, "the sweep interval must be positive")
        self.store = store
        self.intervalMillis = intervalMillis
        self.now = now
        self.onPass = onPass
    }

    /// The sweep interval for a TTL: one hundredth of it, at least one second.
    public static func defaultInterval(for configuration: StoreConfiguration) -> Int64 {
        max(1_000, configuration.ttlMillis / 100)
    }

    /// Unix time in milliseconds from `CLOCK_REALTIME`.
    @Sendable public static func wallClockMillis() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// Starts the thread; the first pass runs one interval from now. Idempotent.
    public func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "wayfinder-expiry-sweeper"
        thread.start()
    }

    /// Stops the thread and waits for it to end. Idempotent; a no-op if never started.
    public func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wakeUp.lock()
        wakeUp.broadcast()
        wakeUp.unlock()
        if started.load(ordering: .acquiring) {
            finished.wait()
        }
    }

    private func run() {
        while true {
            wakeUp.lock()
            if !stopping.load(ordering: .acquiring) {
                _ = wakeUp.wait(until: Date(timeIntervalSinceNow: Double(intervalMillis) / 1_000))
            }
            wakeUp.unlock()
            if stopping.load(ordering: .acquiring) { return }
            onPass(Result { try store.expire(now: now()) })
        }
    }
}
