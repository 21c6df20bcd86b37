/// Where a `RedisStore` connects: parsed from `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` (one
/// Redis) or `redis+cluster://[[USER]:PASSWORD@]HOST[:PORT],HOST[:PORT],…` (a Redis Cluster, known
/// by one or more of its nodes: the others are learnt from them).
///
/// HOST is a name, an IPv4 address or a bracketed IPv6 address (`[::1]`); PORT defaults to 6379
/// and DB (the logical database chosen with `SELECT`) to 0; a cluster has database 0 only.
/// Anything else — another scheme, a query, a port outside 1...65535, a negative or non-numeric
/// DB — is refused.
public struct RedisEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// The first node (of a cluster: the first seed).
    public var host: String
    /// The server's port.
    public var port: Int
    /// The logical database chosen with `SELECT`.
    public var database: Int
    /// `AUTH` credentials, if the URL has them (the user is nil for `redis://:PASSWORD@...`).
    public var user: String?
    /// The `AUTH` password, if the URL has one.
    public var password: String?
    /// Whether it names a Redis Cluster (`redis+cluster://`).
    public var isCluster: Bool
    /// The seeds after the first (cluster URLs).
    var otherNodes: [RedisNodeAddress] = []

    /// An endpoint from its parts.
    public init(host: String, port: Int = 6379, database: Int = 0, user: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
        self.password = password
        self.isCluster = false
    }

    public static func == (a: RedisEndpoint, b: RedisEndpoint) -> Bool {
        a.host == b.host && a.port == b.port && a.database == b.database && a.user == b.user && a.password == b.password
            && a.isCluster == b.isCluster && a.otherNodes == b.otherNodes
    }

    /// Parses a `redis://` or `redis+cluster://` URL.
    /// - Throws: `StoreError.unavailable` naming what is wrong.
    public init(url: String) throws {
        func bad(_ why: String) -> StoreError {
            .unavailable(
                "redis: bad store URL \"\(url)\": \(why) (expected redis://HOST:PORT[/DB] or redis+cluster://HOST:PORT,HOST:PORT,...)")
        }
        let lowered = url.lowercased()
        let isCluster = lowered.hasPrefix("redis+cluster://")
        guard isCluster || lowered.hasPrefix("redis://") else { throw bad("the scheme must be redis:// or redis+cluster://") }
        var rest = Substring(url.dropFirst(isCluster ? "redis+cluster://".count : "redis://".count))
        guard !rest.contains("?"), !rest.contains("#") else { throw bad("queries are not supported") }

        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                let name = credentials[..<colon]
                user = name.isEmpty ? nil : String(name)
                password = String(credentials[credentials.index(after: colon)...])
            } else {
                password = String(credentials)
            }
        }

        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !path.isEmpty {
                guard path.allSatisfy(\.isASCIIDigitCharacter), let number = Int(path), number <= 1 << 20 else {
                    throw bad("the database must be a small non-negative integer")
                }
                database = number
            }
        }

        if isCluster && database != 0 { throw bad("a cluster has database 0 only") }
        var nodes: [RedisNodeAddress] = []
        for node in rest.split(separator: ",", omittingEmptySubsequences: false) {
            nodes.append(try Self.node(node, bad))
        }
        if !isCluster && nodes.count != 1 { throw bad("several nodes need redis+cluster://") }
        self.init(host: nodes[0].host, port: nodes[0].port, database: database, user: user, password: password)
        self.isCluster = isCluster
        self.otherNodes = Array(nodes.dropFirst())
    }

    /// One `HOST[:PORT]`.
    private static func node(_ text: Substring, _ bad: (String) -> StoreError) throws -> RedisNodeAddress {
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw bad("unclosed [ in the host") }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw bad("junk after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = text
        }
        guard !host.isEmpty else { throw bad("the host is missing") }
        guard !host.contains(where: { $0 == " " || $0 == "/" || $0 == "@" }) else { throw bad("invalid host") }
        var port = 6379
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy(\.isASCIIDigitCharacter), let number = Int(portText),
                (1...65_535).contains(number)
            else { throw bad("the port must be 1...65535") }
            port = number
        }
        return RedisNodeAddress(host: String(host), port: port)
    }

    /// `redis://HOST:PORT/DB` or `redis+cluster://HOST:PORT,…`, without credentials (for logs
    /// and error messages).
    public var description: String {
        let all = [RedisNodeAddress(host: host, port: port)] + otherNodes
        return isCluster ? "redis+cluster://" + all.map(\.description).joined(separator: ",") : "redis://\(all[0])/\(database)"
    }

    /// The nodes as addresses.
    var addresses: [RedisNodeAddress] { [RedisNodeAddress(host: host, port: port)] + otherNodes }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
