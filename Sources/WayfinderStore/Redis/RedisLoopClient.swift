/// A store's connections on one loop: one `RedisLink` per node, and the routing of a command to
/// the node serving its slot, following the cluster's redirections.
///
/// - `MOVED slot host:port`: the slot moved for good; the map is corrected and the command sent
///   there (the command was not run).
/// - `ASK slot host:port`: the slot is migrating and this key is already there; the command is
///   sent there once, after `ASKING`.
/// - `TRYAGAIN` (a multi-key command during a migration): sent again shortly.
/// - `CLUSTERDOWN`, or a failed connection: `.unavailable`, and the map is refreshed.
///
/// At most five redirections per command.
///
/// - Important: used by its loop's thread only (`@unchecked Sendable` so the store can keep it
///   in its table of loops).
final class RedisLoopClient: @unchecked Sendable {
    typealias Handler = (Result<RedisValue, StoreError>) -> Void

    let loop: any StoreLoop
    private let topology: RedisTopology
    private let settings: RedisLink.Settings
    /// Told when a connection failed (its node), or (nil) when the slot map needs a refresh.
    private let onTrouble: @Sendable (RedisNodeAddress?) -> Void
    private var links: [RedisNodeAddress: RedisLink] = [:]
    private static let maxRedirections = 5

    init(
        loop: any StoreLoop, topology: RedisTopology, settings: RedisLink.Settings,
        onTrouble: @escaping @Sendable (RedisNodeAddress?) -> Void
    ) {
        self.loop = loop
        self.topology = topology
        self.settings = settings
        self.onTrouble = onTrouble
    }

    /// The link to `address` (made on first use).
    func link(_ address: RedisNodeAddress) -> RedisLink {
        if let link = links[address] { return link }
        let link = RedisLink(address: address, loop: loop, settings: settings)
        link.onFailure = { [onTrouble] _ in onTrouble(address) }
        links[address] = link
        return link
    }

    /// Sends `command` to the node serving `slot` (any node of a single Redis).
    func send(_ command: RedisCommand, slot: Int, _ handler: @escaping Handler) {
        send(command, slot: slot, redirections: 0, handler)
    }

    /// Sends `command` to `address`, whatever it serves (per-node commands: counts, expiry).
    func send(_ command: RedisCommand, to address: RedisNodeAddress, _ handler: @escaping Handler) {
        link(address).send(command) { [weak self] result in
            if case .success(.error(let message)) = result, message.hasPrefix("CLUSTERDOWN") { self?.stale() }
            handler(result)
        }
    }

    /// Closes every link (the loop stopped, or the store closed).
    func close() {
        for link in links.values { link.close() }
        links = [:]
    }

    private func send(_ command: RedisCommand, slot: Int, redirections: Int, _ handler: @escaping Handler) {
        guard let address = topology.node(forSlot: slot) else {
            stale()
            return handler(.failure(.unavailable("redis cluster: no node known for slot \(slot) (the slot map is being refreshed)")))
        }
        link(address).send(command) { [weak self] result in
            guard let self else { return handler(result) }
            guard case .success(.error(let message)) = result, topology.isCluster, redirections < Self.maxRedirections else {
                return handler(result)
            }
            if let (movedSlot, target) = Self.redirection(message, "MOVED ") {
                topology.moved(slot: movedSlot, to: target)
                stale()
                send(command, slot: slot, redirections: redirections + 1, handler)
            } else if let (_, target) = Self.redirection(message, "ASK ") {
                let link = link(target)
                link.send(RedisCommand("ASKING")) { _ in }
                link.send(command, handler)
            } else if message.hasPrefix("TRYAGAIN") {
                loop.schedule(afterMilliseconds: 20) { [weak self] in
                    self?.send(command, slot: slot, redirections: redirections + 1, handler)
                }
            } else {
                if message.hasPrefix("CLUSTERDOWN") { stale() }
                handler(result)
            }
        }
    }

    private func stale() {
        topology.markStale()
        onTrouble(nil)
    }

    /// Parses `MOVED 3999 127.0.0.1:6381` (or `ASK …`) into the slot and the address.
    static func redirection(_ message: String, _ kind: String) -> (Int, RedisNodeAddress)? {
        guard message.hasPrefix(kind) else { return nil }
        let parts = message.dropFirst(kind.count).split(separator: " ")
        guard parts.count == 2, let slot = Int(parts[0]), let colon = parts[1].lastIndex(of: ":"),
            let port = Int(parts[1][parts[1].index(after: colon)...])
        else { return nil }
        var host = String(parts[1][..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (slot, RedisNodeAddress(host: host, port: port))
    }
}
