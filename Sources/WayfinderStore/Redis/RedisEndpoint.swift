/// Where a `RedisStore` connects: parsed from `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`.
///
/// HOST is a name, an IPv4 address or a bracketed IPv6 address (`[::1]`); PORT defaults to 6379
/// and DB (the logical database chosen with `SELECT`) to 0. Anything else — another scheme, a
/// query, a port outside 1...65535, a negative or non-numeric DB — is refused.
public struct RedisEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// The server's name or address (an IPv6 address without brackets).
    public var host: String
    /// The server's port.
    public var port: Int
    /// The logical database chosen with `SELECT`.
    public var database: Int
    /// `AUTH` credentials, if the URL has them (the user is nil for `redis://:PASSWORD@...`).
    public var user: String?
    /// The `AUTH` password, if the URL has one.
    public var password: String?

    /// An endpoint from its parts.
    public init(host: String, port: Int = 6379, database: Int = 0, user: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
        self.password = password
    }

    /// Parses a `redis://` URL.
    /// - Throws: `StoreError.unavailable` naming what is wrong.
    public init(url: String) throws {
        func bad(_ why: String) -> StoreError {
            .unavailable("redis: bad store URL \"\(url)\": \(why) (expected redis://HOST:PORT[/DB])")
        }
        guard url.lowercased().hasPrefix("redis://") else { throw bad("the scheme must be redis://") }
        var rest = Substring(url.dropFirst("redis://".count))
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

        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw bad("unclosed [ in the host") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw bad("junk after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
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
        self.init(host: String(host), port: port, database: database, user: user, password: password)
    }

    /// `redis://HOST:PORT/DB`, without credentials (for logs and error messages).
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "redis://\(shownHost):\(port)/\(database)"
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
