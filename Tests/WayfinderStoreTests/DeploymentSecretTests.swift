import Foundation
import Testing
@testable import WayfinderStore

/// `deploymentSecret()`: 32 random bytes made on first use and kept with the store, so every
/// instance sharing a backend, and every restart, reads the same ones.
@Suite("Deployment secret")
struct DeploymentSecretTests {
    @Test(arguments: StoreKind.allCases)
    func theSecretIsMadeOnceAndReadTheSameEverywhere(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }
        let secret = try made.store.deploymentSecret()
        #expect(secret.count == 32)
        #expect(Set(secret).count > 8, "random bytes, not a constant")
        #expect(try made.store.deploymentSecret() == secret)
        switch made.store {
        case let sqlite as SQLiteStore:
            // A restart, and a second process on the same file.
            #expect(try SQLiteStore(path: sqlite.path).deploymentSecret() == secret)
        case let redis as RedisStore:
            // A second instance on the same backend.
            let endpoint = redis.endpoint
            let scheme = endpoint.isCluster ? "redis+cluster" : "redis"
            let url = endpoint.isCluster ? "\(scheme)://\(endpoint.host):\(endpoint.port)" : "\(scheme)://\(endpoint.host):\(endpoint.port)/\(endpoint.database)"
            #expect(try RedisStore(url: url, keyPrefix: redis.keyPrefix).deploymentSecret() == secret)
        default:
            break
        }
        // Another backend has its own.
        let other = try kind.make()
        defer { withExtendedLifetime(other) {} }
        #expect(try other.store.deploymentSecret() != secret)
    }
}
