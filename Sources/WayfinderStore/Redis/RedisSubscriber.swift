import Foundation
import Synchronization

/// The one pub/sub subscription of a `RedisStore`, on the store's own thread: it feeds every
/// change made by *other* instances into the store's `ChangeFeed`.
///
/// Messages are `"{id} saved {revision} {origin}"` or `"{id} deleted {origin}"`; `origin` names the
/// publishing `RedisStore` instance. The instance's own messages are skipped: it already published
/// them into its feed when the change was answered (and a late copy could otherwise reach a
/// subscription made after that change). In a cluster any node will do (a `PUBLISH` reaches them
/// all): after a failure the next known node is tried.
///
/// Liveness: after 5 s without traffic a `PING` goes out, and without an answer 5 s later the
/// connection is dropped. A lost connection is made again after a back-off (100 ms doubling to 2 s).
final class RedisSubscriber: @unchecked Sendable {
    private let io: RedisIOThread
    private let topology: RedisTopology
    private let settings: RedisLink.Settings
    private let channel: String
    private let origin: String
    private let feed: ChangeFeed
    private let subscribed = Atomic<Bool>(false)
    private let condition = NSCondition()

    // The store thread's state.
    private var link: RedisLink?
    private var attempt = 0
    private var lastTraffic: Int64 = 0
    private var pingSentAt: Int64?
    private var stopped = false
    /// Called on the store's thread each time the subscription is made (changes published
    /// before it did not arrive: the watched sessions catch up).
    var onSubscribed: (() -> Void)?

    init(io: RedisIOThread, topology: RedisTopology, settings: RedisLink.Settings, channel: String, origin: String, feed: ChangeFeed) {
        self.io = io
        self.topology = topology
        self.settings = settings
        self.channel = channel
        self.origin = origin
        self.feed = feed
    }

    /// Subscribes (from any thread); the subscription is kept until `stop`.
    func start() {
        io.execute { [self] in
            connect()
            watchLiveness()
        }
    }

    /// Drops the subscription for good.
    func stop() {
        io.execute { [self] in
            stopped = true
            link?.close()
            link = nil
            setSubscribed(false)
        }
    }

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

    // MARK: The store's thread

    private func connect() {
        guard !stopped else { return }
        let nodes = topology.isCluster ? topology.candidates : topology.seeds
        let link = RedisLink(address: nodes[attempt % nodes.count], loop: io, settings: settings)
        self.link = link
        link.onPush = { [weak self] reply in self?.handle(reply) }
        link.onFailure = { [weak self] _ in self?.lost() }
        var subscribe = RedisCommand("SUBSCRIBE")
        subscribe.add(channel)
        lastTraffic = RedisLink.nowMillis()
        pingSentAt = nil
        link.send(subscribe, nil)
    }

    private func lost() {
        setSubscribed(false)
        link = nil
        guard !stopped else { return }
        attempt += 1
        let backoff = min(100 << min(attempt - 1, 5), 2_000)
        io.schedule(afterMilliseconds: backoff) { [weak self] in
            guard let self, self.link == nil else { return }
            connect()
        }
    }

    /// Every second: a `PING` after 5 s of silence, a new connection 5 s after an unanswered one.
    private func watchLiveness() {
        io.schedule(afterMilliseconds: 1_000) { [weak self] in
            guard let self, !stopped else { return }
            let now = RedisLink.nowMillis()
            if let link {
                if let sent = pingSentAt, now - sent > 5_000 {
                    link.close()
                    lost()
                } else if pingSentAt == nil && now - lastTraffic > 5_000 {
                    pingSentAt = now
                    link.send(RedisCommand("PING"), nil)
                }
            }
            watchLiveness()
        }
    }

    private func handle(_ reply: RedisValue) {
        lastTraffic = RedisLink.nowMillis()
        pingSentAt = nil
        if case .error = reply, !isSubscribed {
            // `SUBSCRIBE` refused (an ACL without the channel, a node still loading its data):
            // a new connection tries again after the back-off.
            link?.close()
            return lost()
        }
        guard case .array(let parts) = reply, let kind = parts.first?.text else { return }
        switch kind {
        case "subscribe":
            attempt = 0
            setSubscribed(true)
            onSubscribed?()
        case "message":
            guard parts.count == 3, let payload = parts[2].text else { return }
            deliver(payload)
        default:
            return  // "pong" and anything else
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
