import Testing
@testable import WayfinderStore

/// The values a store writes into its scripts' source (`RedisScript.Constants`) are Lua string
/// literals: a key prefix with quotes, backslashes, spaces and digits must still name its keys
/// exactly, and two stores with different prefixes on one Redis must not touch each other's.
/// What differs between two starts of one configuration (the origin) is not in the source: Redis
/// keeps every script loaded until it restarts, so a new source per start would pile up.
@Suite("Redis script constants")
struct RedisScriptConstantsTests {
    @Test func aPrefixWithQuotesBackslashesAndDigitsNamesItsKeysExactly() throws {
        let server = try RedisServer.shared.get()
        let database = RedisServer.freshDatabase()
        let prefix = "it's \\1\"2\\\\:"
        let store = try RedisStore(url: server.url(database: database), configuration: StoreConfiguration(), keyPrefix: prefix)
        let other = try RedisStore(url: server.url(database: database), configuration: StoreConfiguration())
        defer {
            store.close()
            other.close()
        }
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        try store.save(Fixture.next(session), expectedRevision: 1, idempotency: Fixture.record(session.id))
        #expect(try server.cli(database: database, "HGET", prefix + "s:{\(session.id)}", "rev") == "2")
        #expect(try server.cli(database: database, "ZSCORE", prefix + "live", session.id) == String(Fixture.t0))
        #expect(try server.cli(database: database, "ZSCORE", prefix + "ik:{\(session.id)}", "key-1") == String(Fixture.t0))
        #expect(try server.cli(database: database, "ZCARD", prefix + "irec") == "1")
        #expect(try server.cli(database: database, "DBSIZE") == "5")
        #expect(try other.load(id: session.id, now: Fixture.t0) == nil)

        #expect(try store.delete(id: session.id))
        #expect(try server.cli(database: database, "DBSIZE") == "0")
    }

    @Test func twoStartsOfOneConfigurationLoadTheSameScripts() throws {
        let server = try RedisServer.shared.get()
        let database = RedisServer.freshDatabase()
        let first = try RedisStore(url: server.url(database: database), configuration: StoreConfiguration())
        let second = try RedisStore(url: server.url(database: database), configuration: StoreConfiguration())
        defer {
            first.close()
            second.close()
        }
        #expect(first.origin != second.origin)
        for store in [first, second] {
            let session = Fixture.session()
            try store.create(session, maxSessions: 10)
            try store.save(Fixture.next(session), expectedRevision: 1, idempotency: nil)
        }
        let digests = [first, second].map { store in
            store.scriptDigests.withLock { $0[RedisScript.save.rawValue] }
        }
        #expect(digests[0] != nil)
        #expect(digests[0] == digests[1])
    }
}
