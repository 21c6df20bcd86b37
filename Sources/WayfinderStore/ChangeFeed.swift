import Synchronization

/// In-process notifications of session changes, keyed by session id.
///
/// The memory and SQLite stores publish into it after each successful save, delete and expiry; a
/// networked store (Redis) can feed the same class from its own pub/sub.
///
/// Delivery rules, per subscription:
/// - handlers run synchronously on the publishing thread, one at a time per subscription;
/// - changes arrive in revision order: a `.saved` whose revision is not above the last one delivered
///   is stale (a concurrent publisher lost the race) and is dropped — `.saved(revision: n)` means
///   "the session is now at least at revision n";
/// - `.deleted` is the last change a subscription ever receives;
/// - after `cancel()` returns no new delivery starts (one already running on another thread may
///   finish).
///
/// - Important: Handlers must be short and must not block: hand the change to an event loop (e.g.
///   through an eventfd). They may read the store (`load`) and cancel their own subscription, but
///   must not synchronously publish to the same session — which includes `save`, `delete` and
///   `expire` on it — since deliveries to one subscription are serialised by a non-recursive lock.
public final class ChangeFeed: Sendable {
    private static let shardCount = 16
    private let shards: [Shard]
    /// Live subscriptions in all shards: with none (no event stream open, the usual case), a
    /// publish returns before hashing the id. A subscriber counts itself before it reads the
    /// session, and a writer publishes after its write: whichever comes second sees the other.
    private let subscriptions = Atomic<Int>(0)

    /// A feed with no subscriptions.
    public init() {
        shards = (0..<Self.shardCount).map { _ in Shard() }
    }

    /// Registers `handler` for the changes of `sessionID` until the subscription is cancelled or
    /// released.
    public func subscribe(
        _ sessionID: String, _ handler: @escaping @Sendable (SessionChange) -> Void
    ) -> Subscription {
        let subscriber = Subscriber(handler: handler)
        subscriptions.add(1, ordering: .sequentiallyConsistent)
        shard(for: sessionID).subscribers.withLock { table in
            table[sessionID, default: []].append(subscriber)
        }
        return Subscription(feed: self, sessionID: sessionID, subscriber: subscriber)
    }

    /// Delivers `change` to every current subscriber of `sessionID`.
    public func publish(_ sessionID: String, _ change: SessionChange) {
        if subscriptions.load(ordering: .sequentiallyConsistent) <= 0 { return }
        let targets = shard(for: sessionID).subscribers.withLock { table in
            table[sessionID] ?? []
        }
        for subscriber in targets {
            subscriber.deliver(change)
        }
    }

    /// The number of live subscriptions for `sessionID` (for metrics and tests).
    public func subscriberCount(_ sessionID: String) -> Int {
        shard(for: sessionID).subscribers.withLock { $0[sessionID]?.count ?? 0 }
    }

    func remove(_ subscriber: Subscriber, from sessionID: String) {
        let removed = shard(for: sessionID).subscribers.withLock { table -> Int in
            guard var list = table[sessionID] else { return 0 }
            let before = list.count
            list.removeAll { $0 === subscriber }
            table[sessionID] = list.isEmpty ? nil : list
            return before - list.count
        }
        subscriptions.subtract(removed, ordering: .sequentiallyConsistent)
    }

    private func shard(for sessionID: String) -> Shard {
        shards[Int(UInt(bitPattern: sessionID.hashValue) % UInt(Self.shardCount))]
    }

    private final class Shard: Sendable {
        let subscribers = Mutex<[String: [Subscriber]]>([:])
    }
}

/// A registration in a `ChangeFeed`; cancelled by `cancel()` or when released.
public final class Subscription: Sendable {
    private let feed: ChangeFeed
    private let sessionID: String
    private let subscriber: Subscriber

    init(feed: ChangeFeed, sessionID: String, subscriber: Subscriber) {
        self.feed = feed
        self.sessionID = sessionID
        self.subscriber = subscriber
    }

    /// Stops deliveries; idempotent.
    public func cancel() {
        if subscriber.deactivate() {
            feed.remove(subscriber, from: sessionID)
        }
    }

    deinit {
        cancel()
    }
}

/// One handler and its delivery state (what was delivered last), shared by the feed and the
/// `Subscription` handle.
final class Subscriber: Sendable {
    private struct Delivery {
        var lastRevision = Int.min
        var ended = false
    }

    private let handler: @Sendable (SessionChange) -> Void
    private let active = Atomic<Bool>(true)
    private let delivery = Mutex(Delivery())

    init(handler: @escaping @Sendable (SessionChange) -> Void) {
        self.handler = handler
    }

    /// Marks the subscriber inactive; true if it was active.
    func deactivate() -> Bool {
        active.exchange(false, ordering: .acquiringAndReleasing)
    }

    func deliver(_ change: SessionChange) {
        delivery.withLock { state in
            guard active.load(ordering: .acquiring), !state.ended else { return }
            switch change {
            case .saved(let revision):
                guard revision > state.lastRevision else { return }
                state.lastRevision = revision
            case .deleted:
                state.ended = true
            }
            handler(change)
        }
    }
}
