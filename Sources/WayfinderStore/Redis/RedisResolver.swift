import CHiredis
import Synchronization

/// A Redis node's address as the store URL or the cluster names it.
struct RedisNodeAddress: Hashable, Sendable, CustomStringConvertible {
    var host: String
    var port: Int

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Host names to numeric addresses, resolved off the event loops.
///
/// A numeric address is used as it is. A name is resolved (blocking `getaddrinfo`) when the
/// store starts and again on the store's own thread after a connection to it failed: an event
/// loop only reads the last answer, so it never waits for DNS.
final class RedisResolver: Sendable {
    private let names = Mutex<[String: String]>([:])

    /// The numeric address for `host`: itself if numeric, else the last resolution (nil if none).
    func numeric(_ host: String) -> String? {
        if Self.isNumeric(host) { return host }
        return names.withLock { $0[host] }
    }

    /// Resolves `host` now (blocking); false if it cannot be resolved (the old answer is kept).
    @discardableResult
    func resolve(_ host: String) -> Bool {
        guard !Self.isNumeric(host) else { return true }
        var buffer = [CChar](repeating: 0, count: 64)
        guard wf_resolve(host, &buffer, buffer.count) == 0 else { return false }
        let address = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        names.withLock { $0[host] = address }
        return true
    }

    static func isNumeric(_ host: String) -> Bool {
        wf_is_numeric_host(host) == 1
    }
}
