import Glibc
import WayfinderHTTP
import WayfinderStore

/// Every setting of the server: a `--flag`, the same as a `WAYFINDER_*` environment variable
/// (flags win), a default, and a parser that names the setting when a value is bad.
struct Settings: Sendable {
    var host = "127.0.0.1"
    var port = 8080
    var threads = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    var store = "sqlite:data/wayfinder.sqlite"
    var redisWaitReplicas = 0
    var sqliteShared = false
    var publicDirectory = Settings.bundled("Public")
    var openAPI = Settings.bundled("openapi.yaml")
    var sessionTTLSeconds = 86_400.0
    var maxSessions = 100_000
    var maxConnections = 10_000
    var maxBodyBytes = 1 << 20
    var headerTimeoutSeconds = 10.0
    var idleTimeoutSeconds = 60.0
    var shutdownDeadlineSeconds = 10.0
    var heartbeatSeconds = 15.0
    var gzipMinBytes = 1024
    var gzipLevel = 1
    var effectWaitSeconds = 1.0
    var logLevel = "info"
    var cacheSize = 20_000
    var unusedSessionTTLSeconds = 600.0
    var maxSessionBytes = 512 * 1024
    var maxIdempotencyKeyBytes = 255
    var idempotencyKeysPerSession = 64
    var idempotencyBytesPerSession = 1 << 20
    var maxStreamsPerSession = 8
    var maxStreams = 10_000
    var maxStreamBufferBytes = 256 * 1024
    var createRate = 2.0
    var createBurst = 60
    var clientIPHeader: String?
    var bodyTimeoutSeconds = 10.0
    var minBodyRate = 1024
    var journal = true
    var journalEntries = 100
    var journalBytes = 256 * 1024
    var identity = IdentitySettings()
    var maxConnectionsPerAddress = 256
    var maxStreamsPerAddress = 256
    var trustedProxies: [AddressRange] = []
    var routeRate = 100.0
    var routeBurst = 1000

    struct Invalid: Error, Sendable { var message: String }

    /// One setting: its flag, variable, help and how to apply a value.
    struct Option: Sendable {
        var name: String
        var help: String
        var defaultValue: @Sendable (Settings) -> String
        var apply: @Sendable (inout Settings, String) throws(Invalid) -> Void
        var environment: String { "WAYFINDER_" + name.uppercased().replacingDashes }
    }

    static let options: [Option] = [
        Option(name: "host", help: "address to listen on (0.0.0.0 in the container)", defaultValue: { $0.host }) { s, v throws(Invalid) in
            guard !v.isEmpty else { throw Invalid(message: "must not be empty") }
            s.host = v
        },
        Option(name: "port", help: "TCP port (0 picks a free one)", defaultValue: { String($0.port) }) { s, v throws(Invalid) in
            s.port = try integer(v, 0...65_535)
        },
        Option(name: "threads", help: "event loops (one per core by default)", defaultValue: { String($0.threads) }) { s, v throws(Invalid) in
            s.threads = try integer(v, 1...256)
        },
        Option(
            name: "store", help: "sqlite:PATH, memory, redis://HOST:PORT[/DB] or redis+cluster://HOST:PORT,HOST:PORT,... (several instances)",
            defaultValue: { $0.store }
        ) { s, v throws(Invalid) in
            if v.hasPrefix("redis://") || v.hasPrefix("redis+cluster://") {
                do { _ = try RedisEndpoint(url: v) } catch { throw Invalid(message: "\(error)") }
            } else if !(v == "memory" || (v.hasPrefix("sqlite:") && v.count > 7)) {
                throw Invalid(message: "must be sqlite:PATH, memory, redis://HOST:PORT[/DB] or redis+cluster://HOST:PORT,...")
            }
            s.store = v
        },
        Option(
            name: "redis-wait-replicas", help: "with Redis: replicas that must have each change before it is acknowledged (WAIT; 0: none)",
            defaultValue: { String($0.redisWaitReplicas) }
        ) { s, v throws(Invalid) in
            s.redisWaitReplicas = try integer(v, 0...16)
        },
        Option(name: "sqlite-shared", help: "true when other processes serve the same SQLite file (a rolling deploy on one host)", defaultValue: { String($0.sqliteShared) }) { s, v throws(Invalid) in
            guard let value = ["true": true, "false": false][v] else { throw Invalid(message: "must be true or false") }
            s.sqliteShared = value
        },
        Option(name: "public", help: "folder of the web client served at /", defaultValue: { $0.publicDirectory }) { s, v throws(Invalid) in
            s.publicDirectory = v
        },
        Option(name: "openapi", help: "the contract served at /openapi.yaml", defaultValue: { $0.openAPI }) { s, v throws(Invalid) in
            s.openAPI = v
        },
        Option(name: "session-ttl", help: "idle time after which a session expires (e.g. 24h, 90m, 30s)", defaultValue: { duration($0.sessionTTLSeconds) }) { s, v throws(Invalid) in
            s.sessionTTLSeconds = try seconds(v)
        },
        Option(name: "max-sessions", help: "sessions at once; more answer 503 session_limit", defaultValue: { String($0.maxSessions) }) { s, v throws(Invalid) in
            s.maxSessions = try integer(v, 1...100_000_000)
        },
        Option(name: "max-connections", help: "open connections; more are closed at once", defaultValue: { String($0.maxConnections) }) { s, v throws(Invalid) in
            s.maxConnections = try integer(v, 1...1_000_000)
        },
        Option(name: "max-body", help: "largest request body in bytes (413 beyond)", defaultValue: { String($0.maxBodyBytes) }) { s, v throws(Invalid) in
            s.maxBodyBytes = try integer(v, 1...(64 << 20))
        },
        Option(name: "header-timeout", help: "time for a request's headers to arrive", defaultValue: { duration($0.headerTimeoutSeconds) }) { s, v throws(Invalid) in
            s.headerTimeoutSeconds = try seconds(v)
        },
        Option(name: "idle-timeout", help: "idle keep-alive connections close after this", defaultValue: { duration($0.idleTimeoutSeconds) }) { s, v throws(Invalid) in
            s.idleTimeoutSeconds = try seconds(v)
        },
        Option(name: "shutdown-deadline", help: "time to drain on SIGTERM before closing everything", defaultValue: { duration($0.shutdownDeadlineSeconds) }) { s, v throws(Invalid) in
            s.shutdownDeadlineSeconds = try seconds(v)
        },
        Option(name: "heartbeat", help: "comment line interval on idle event streams", defaultValue: { duration($0.heartbeatSeconds) }) { s, v throws(Invalid) in
            s.heartbeatSeconds = try seconds(v)
        },
        Option(name: "gzip-min-bytes", help: "shortest answer compressed for a client that accepts gzip", defaultValue: { String($0.gzipMinBytes) }) { s, v throws(Invalid) in
            s.gzipMinBytes = try integer(v, 0...(64 << 20))
        },
        Option(name: "gzip-level", help: "zlib level of gzip answers, 1 (fastest) to 9 (smallest); 0: never compress", defaultValue: { String($0.gzipLevel) }) { s, v throws(Invalid) in
            s.gzipLevel = try integer(v, 0...9)
        },
        Option(name: "effect-wait", help: "how long an action waits for its effects before answering (then 202, results later)", defaultValue: { duration($0.effectWaitSeconds) }) { s, v throws(Invalid) in
            s.effectWaitSeconds = try seconds(v)
        },
        Option(name: "cache-size", help: "recently used sessions kept decoded and rendered (0: off)", defaultValue: { String($0.cacheSize) }) { s, v throws(Invalid) in
            s.cacheSize = try integer(v, 0...10_000_000)
        },
        Option(name: "journal", help: "record each session's changes (history, rewind, replay bundles): on or off", defaultValue: { $0.journal ? "on" : "off" }) { s, v throws(Invalid) in
            guard v == "on" || v == "off" else { throw Invalid(message: "must be on or off") }
            s.journal = v == "on"
        },
        Option(name: "log-level", help: "debug, info, warn or error", defaultValue: { $0.logLevel }) { s, v throws(Invalid) in
            guard ["debug", "info", "warn", "error"].contains(v) else { throw Invalid(message: "must be debug, info, warn or error") }
            s.logLevel = v
        },
    ] + limitOptions + identityOptions

    /// The limits a client can run into (each in docs/limits.md with its status and code).
    static let limitOptions: [Option] = [
        Option(name: "unused-session-ttl", help: "a session never used after its creation expires after this", defaultValue: { duration($0.unusedSessionTTLSeconds) }) { s, v throws(Invalid) in
            s.unusedSessionTTLSeconds = try seconds(v)
        },
        Option(name: "max-session-bytes", help: "largest stored session state (422 session_too_large beyond)", defaultValue: { String($0.maxSessionBytes) }) { s, v throws(Invalid) in
            s.maxSessionBytes = try integer(v, 1024...(64 << 20))
        },
        Option(name: "max-idempotency-key", help: "longest Idempotency-Key in bytes (400 beyond)", defaultValue: { String($0.maxIdempotencyKeyBytes) }) { s, v throws(Invalid) in
            s.maxIdempotencyKeyBytes = try integer(v, 1...8192)
        },
        Option(name: "idempotency-keys-per-session", help: "idempotency records kept per session (the oldest is dropped)", defaultValue: { String($0.idempotencyKeysPerSession) }) { s, v throws(Invalid) in
            s.idempotencyKeysPerSession = try integer(v, 1...100_000)
        },
        Option(name: "idempotency-bytes-per-session", help: "bytes of answers a session's idempotency records keep (older answers are dropped; a retry of one is 409)", defaultValue: { String($0.idempotencyBytesPerSession) }) { s, v throws(Invalid) in
            s.idempotencyBytesPerSession = try integer(v, 0...(256 << 20))
        },
        Option(name: "journal-entries", help: "journal entries kept per session (the oldest are dropped)", defaultValue: { String($0.journalEntries) }) { s, v throws(Invalid) in
            s.journalEntries = try integer(v, 1...100_000)
        },
        Option(name: "journal-bytes", help: "journal bytes kept per session (the oldest entries are dropped; the newest stays)", defaultValue: { String($0.journalBytes) }) { s, v throws(Invalid) in
            s.journalBytes = try integer(v, 1024...(256 << 20))
        },
        Option(name: "max-streams-per-session", help: "open event streams per session (429 beyond)", defaultValue: { String($0.maxStreamsPerSession) }) { s, v throws(Invalid) in
            s.maxStreamsPerSession = try integer(v, 1...100_000)
        },
        Option(name: "max-streams", help: "open event streams in all (503 beyond)", defaultValue: { String($0.maxStreams) }) { s, v throws(Invalid) in
            s.maxStreams = try integer(v, 1...1_000_000)
        },
        Option(name: "max-stream-buffer", help: "unsent bytes per event stream before it is ended", defaultValue: { String($0.maxStreamBufferBytes) }) { s, v throws(Invalid) in
            s.maxStreamBufferBytes = try integer(v, 1024...(256 << 20))
        },
        Option(name: "create-rate", help: "sessions per second each client address may create (0: no limit)", defaultValue: { number($0.createRate) }) { s, v throws(Invalid) in
            guard let rate = Double(v), rate >= 0, rate.isFinite else { throw Invalid(message: "must be a number of sessions per second, 0 or more") }
            s.createRate = rate
        },
        Option(name: "create-burst", help: "sessions a client address may create at once (429 beyond)", defaultValue: { String($0.createBurst) }) { s, v throws(Invalid) in
            s.createBurst = try integer(v, 1...10_000_000)
        },
        Option(name: "client-ip-header", help: "header with the client address, behind a proxy that sets it (none: the peer)", defaultValue: { $0.clientIPHeader ?? "none" }) { s, v throws(Invalid) in
            guard v != "none" else { return s.clientIPHeader = nil }
            guard !v.isEmpty, v.utf8.allSatisfy(isTokenByte) else { throw Invalid(message: "must be a header name such as X-Real-IP, or none") }
            s.clientIPHeader = v
        },
        Option(name: "body-timeout", help: "time for a request body, plus its size at the minimum body rate", defaultValue: { duration($0.bodyTimeoutSeconds) }) { s, v throws(Invalid) in
            s.bodyTimeoutSeconds = try seconds(v)
        },
        Option(name: "min-body-rate", help: "slowest average body upload in bytes per second (408 below)", defaultValue: { String($0.minBodyRate) }) { s, v throws(Invalid) in
            s.minBodyRate = try integer(v, 1...(1 << 30))
        },
        Option(name: "max-connections-per-address", help: "open connections per client address, a tenth of --max-connections kept for new addresses (0: no limit)", defaultValue: { String($0.maxConnectionsPerAddress) }) { s, v throws(Invalid) in
            s.maxConnectionsPerAddress = try integer(v, 0...1_000_000)
        },
        Option(name: "max-streams-per-address", help: "open event streams per client address (429 beyond; 0: no limit)", defaultValue: { String($0.maxStreamsPerAddress) }) { s, v throws(Invalid) in
            s.maxStreamsPerAddress = try integer(v, 0...1_000_000)
        },
        Option(name: "trusted-proxy", help: "proxies (CIDR ranges, comma-separated) whose --client-ip-header is believed (none: no peer's)", defaultValue: { $0.trustedProxies.isEmpty ? "none" : $0.trustedProxies.map(\.description).joined(separator: ",") }) { s, v throws(Invalid) in
            guard v != "none" else { return s.trustedProxies = [] }
            let ranges = v.split(separator: ",").map { AddressRange($0.filter { $0 != " " }) }
            guard !ranges.isEmpty, !ranges.contains(nil) else {
                throw Invalid(message: "must be CIDR ranges such as 10.0.0.0/8 or fd00::/8 (or single addresses), separated by commas, or none")
            }
            s.trustedProxies = ranges.compactMap { $0 }
        },
        Option(name: "route-rate", help: "actions per second each session may take (429 beyond the burst; 0: no limit)", defaultValue: { number($0.routeRate) }) { s, v throws(Invalid) in
            guard let rate = Double(v), rate >= 0, rate.isFinite else { throw Invalid(message: "must be a number of actions per second, 0 or more") }
            s.routeRate = rate
        },
        Option(name: "route-burst", help: "actions a session may take at once before --route-rate applies", defaultValue: { String($0.routeBurst) }) { s, v throws(Invalid) in
            s.routeBurst = try integer(v, 1...10_000_000)
        },
    ]

    enum Parsed { case run(Settings), help }

    /// Environment first, then flags (`--name value` or `--name=value`), so flags win.
    static func parse(arguments: [String], environment: [String: String]) throws(Invalid) -> Parsed {
        var settings = Settings()
        settings.identity.operatorKey = environment["WAYFINDER_OPERATOR_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        for option in options {
            if let value = environment[option.environment] {
                do { try option.apply(&settings, value) } catch {
                    throw Invalid(message: "invalid \(option.environment) '\(value)': \(error.message)")
                }
            }
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--help" || argument == "-h" { return .help }
            guard argument.hasPrefix("--") else { throw Invalid(message: "unexpected argument '\(argument)' (see --help)") }
            var name = String(argument.dropFirst(2)), value: String
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            } else {
                index += 1
                guard index < arguments.count else { throw Invalid(message: "--\(name) needs a value") }
                value = arguments[index]
            }
            guard let option = options.first(where: { $0.name == name }) else {
                throw Invalid(message: "unknown setting --\(name) (see --help)")
            }
            do { try option.apply(&settings, value) } catch {
                throw Invalid(message: "invalid --\(name) '\(value)': \(error.message)")
            }
            index += 1
        }
        if settings.clientIPHeader != nil, settings.trustedProxies.isEmpty {
            throw Invalid(message: "--client-ip-header needs --trusted-proxy: the addresses of the proxies that set it (from any other peer the header could name anyone)")
        }
        return .run(settings)
    }

    /// `name` in the working directory if it is there, else in the Wayfinder package this server
    /// was built from: how `swift run` in a package that depends on Wayfinder finds the web
    /// client and the contract. A deployment copies both and names them (`--public`, `--openapi`).
    static func bundled(_ name: String) -> String {
        if access(name, F_OK) == 0 { return name }
        // This file is <package>/Sources/WayfinderServer/Settings.swift.
        var path = Substring(#filePath)
        for _ in 0..<3 { path = path[..<(path.lastIndex(of: "/") ?? path.startIndex)] }
        let bundled = path + "/" + name
        return access(String(bundled), F_OK) == 0 ? String(bundled) : name
    }

    static func help(name: String) -> String {
        var lines = [
            "\(name) — server-driven navigation: one coordinator tree per session, JSON over HTTP.",
            "",
            "Usage: \(name) [--setting value]...   or   \(name) healthcheck   or   \(name) replay BUNDLE.json   or   \(name) catalog [--dot | --diff OLD.json]",
            "Every setting can also come from its environment variable; flags win.",
            "",
        ]
        let defaults = Settings()
        let flagWidth = options.map { $0.name.count + 2 }.max() ?? 0
        let variableWidth = options.map(\.environment.count).max() ?? 0
        for option in options {
            let flag = "--\(option.name)".padded(flagWidth)
            lines.append("  \(flag) \(option.environment.padded(variableWidth)) \(option.help) (default: \(option.defaultValue(defaults)))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func integer(_ text: String, _ range: ClosedRange<Int>) throws(Invalid) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw Invalid(message: "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// `90`, `90s`, `15m`, `24h`, `500ms`.
    static func seconds(_ text: String) throws(Invalid) -> Double {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)]
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            if let number = Double(text.dropLast(suffix.count)), number > 0, number.isFinite { return number * factor }
        }
        if let number = Double(text), number > 0, number.isFinite { return number }
        throw Invalid(message: "must be a positive duration such as 30s, 15m or 24h")
    }

    /// A rate as typed: `2`, `0.5`.
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// RFC 9110 token characters (header names).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    static func duration(_ seconds: Double) -> String {
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(Int(seconds / 3600))h" }
        if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60))m" }
        if seconds == seconds.rounded() { return "\(Int(seconds))s" }
        return "\(Int(seconds * 1000))ms"
    }
}

extension String {
    var replacingDashes: String { String(map { $0 == "-" ? "_" : $0 }) }
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
