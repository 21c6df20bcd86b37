import Synchronization

/// What spans every node: expiry, the session count and the cap in a cluster, readiness, and
/// the cluster's slot map.
extension RedisStore {
    /// The session count: the sum over the masters of their indexes (`ZCARD`).
    public func count(now: Int64, on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        eachMaster(on: loop, done) { [self] node, tags, client, reply in
            evaluate(.count, keys: [], to: .node(node), on: client) { command in
                for tag in tags { command.add(tag) }
            } _: { [self] result in
                reply(Result {
                    let value = try result.get()
                    guard case .integer(let count) = value else { throw unexpected(value, "count") }
                    return count
                })
            }
        } combine: { $0.reduce(0, +) }
    }

    /// `PING` to every master (and, in a cluster, a slot map that covers every slot), then the
    /// change subscription up: without it, other instances' changes would not reach this one's
    /// event streams and long polls. A node that does not answer is named first.
    public func ping(on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        if !topology.isComplete {
            refreshSoon()
            return done(.failure(StoreError.unavailable("redis cluster \(endpoint): not every slot has a known master")))
        }
        let answered: @Sendable (Result<Void, any Error>) -> Void = { [self] result in
            if case .success = result, !isReceivingChanges {
                return done(.failure(StoreError.unavailable("redis \(endpoint): the change subscription is down (reconnecting)")))
            }
            done(result)
        }
        eachMaster(on: loop, answered) { [self] node, _, client, reply in
            send(RedisCommand("PING"), to: .node(node), on: client) { [self] result in
                reply(Result {
                    let value = try result.get()
                    guard value == .status("PONG") else { throw unexpected(value, "PING") }
                })
            }
        } combine: { _ in () }
    }

    /// Up to `limit` sessions filed as holding pending effects, from every master.
    func pendingEffects(limit: Int, _ done: @escaping @Sendable (Result<[String], any Error>) -> Void) {
        eachMaster(on: nil, done) { [self] node, tags, client, reply in
            evaluate(.pendingEffects, keys: [], to: .node(node), on: client) { command in
                command.add(limit)
                for tag in tags { command.add(tag) }
            } _: { [self] result in
                reply(Result {
                    let value = try result.get()
                    guard case .array(let items) = value else { throw unexpected(value, "pendingEffects") }
                    return items.compactMap(\.text)
                })
            }
        } combine: { Array($0.joined().prefix(limit)) }
    }

    /// `SET wf:claim:{session}/effect OWNER NX PX LEASE` on the session's node: the first instance
    /// to ask runs the effect (`key` is `session/effect`).
    func claim(_ key: String, owner: String, leaseMillis: Int64, _ done: @escaping @Sendable (Result<Bool, any Error>) -> Void) {
        let session = String(key.prefix { $0 != "/" })
        var command = RedisCommand("SET")
        command.add(keyPrefix + "claim:{" + session + "}" + key.dropFirst(session.count))
        command.add(owner)
        command.add("NX")
        command.add("PX")
        command.add(leaseMillis)
        withClient(nil, refused: { done(.failure($0)) }) { [self, command] client in
            send(command, to: .session(session), on: client) { [self] result in
                done(Result {
                    let value = try result.get()
                    if case .error = value { throw unexpected(value, "SET NX") }
                    return value == .status("OK")
                })
            }
        }
    }

    /// Deletes the sessions expired at `now` and old idempotency records on every master, in
    /// batches of `batchLimit`; publishes `.deleted` for each session.
    func expireAll(now: Int64, on loop: (any StoreLoop)? = nil, _ done: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        reclaimGate.noteExpiryPass(now: now)
        eachMaster(on: loop, done) { [self] node, tags, client, reply in
            expire(node, tags: tags, now: now, on: client, total: 0, reply)
        } combine: { $0.reduce(0, +) }
    }

    private func expire(
        _ node: RedisNodeAddress, tags: [String], now: Int64, on client: RedisLoopClient, total: Int,
        _ reply: @escaping (Result<Int, any Error>) -> Void
    ) {
        evaluate(.expire, keys: [], to: .node(node), on: client) { [self] command in
            command.add(now &- configuration.ttlMillis)
            command.add(now &- configuration.idempotencyTTLMillis)
            command.add(batchLimit)
            for tag in tags { command.add(tag) }
        } _: { [self] result in
            do {
                let value = try result.get()
                guard case .array(let parts) = value, parts.count == 3, case .array(let ids) = parts[0], let records = parts[1].integer,
                    case .array(let users) = parts[2]
                else { throw unexpected(value, "expire") }
                for id in ids {
                    if let id = id.text { changes.publish(id, .deleted) }
                }
                // A cluster: the expired sessions' users' sets are in other slots (see "Key layout").
                let unfiled = stride(from: 0, to: users.count - 1, by: 2).compactMap { index -> (String, String)? in
                    guard let id = users[index].text, let user = users[index + 1].text else { return nil }
                    return (id, user)
                }
                unfileFromUsers(unfiled, on: client) { [self] in
                    if ids.count < batchLimit && records < batchLimit { return reply(.success(total + ids.count)) }
                    expire(node, tags: tags, now: now, on: client, total: total + ids.count, reply)
                }
            } catch {
                reply(.failure(error))
            }
        }
    }

    /// Runs `operation` on every master (with the tags of its slots' indexes; none for a single
    /// Redis), then gives `combine` of their results, or the first failure.
    private func eachMaster<Part, Whole>(
        on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Whole, any Error>) -> Void,
        _ operation: @escaping @Sendable (RedisNodeAddress, [String], RedisLoopClient, @escaping (Result<Part, any Error>) -> Void) -> Void,
        combine: @escaping @Sendable ([Part]) -> Whole
    ) {
        let masters = topology.masters
        guard !masters.isEmpty else {
            refreshSoon()
            return done(.failure(StoreError.unavailable("redis cluster \(endpoint): no master known yet")))
        }
        withClient(loop, refused: { done(.failure($0)) }) { client in
            var parts: [Part] = []
            var failed = false
            var waiting = masters.count
            for (node, slots) in masters {
                operation(node, slots.map { RedisSlots.slotTags[$0] }, client) { result in
                    waiting -= 1
                    switch result {
                    case .success(let part): parts.append(part)
                    case .failure(let error):
                        if !failed { done(.failure(error)) }
                        failed = true
                    }
                    if waiting == 0 && !failed { done(.success(combine(parts))) }
                }
            }
        }
    }

    // MARK: The cap in a cluster

    /// Whether a create may proceed: the last count of every master plus the creates this
    /// instance made since is below `max`. A count is asked for when none is known or when that
    /// sum reaches `max` (so one instance stops exactly at the cap; instances creating at once
    /// may pass it by the creates in flight between their counts), and in the background when
    /// the last is more than a second old. At the cap, an expiry pass runs first (at most every
    /// `ttl/100`, as the other stores reclaim). Answers on `loop`'s thread (any without one).
    func clusterHasRoom(_ max: Int, now: Int64, on loop: (any StoreLoop)?, _ then: @escaping @Sendable (Result<Bool, any Error>) -> Void) {
        let (value, at, since) = clusterCount.withLock { ($0.value, $0.at, $0.createdSince) }
        if let value, since < max - value {  // (no overflow at max == Int.max)
            if RedisLink.nowMillis() - at > 1_000 { refreshCount() }
            return then(.success(true))
        }
        let asked = RedisLink.nowMillis()
        count(now: 0, on: loop) { [self] result in
            switch result {
            case .success(let counted):
                clusterCount.withLock { $0 = (counted, asked, 0) }
                if counted < max { return then(.success(true)) }
                guard reclaimGate.admit(now: now) else { return then(.success(false)) }
                expireAll(now: now, on: loop) { [self] expired in
                    guard case .success(let deleted) = expired, deleted > 0 else { return then(.success(false)) }
                    clusterCount.withLock { $0 = (counted - deleted, asked, 0) }
                    then(.success(counted - deleted < max))
                }
            case .failure(let error):
                then(.failure(error))
            }
        }
    }

    /// Counts a create made since the last count (a cluster's cap).
    func noteCreated() {
        guard topology.isCluster else { return }
        clusterCount.withLock { $0.createdSince += 1 }
    }

    private func refreshCount() {
        let asked = RedisLink.nowMillis()
        clusterCount.withLock { $0.at = asked }  // one request at a time: the next after a second
        count(now: 0, on: nil) { [weak self] result in
            guard case .success(let value) = result else { return }
            self?.clusterCount.withLock { $0 = (value, asked, 0) }
        }
    }

    // MARK: The slot map

    /// A connection failed (`address`) or a node redirected us (nil): a name is resolved again,
    /// and a cluster's slot map refreshed.
    func trouble(at address: RedisNodeAddress?) {
        if let address, !RedisResolver.isNumeric(address.host) {
            io.execute { [settings] in settings.resolver.resolve(address.host) }
        }
        refreshSoon()
    }

    /// Refreshes the slot map on the store's thread, one refresh at a time; again after 100 ms
    /// if more trouble was reported meanwhile.
    func refreshSoon() {
        guard topology.isCluster, !refreshing.exchange(true, ordering: .acquiringAndReleasing) else { return }
        refreshMap { [weak self] _ in
            guard let self else { return }
            refreshing.store(false, ordering: .releasing)
            if topology.takeRefreshRequest() || !topology.isComplete {
                io.schedule(afterMilliseconds: 100) { [weak self] in self?.refreshSoon() }
            }
        }
    }

    /// Asks the known nodes, one after the other, for `CLUSTER SLOTS` (on the store's thread).
    func refreshMap(_ done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        withClient(nil, refused: { done(.failure($0)) }) { [self] client in
            _ = topology.takeRefreshRequest()
            askForMap(topology.candidates, at: 0, on: client, done)
        }
    }

    private func askForMap(
        _ candidates: [RedisNodeAddress], at index: Int, on client: RedisLoopClient,
        _ done: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        guard index < candidates.count else {
            return done(.failure(StoreError.unavailable("redis cluster \(endpoint): no node answered CLUSTER SLOTS")))
        }
        let node = candidates[index]
        var command = RedisCommand("CLUSTER")
        command.add("SLOTS")
        client.send(command, to: node) { [self] result in
            if case .success(let reply) = result, topology.apply(clusterSlots: reply, fallbackHost: node.host) {
                return done(.success(()))
            }
            askForMap(candidates, at: index + 1, on: client, done)
        }
    }
}
