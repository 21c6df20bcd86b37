import Synchronization

/// Which sessions this process watches (has change-feed subscribers for: event streams, long
/// polls), registered in Redis so that changes of those sessions, and only those, are published.
///
/// A session is watched through the hash `wf:w:{id}` (in the session's slot), one field per
/// watching instance, with a Redis TTL of 30 s that each instance renews every 10 s: the scripts
/// publish a change only if it exists, so with no stream open anywhere a change costs no
/// message, and a crashed instance's interest lapses by itself.
///
/// - Important: a new subscription is registered on the store's thread before the subscriber's
///   next read there (the `ChangeFeed` calls `watch` before `subscribe` returns, and both go to
///   the session's node on one connection): a change Redis runs after that read is published.
///
/// Nothing is missed in a gap either: a registration that fails is tried again shortly, and that
/// retry — like each registration made again once the pub/sub subscription is back
/// (``catchUp()``) — is followed, on the same connection, by a read of the session's revision,
/// fed to the local subscribers (they ignore a revision they have). So a change published while
/// the registration or the subscription was down (Redis restarted, a connection failed) still
/// reaches them.
final class RedisWatches: @unchecked Sendable {
    private weak var store: RedisStore?
    /// Sessions registered in Redis (the store's thread only).
    private var registered = Set<String>()
    private static let ttlMillis = 30_000
    private static let renewMillis = 10_000
    private static let retryMillis = 250

    /// Connects the registry to its store and starts the renewals.
    func start(_ store: RedisStore) {
        self.store = store
        store.io.execute { [self] in renewLater() }
    }

    /// Registers `id` (from any thread; on the store's thread, ahead of what is queued later).
    func watch(_ id: String) {
        guard let store else { return }
        store.io.execute { [self] in
            guard !registered.contains(id) else { return }
            registered.insert(id)
            register(id)
        }
    }

    // MARK: The store's thread

    /// Registers every watched session again and reads their revisions (the pub/sub
    /// subscription was just made: what was published before it did not arrive).
    func catchUp() {
        guard let store else { return }
        store.io.execute { [self] in
            for id in registered { register(id, catchingUp: true) }
        }
    }

    /// `HSET` and `PEXPIRE` of the session's watch hash; `catchingUp`: then `HGET` of its revision,
    /// published to the local subscribers.
    private func register(_ id: String, catchingUp: Bool = false) {
        guard let store else { return }
        let client = store.client(for: store.io)
        var set = RedisCommand("HSET")
        set.add(key(id))
        set.add(store.origin)
        set.add("1")
        store.send(set, to: .session(id), on: client) { [weak self] result in
            if case .success(let reply) = result, case .error = reply {
                self?.retryLater(id)
            } else if case .failure = result {
                self?.retryLater(id)
            }
        }
        var expire = RedisCommand("PEXPIRE")
        expire.add(key(id))
        expire.add(Self.ttlMillis)
        store.send(expire, to: .session(id), on: client) { _ in }
        guard catchingUp else { return }
        var revision = RedisCommand("HGET")
        revision.add(store.sessionKey(id))
        revision.add("rev")
        store.send(revision, to: .session(id), on: client) { [weak store] result in
            guard let store, case .success(let reply) = result else { return }
            if let revision = reply.integer {
                store.changes.publish(id, .saved(revision: revision))
            } else if reply == .null {
                store.changes.publish(id, .deleted)
            }
        }
    }

    /// After a failed registration: registers `id` again in a moment if it is still watched.
    private func retryLater(_ id: String) {
        guard let store else { return }
        registered.remove(id)
        store.io.schedule(afterMilliseconds: Self.retryMillis) { [weak self] in
            guard let self, let store = self.store, !registered.contains(id), store.changes.subscriberCount(id) > 0 else { return }
            registered.insert(id)
            register(id, catchingUp: true)
        }
    }

    /// Every 10 s: renews the watched sessions, drops the others.
    private func renewLater() {
        store?.io.schedule(afterMilliseconds: Self.renewMillis) { [weak self] in
            guard let self, let store else { return }
            let watched = store.changes.watchedSessions
            for id in watched { register(id) }
            let client = store.client(for: store.io)
            for id in registered.subtracting(watched) {
                var remove = RedisCommand("HDEL")
                remove.add(key(id))
                remove.add(store.origin)
                store.send(remove, to: .session(id), on: client) { _ in }
            }
            registered = watched
            renewLater()
        }
    }

    private func key(_ id: String) -> String { (store?.keyPrefix ?? "") + "w:{" + id + "}" }
}
