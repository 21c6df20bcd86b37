/// Rendered state bodies by session and revision, so a read of an unchanged session does not
/// decode and render again.
///
/// Not a second source of truth: an entry is only used for the exact revision it was rendered
/// from, and a revision's rendering never changes. Bounded: a full shard is simply cleared.
final class RenderCache: Sendable {
    private struct Entry: Sendable { var revision: Int; var body: [UInt8] }
    private static let shardCount = 32
    private let shards: [Locked<[String: Entry]>]
    private let perShard: Int

    init(capacity: Int) {
        perShard = max(1, capacity / Self.shardCount)
        shards = (0..<Self.shardCount).map { _ in Locked([:]) }
    }

    private func shard(_ id: String) -> Locked<[String: Entry]> {
        shards[Int(UInt(bitPattern: id.hashValue) % UInt(Self.shardCount))]
    }

    func get(_ id: String, revision: Int) -> [UInt8]? {
        shard(id).withLock { table in
            guard let entry = table[id], entry.revision == revision else { return nil }
            return entry.body
        }
    }

    func put(_ id: String, revision: Int, body: [UInt8]) {
        let limit = perShard
        shard(id).withLock { table in
            if table.count >= limit, table[id] == nil { table.removeAll(keepingCapacity: true) }
            table[id] = Entry(revision: revision, body: body)
        }
    }

    func remove(_ id: String) {
        _ = shard(id).withLock { $0.removeValue(forKey: id) }
    }
}
