import Glibc

/// Token buckets per client address: each address may take `burst` tokens at once and gets
/// `ratePerSecond` back every second (session creation: one token per session).
///
/// Addresses are IPv4 addresses, or the /64 prefix of an IPv6 address (one host usually owns a
/// whole /64, so counting single IPv6 addresses would give it billions of buckets). Bounded: a
/// shard holds at most `maxAddresses / shardCount` buckets; when it is full, the buckets that
/// have refilled (which remember nothing) are dropped first, then all of them.
final class RateLimiter: Sendable {
    private struct Bucket: Sendable {
        var tokens: Double
        var updated: UInt64
    }

    private static let shardCount = 16
    private let ratePerNanosecond: Double
    private let burst: Double
    private let perShard: Int
    private let shards: [Locked<[String: Bucket]>]

    /// - Parameters:
    ///   - ratePerSecond: tokens an address gets back per second (more than 0).
    ///   - burst: the bucket's size (at least 1).
    init(ratePerSecond: Double, burst: Int, maxAddresses: Int = 65_536) {
        ratePerNanosecond = max(ratePerSecond, 1e-9) / 1e9
        self.burst = Double(max(1, burst))
        perShard = max(1, maxAddresses / Self.shardCount)
        shards = (0..<Self.shardCount).map { _ in Locked([:]) }
    }

    /// Takes a token for `address` at `now` (monotonic nanoseconds): nil if one was there,
    /// otherwise the whole seconds until one will be.
    func take(_ address: String, now: UInt64) -> Int? {
        let key = Self.key(address)
        let shard = shards[Int(UInt(bitPattern: key.hashValue) % UInt(Self.shardCount))]
        return shard.withLock { table -> Int? in
            var bucket = table[key] ?? Bucket(tokens: burst, updated: now)
            if now > bucket.updated {
                bucket.tokens = min(burst, bucket.tokens + Double(now - bucket.updated) * ratePerNanosecond)
                bucket.updated = now
            }
            let admitted = bucket.tokens >= 1
            if admitted { bucket.tokens -= 1 }
            if table[key] == nil, table.count >= perShard { makeRoom(&table, now: now) }
            table[key] = bucket
            if admitted { return nil }
            let seconds = (1 - bucket.tokens) / ratePerNanosecond / 1e9
            return Int(min(seconds.rounded(.up), 86_400))
        }
    }

    /// Drops the buckets that are full again at `now`; all of them if none is.
    private func makeRoom(_ table: inout [String: Bucket], now: UInt64) {
        table = table.filter { _, bucket in
            bucket.tokens + Double(now &- bucket.updated) * ratePerNanosecond < burst
        }
        if table.count >= perShard { table.removeAll(keepingCapacity: true) }
    }

    /// The bucket's name for a peer address: `"ip:port"`, `"[ipv6]:port"`, or a bare address
    /// (from a header). IPv4-mapped IPv6 addresses count as the IPv4 address.
    static func key(_ address: String) -> String {
        var host = Substring(address)
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.firstIndex(of: ":"), host.lastIndex(of: ":") == colon {
            host = host[..<colon]  // "a.b.c.d:port"
        }
        guard host.contains(":") else { return String(host) }
        var address = in6_addr()
        guard inet_pton(AF_INET6, String(host), &address) == 1 else { return String(host) }
        let bytes = withUnsafeBytes(of: address) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12..<16].map { String($0) }.joined(separator: ".")
        }
        return bytes[0..<8].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }
}
