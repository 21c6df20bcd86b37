import Foundation
import Testing
import WayfinderStore

/// What only a Redis Cluster does: slots that move while a store uses them. (The shared behaviour
/// runs in `SessionStoreTests` with `StoreKind.redisCluster`.)
@Suite("Redis Cluster")
struct RedisClusterTests {
    /// A session's slot moves to another master: while it migrates, the keys already moved are
    /// read there (`ASK`); once the move is final, the store follows `MOVED`, refreshes its slot
    /// map, and the session, its writes and the count across masters carry on.
    @Test func aSessionWhoseSlotMovesIsFollowedThroughAskThenMoved() throws {
        let cluster = try RedisCluster(masters: 3)
        let store = try RedisStore(url: cluster.url, configuration: StoreConfiguration())
        defer { store.close() }
        let session = Fixture.session()
        try store.create(session, maxSessions: 100)
        #expect(try store.load(id: session.id, now: Fixture.t0) == session)

        let slot = try cli(cluster.nodes[0], "CLUSTER", "KEYSLOT", "wf:s:{\(session.id)}")
        let source = try #require(try cluster.nodes.first { try cli($0, "CLUSTER", "COUNTKEYSINSLOT", slot) != "0" })
        let target = try #require(cluster.nodes.first { $0.port != source.port })
        let sourceID = try cli(source, "CLUSTER", "MYID"), targetID = try cli(target, "CLUSTER", "MYID")

        // Migrating: every key of the slot (the session's and its slot's indexes) moves over.
        _ = try cli(target, "CLUSTER", "SETSLOT", slot, "IMPORTING", sourceID)
        _ = try cli(source, "CLUSTER", "SETSLOT", slot, "MIGRATING", targetID)
        let keys = try cli(source, "CLUSTER", "GETKEYSINSLOT", slot, "100").split(separator: "\n").map(String.init)
        #expect(keys.contains("wf:s:{\(session.id)}"))
        _ = try cli(source, ["MIGRATE", "127.0.0.1", String(target.port), "", "0", "5000", "KEYS"] + keys)
        #expect(try store.load(id: session.id, now: Fixture.t0) == session, "read on the target after ASK")

        // Moved for good: every master is told; the store's map still names the source.
        for node in [target, source] + cluster.nodes.filter({ $0.port != source.port && $0.port != target.port }) {
            _ = try cli(node, "CLUSTER", "SETSLOT", slot, "NODE", targetID)
        }
        let next = Fixture.next(session)
        try store.save(next, expectedRevision: 1, idempotency: Fixture.record(session.id))
        #expect(try store.load(id: session.id, now: Fixture.t0) == next)
        #expect(try store.idempotencyRecord(sessionID: session.id, key: "key-1", now: Fixture.t0) == Fixture.record(session.id))
        // The count runs on every master over the slots it serves: right once the map is refreshed.
        let deadline = Date(timeIntervalSinceNow: 10)
        var counted: Int?
        while counted != 1, Date() < deadline {
            counted = try? store.count(now: Fixture.t0)
            if counted != 1 { usleep(20_000) }
        }
        #expect(counted == 1)
        #expect(try store.delete(id: session.id))
        #expect(try store.load(id: session.id, now: Fixture.t0) == nil)
    }

    private func cli(_ node: RedisServer, _ arguments: String...) throws -> String {
        try cli(node, arguments)
    }

    private func cli(_ node: RedisServer, _ arguments: [String]) throws -> String {
        let result = try RedisCluster.cli(["-p", String(node.port)] + arguments)
        #expect(result.status == 0, "redis-cli \(arguments): \(result.output)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
