import Foundation
import Synchronization
import Testing
import WayfinderStore

/// The store implementations the behavioural suite runs against.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory
    case sqlite
    case redis
    case redisCluster

    var testDescription: String { rawValue }

    /// A fresh, empty store of this kind (SQLite in its own temporary directory; Redis in its own
    /// database of the test process's shared `redis-server`; a cluster under a key prefix of its
    /// own on the test process's three masters).
    func make(configuration: StoreConfiguration = StoreConfiguration()) throws -> StoreUnderTest {
        switch self {
        case .memory:
            return StoreUnderTest(store: MemoryStore(configuration: configuration), directory: nil)
        case .sqlite:
            let directory = TemporaryDirectory()
            let store = try SQLiteStore(path: directory.path + "/db/sessions.sqlite", configuration: configuration)
            return StoreUnderTest(store: store, directory: directory)
        case .redis:
            let server = try RedisServer.shared.get()
            let store = try RedisStore(url: server.url(database: RedisServer.freshDatabase()), configuration: configuration)
            // Subscribed before the test watches a session, so no catch-up (a revision the
            // subscriber may already have) is published into the changes the test asserts.
            _ = store.waitUntilReceivingChanges(timeout: .seconds(10))
            return StoreUnderTest(store: store, directory: nil)
        case .redisCluster:
            let cluster = try RedisCluster.shared.get()
            let store = try RedisStore(url: cluster.url, configuration: configuration, keyPrefix: "t-\(UUID().uuidString):")
            _ = store.waitUntilReceivingChanges(timeout: .seconds(10))
            return StoreUnderTest(store: store, directory: nil)
        }
    }
}

/// A store and the directory it lives in (removed when released).
final class StoreUnderTest: Sendable {
    let store: any SessionStore
    let directory: TemporaryDirectory?

    init(store: any SessionStore, directory: TemporaryDirectory?) {
        self.store = store
        self.directory = directory
    }
}

/// A unique directory under the system temporary directory, removed on release.
final class TemporaryDirectory: Sendable {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "wayfinder-store-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Test values.
enum Fixture {
    static let t0: Int64 = 1_700_000_000_000

    static func session(
        _ id: String = "s-" + UUID().uuidString, revision: Int = 1, lastUsed: Int64 = t0,
        state: String = #"{"stack":["login"]}"#
    ) -> StoredSession {
        StoredSession(
            id: id, tokenHash: digest("token-\(id)"), revision: revision,
            state: Array(state.utf8), lastUsed: lastUsed)
    }

    static func record(
        _ sessionID: String, key: String = "key-1", createdAt: Int64 = t0, body: String = #"{"ok":true}"#
    ) -> IdempotencyRecord {
        IdempotencyRecord(
            sessionID: sessionID, key: key, fingerprint: digest("POST /routes \(body)"),
            status: 200,
            headers: [
                HeaderPair(name: "Content-Type", value: "application/json"),
                HeaderPair(name: "ETag", value: #""2""#),
                HeaderPair(name: "X-Empty", value: ""),
            ],
            body: Array(body.utf8), createdAt: createdAt)
    }

    /// The same session at the next revision with a new state.
    static func next(_ session: StoredSession, state: String? = nil, at time: Int64? = nil) -> StoredSession {
        var next = session
        next.revision += 1
        next.state = Array((state ?? #"{"revision":\#(next.revision)}"#).utf8)
        next.lastUsed = time ?? session.lastUsed
        return next
    }
}

/// Collects published changes (thread-safe).
final class ChangeRecorder: Sendable {
    private let received = Mutex<[SessionChange]>([])

    func record(_ change: SessionChange) {
        received.withLock { $0.append(change) }
    }

    var changes: [SessionChange] {
        received.withLock { $0 }
    }
}

/// 32 bytes that stand for a digest of `text` (a token's hash, a request's fingerprint): the
/// stores keep them as opaque bytes, so any distinct bytes will do.
func digest(_ text: String) -> [UInt8] {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return (0..<32).map { UInt8(truncatingIfNeeded: value >> UInt64(($0 % 8) * 8)) ^ UInt8($0) }
}
