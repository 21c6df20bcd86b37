import Synchronization

/// Which node serves which slot: the one Redis of a `redis://` store, or the slot map of a
/// `redis+cluster://` store, learnt with `CLUSTER SLOTS` and corrected by `MOVED` redirections.
///
/// Shared by every loop of a store; reads take a lock for a table lookup. The map is refreshed by
/// the store's own thread (`RedisStore+Cluster`) when a node fails, a `MOVED` arrives, or the
/// cluster answers `CLUSTERDOWN`; `needsRefresh` tells it so.
final class RedisTopology: Sendable {
    let isCluster: Bool
    /// The nodes named in the store URL.
    let seeds: [RedisNodeAddress]

    private struct Map {
        /// The masters, in the order of the slot ranges they were first seen with.
        var masters: [RedisNodeAddress] = []
        /// For each slot, its master's index in `masters` (`.max`: unknown).
        var slots = [UInt16](repeating: .max, count: RedisSlots.count)
        var needsRefresh = true
    }

    private let map = Mutex(Map())

    init(seeds: [RedisNodeAddress], isCluster: Bool) {
        self.seeds = seeds
        self.isCluster = isCluster
    }

    /// The node serving `slot` (a single Redis serves every slot); nil until the map is known.
    func node(forSlot slot: Int) -> RedisNodeAddress? {
        guard isCluster else { return seeds[0] }
        return map.withLock { map in
            let index = map.slots[slot]
            return index == .max ? nil : map.masters[Int(index)]
        }
    }

    /// The masters, each with the slots it serves (one entry with every slot for a single Redis).
    var masters: [(node: RedisNodeAddress, slots: [Int])] {
        guard isCluster else { return [(seeds[0], [])] }
        return map.withLock { map in
            var slots = [[Int]](repeating: [], count: map.masters.count)
            for (slot, index) in map.slots.enumerated() where index != .max { slots[Int(index)].append(slot) }
            return zip(map.masters, slots).filter { !$0.1.isEmpty }.map { ($0.0, $0.1) }
        }
    }

    /// Nodes to ask for the map: the known masters, then the seeds.
    var candidates: [RedisNodeAddress] {
        let known = map.withLock { $0.masters }
        return known + seeds.filter { !known.contains($0) }
    }

    /// Whether every slot has a node.
    var isComplete: Bool {
        guard isCluster else { return true }
        return map.withLock { !$0.slots.contains(.max) }
    }

    /// `MOVED slot address`: the slot now lives there (the rest of the map is refreshed soon).
    func moved(slot: Int, to address: RedisNodeAddress) {
        guard isCluster, (0..<RedisSlots.count).contains(slot) else { return }
        map.withLock { map in
            let index = map.masters.firstIndex(of: address) ?? {
                map.masters.append(address)
                return map.masters.count - 1
            }()
            map.slots[slot] = UInt16(index)
            map.needsRefresh = true
        }
    }

    /// Asks for a refresh (a node failed, or the cluster is down).
    func markStale() {
        guard isCluster else { return }
        map.withLock { $0.needsRefresh = true }
    }

    /// Whether a refresh was asked for since the last one; clears the request.
    func takeRefreshRequest() -> Bool {
        guard isCluster else { return false }
        return map.withLock { map in
            defer { map.needsRefresh = false }
            return map.needsRefresh
        }
    }

    /// Replaces the map with a `CLUSTER SLOTS` reply; false if the reply is not one.
    /// `fallbackHost` stands for a node announced without an address (`""`): the one asked.
    @discardableResult
    func apply(clusterSlots reply: RedisValue, fallbackHost: String) -> Bool {
        guard case .array(let ranges) = reply else { return false }
        var next = Map()
        next.needsRefresh = false
        for range in ranges {
            guard case .array(let fields) = range, fields.count >= 3, let first = fields[0].integer, let last = fields[1].integer,
                case .array(let master) = fields[2], master.count >= 2, var host = master[0].text, let port = master[1].integer,
                (0..<RedisSlots.count).contains(first), (first..<RedisSlots.count).contains(last)
            else { return false }
            if host.isEmpty || host == "?" { host = fallbackHost }
            let address = RedisNodeAddress(host: host, port: port)
            let index = next.masters.firstIndex(of: address) ?? {
                next.masters.append(address)
                return next.masters.count - 1
            }()
            for slot in first...last { next.slots[slot] = UInt16(index) }
        }
        guard !next.masters.isEmpty else { return false }
        map.withLock { $0 = next }
        return true
    }
}
