import Foundation
import Synchronization

/// The one pub/sub subscriber of a `RedisStore`: a thread that subscribes to the store's channel and
/// feeds every change made by *other* instances into the store's `ChangeFeed`.
///
/// Messages are `"{id} saved {revision} {origin}"` or `"{id} deleted {origin}"`; `origin` names the
/// publishing `RedisStore` instance. The instance's own messages are skipped: it already published
/// them into its feed synchronously when the change returned (and a late copy could otherwise reach
/// a subscription made after that change).
///
/// The thread waits on the socket with `poll` (250 ms slices, to notice `stop`); after 5 s without
/// traffic it sends a `PING` and reconnects if nothing comes back within another 5 s. When the
/// connection fails it reconnects with exponential backoff (50 ms doubling to 2 s).
final class RedisChangeListener: Sendable {
    private let endpoint: RedisEndpoint
    private let channel: String
    private let origin: String
    private let feed: ChangeFeed
    private let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let subscribed = Atomic<Bool>(false)
    /// Signalled on state changes: `subscribed` flips, or stop is requested.
    private let condition = NSCondition()
    private let finished = DispatchSemaphore(value: 0)

    init(endpoint: RedisEndpoint, channel: String, origin: String, feed: ChangeFeed) {
        self.endpoint = endpoint
        self.channel = channel
        self.origin = origin
        self.feed = feed
    }

    /// Starts the thread (idempotent).
    func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "wayfinder-redis-changes"
        thread.start()
    }

    /// Asks the thread to end; with `wait`, returns once it has (at most ~250 ms plus a connect).
    func stop(wait: Bool) {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
        if wait && started.load(ordering: .acquiring) {
            finished.wait()
        }
    }

    /// True while subscribed (messages published now will be received).
    var isSubscribed: Bool { subscribed.load(ordering: .acquiring) }

    /// Waits until subscribed or until `timeout` passes; true if subscribed.
    func waitUntilSubscribed(timeout: Duration) -> Bool {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !subscribed.load(ordering: .acquiring) {
            if !condition.wait(until: deadline) { return subscribed.load(ordering: .acquiring) }
        }
        return true
    }

    // MARK: The thread

    private func run() {
        var backoffMillis = 50
        while !stopping.load(ordering: .acquiring) {
            if let connection = try? RedisConnection(endpoint: endpoint, timeoutMillis: 1_000) {
                listen(on: connection) { backoffMillis = 50 }
                setSubscribed(false)
            }
            if stopping.load(ordering: .acquiring) { break }
            condition.lock()
            if !stopping.load(ordering: .acquiring) {
                _ = condition.wait(until: Date(timeIntervalSinceNow: Double(backoffMillis) / 1_000))
            }
            condition.unlock()
            backoffMillis = min(backoffMillis * 2, 2_000)
        }
    }

    /// Subscribes and delivers messages until the connection fails or the listener stops.
    private func listen(on connection: RedisConnection, onSubscribed: () -> Void) {
        let idlePingMillis: Int64 = 5_000
        let pingAnswerMillis: Int64 = 5_000
        do {
            var subscribe = RedisCommand("SUBSCRIBE")
            subscribe.add(channel)
            try connection.send(subscribe)
            var lastTraffic = RedisPool.monotonicMillis()
            var pingSentAt: Int64?
            while !stopping.load(ordering: .acquiring) {
                while let reply = try connection.bufferedReply() {
                    lastTraffic = RedisPool.monotonicMillis()
                    pingSentAt = nil
                    if handle(reply) { onSubscribed() }
                }
                if try connection.readAvailable(timeoutMillis: 250) { continue }
                let now = RedisPool.monotonicMillis()
                if let sent = pingSentAt {
                    if now - sent > pingAnswerMillis { return }  // dead peer: reconnect
                } else if now - lastTraffic > idlePingMillis {
                    try connection.send(RedisCommand("PING"))
                    pingSentAt = now
                }
            }
        } catch {
            return
        }
    }

    /// Handles one pushed reply; true if it confirms the subscription.
    private func handle(_ reply: RedisValue) -> Bool {
        guard case .array(let parts) = reply, let kind = parts.first?.text else { return false }
        switch kind {
        case "subscribe":
            setSubscribed(true)
            return true
        case "message":
            guard parts.count == 3, let payload = parts[2].text else { return false }
            deliver(payload)
            return false
        default:
            return false  // "pong" and anything else
        }
    }

    private func deliver(_ payload: String) {
        let fields = payload.split(separator: " ", omittingEmptySubsequences: false)
        switch fields.count {
        case 4 where fields[1] == "saved":
            guard fields[3] != origin, let revision = Int(fields[2]) else { return }
            feed.publish(String(fields[0]), .saved(revision: revision))
        case 3 where fields[1] == "deleted":
            guard fields[2] != origin else { return }
            feed.publish(String(fields[0]), .deleted)
        default:
            return
        }
    }

    private func setSubscribed(_ value: Bool) {
        condition.lock()
        subscribed.store(value, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
    }
}
