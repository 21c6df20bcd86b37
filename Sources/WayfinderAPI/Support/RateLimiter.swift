import Glibc

/// Token buckets by key: each key may take `burst` tokens at once and gets `ratePerSecond`
/// back every second (session creation per client address, actions per session id).
///
/// Bounded: a shard holds at most `maxKeys / shardCount` buckets; when it is full, the buckets
/// that have refilled (which remember nothing) are dropped first, then all of them.
final class RateLimiter<Key: Hashable & Sendable>: Sendable {
    private struct Bucket: Sendable {
        var tokens: Double
        var updated: UInt64
    }

    private static var shardCount: Int { 16 }
    private let ratePerNanosecond: Double
    private let burst: Double
    private let perShard: Int
    private let shards: [Locked<[Key: Bucket]>]

    /// - Parameters:
    ///   - ratePerSecond: tokens a key gets back per second (more than 0).
    ///   - burst: the bucket's size (at least 1).
    init(ratePerSecond: Double, burst: Int, maxKeys: Int = 65_536) {
        ratePerNanosecond = max(ratePerSecond, 1e-9) / 1e9
        self.burst = Double(max(1, burst))
        perShard = max(1, maxKeys / Self.shardCount)
        shards = (0..<Self.shardCount).map { _ in Locked([:]) }
    }

    /// Takes a token for `key` at `now` (monotonic nanoseconds): nil if one was there,
    /// otherwise the whole seconds until one will be.
    func take(_ key: Key, now: UInt64) -> Int? {
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
    private func makeRoom(_ table: inout [Key: Bucket], now: UInt64) {
        table = table.filter { _, bucket in
            bucket.tokens + Double(now &- bucket.updated) * ratePerNanosecond < burst
        }
        if table.count >= perShard { table.removeAll(keepingCapacity: true) }
    }
}
