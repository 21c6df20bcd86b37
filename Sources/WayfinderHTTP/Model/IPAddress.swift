import Glibc

/// A client's IP address: 4 bytes for IPv4 (an IPv4-mapped IPv6 address counts as its IPv4
/// address), 16 for IPv6, in network order.
///
/// Read from a peer address as the server names it (`"a.b.c.d:port"`, `"[v6]:port"`) or from a
/// bare address (a proxy's header). Per-client limits count an address by its ``share``.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address's bytes: 4 (IPv4) or 16 (IPv6).
    public let bytes: [UInt8]

    /// The address in `text`, with or without a port; nil if it holds none.
    public init?(_ text: some StringProtocol) {
        var host = Substring(text)
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.firstIndex(of: ":"), host.lastIndex(of: ":") == colon {
            host = host[..<colon]  // "a.b.c.d:port"
        }
        if host.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(host), &address) == 1 else { return nil }
            let bytes = withUnsafeBytes(of: address) { Array($0) }
            let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            self.bytes = mapped ? Array(bytes[12..<16]) : bytes
        } else {
            var address = in_addr()
            guard inet_pton(AF_INET, String(host), &address) == 1 else { return nil }
            self.bytes = withUnsafeBytes(of: address) { Array($0) }
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// What per-client limits count this address as: an IPv4 address itself, an IPv6 address
    /// its /64 (one host usually owns a whole /64, so single IPv6 addresses would give it
    /// billions of shares).
    public var share: IPAddress {
        bytes.count == 4 ? self : IPAddress(bytes: Array(bytes[0..<8]) + [UInt8](repeating: 0, count: 8))
    }

    /// `a.b.c.d`, or IPv6 as eight groups of hexadecimal digits.
    public var description: String {
        if bytes.count == 4 { return bytes.map { String($0) }.joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}
