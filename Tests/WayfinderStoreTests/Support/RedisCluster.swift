import Foundation

/// A throwaway Redis Cluster on loopback: three masters (`RedisServer` nodes with
/// `cluster-enabled yes`, each stopped when this process ends), their slots assigned by
/// `redis-cli --cluster create`. One per test process; every store on it keeps its keys under a
/// prefix of its own (a cluster has database 0 only).
final class RedisCluster: Sendable {
    let nodes: [RedisServer]

    /// The test process's cluster.
    static let shared: Result<RedisCluster, RedisServer.Failure> = Result { try RedisCluster(masters: 3) }
        .mapError { $0 as? RedisServer.Failure ?? RedisServer.Failure(description: "\($0)") }

    init(masters: Int) throws {
        var nodes: [RedisServer] = []
        for port in try Self.freePorts(masters) {
            nodes.append(try RedisServer(removeDirectoryOnExit: true, clusterPort: port))
        }
        self.nodes = nodes
        let addresses = nodes.map { "127.0.0.1:\($0.port)" }
        let created = try Self.cli(["--cluster", "create"] + addresses + ["--cluster-replicas", "0", "--cluster-yes"])
        guard created.status == 0 else { throw RedisServer.Failure(description: "redis-cli --cluster create: \(created.output)") }
        // Every node agrees that every slot is served and knows every node.
        let deadline = Date(timeIntervalSinceNow: 20)
        for node in nodes {
            while true {
                let info = try Self.cli(["-p", String(node.port), "CLUSTER", "INFO"]).output
                if info.contains("cluster_state:ok"), info.contains("cluster_known_nodes:\(masters)") { break }
                guard Date() < deadline else { throw RedisServer.Failure(description: "cluster not ready: \(info)") }
                usleep(20_000)
            }
        }
    }

    /// `redis+cluster://` naming every master.
    var url: String { "redis+cluster://" + nodes.map { "127.0.0.1:\($0.port)" }.joined(separator: ",") }

    /// `count` free loopback ports whose cluster bus ports (port + 10000) are free too.
    private static func freePorts(_ count: Int) throws -> [Int] {
        var ports: [Int] = []
        for _ in 0..<1_000 where ports.count < count {
            let port = try RedisServer.freeLoopbackPort()
            if port + 10_000 <= 65_535, !ports.contains(port), !RedisServer.accepts(port: port + 10_000) { ports.append(port) }
        }
        guard ports.count == count else { throw RedisServer.Failure(description: "no free ports for a cluster") }
        return ports
    }

    /// Runs `redis-cli` with `arguments`: its exit status and output.
    static func cli(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["redis-cli"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
