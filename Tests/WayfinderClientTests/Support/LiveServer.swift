import DemoApp
import Foundation
import Synchronization
import WayfinderAPI
import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// The real Wayfinder server (API, HTTP server, memory store) in this process, on an ephemeral
/// loopback port; the client under test talks to it through URLSession (libcurl on Linux).
final class LiveServer: Sendable {
    let store: FaultyStore
    let api: WayfinderAPI
    let server: HTTPServer
    let port: Int
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// - Parameters:
    ///   - store: the store to serve (pass one to let a second server take over the sessions).
    ///   - serviceDelay: how long the sample app's account service takes.
    init(
        store: FaultyStore = FaultyStore(), api configureAPI: (inout APIConfiguration) -> Void = { _ in },
        http configureHTTP: (inout HTTPServerConfiguration) -> Void = { _ in }, serviceDelay: Duration = .zero
    ) throws {
        self.store = store
        var configuration = APIConfiguration()
        configuration.publicDirectory = nil
        configuration.authenticator = TestIdentity.authenticator
        configureAPI(&configuration)
        api = WayfinderAPI(
            engine: demoEngine, store: store, configuration: configuration, logger: Logger(level: .error),
            services: try DemoServices(users: .inMemory(accounts: ["a@b.c": "password1", "ada@example.com": "correct horse battery", "slow@b.c": "password1"]), delay: serviceDelay).effects)
        var http = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
        configureHTTP(&http)
        server = HTTPServer(configuration: http, handler: api)
        try server.start()
        api.start()
        port = server.boundPort
    }

    /// Graceful shutdown: event streams end, connections close.
    func stop() {
        api.shutdown()
        server.shutdown()
        server.waitUntilStopped()
    }
}

/// The memory store, with failures the test switches on: `unavailable` (the store cannot be
/// reached: the API answers `503 service_unavailable`) or `unexpected` (an error the API does not
/// know: `500 internal`). Only session loads fail, which every session endpoint does first.
final class FaultyStore: SessionStore {
    enum Fault: Sendable { case unavailable, unexpected }
    struct Unexpected: Error {}

    let base: MemoryStore
    /// The fault, and how many loads it still fails (nil: every load).
    private let fault = Mutex<(Fault, remaining: Int?)?>(nil)

    /// The memory store `base`, healthy.
    init(base: MemoryStore = MemoryStore()) {
        self.base = base
    }

    /// Fails the next `count` loads (every load if nil) with `fault`; `nil` heals the store.
    func fail(_ fault: Fault?, count: Int? = nil) {
        self.fault.withLock { $0 = fault.map { ($0, count) } }
    }

    private func check() throws {
        let current: Fault? = fault.withLock { state in
            guard let (fault, remaining) = state else { return nil }
            if let remaining { state = remaining > 1 ? (fault, remaining - 1) : nil }
            return fault
        }
        switch current {
        case .unavailable: throw StoreError.unavailable("switched off by the test")
        case .unexpected: throw Unexpected()
        case nil: break
        }
    }

    var changes: ChangeFeed { base.changes }
    var idempotencyAnswersDropped: Int { base.idempotencyAnswersDropped }
    func create(_ session: StoredSession, maxSessions: Int, now: Int64, journal: JournalEntry?) throws {
        try base.create(session, maxSessions: maxSessions, now: now, journal: journal)
    }
    func load(id: String, now: Int64) throws -> StoredSession? {
        try check()
        return base.load(id: id, now: now)
    }
    func load(id: String, key: SessionKey, now: Int64) throws -> StoredSession? {
        try check()
        return base.load(id: id, key: key, now: now)
    }
    func save(_ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?, journal: JournalEntry?) throws {
        try base.save(session, expectedRevision: expectedRevision, idempotency: idempotency, journal: journal)
    }
    func journal(id: String, since: Int) throws -> [JournalEntry] { base.journal(id: id, since: since) }
    func touch(id: String, now: Int64) throws { try base.touch(id: id, now: now) }
    func delete(id: String, expectedRevision: Int?) throws -> Bool { try base.delete(id: id, expectedRevision: expectedRevision) }
    func idempotencyRecord(sessionID: String, key: String, now: Int64) throws -> IdempotencyRecord? {
        base.idempotencyRecord(sessionID: sessionID, key: key, now: now)
    }
    func expire(now: Int64) throws -> Int { base.expire(now: now) }
    func count(now: Int64) throws -> Int { base.count(now: now) }
    func ping() throws { try check() }
    func deploymentSecret() throws -> [UInt8] { try base.deploymentSecret() }
    func sessionsWithPendingEffects(limit: Int) throws -> [String] { base.sessionsWithPendingEffects(limit: limit) }
    func sessions(ofUser user: String, now: Int64, limit: Int) throws -> [String] {
        base.sessions(ofUser: user, now: now, limit: limit)
    }
}

/// The sample app's engine, built once for every test.
let demoEngine: Engine = {
    do { return Engine(try DemoApp.makeApplication()) } catch { fatalError("the sample app does not build: \(error)") }
}()
