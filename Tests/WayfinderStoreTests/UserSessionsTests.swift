import Foundation
import Testing
@testable import WayfinderStore

/// `sessions(ofUser:now:limit:)` and the `user` of a stored session, against every store: every
/// write keeps the listing exact.
@Suite("Sessions by user")
struct UserSessionsTests {
    /// A session of `user` (ids sort in the order of `name`).
    static func session(_ name: String, user: String?, lastUsed: Int64 = Fixture.t0) -> StoredSession {
        var session = Fixture.session("s-\(name)-" + UUID().uuidString, lastUsed: lastUsed)
        session.user = user
        return session
    }

    @Test(arguments: StoreKind.allCases)
    func sessionsCreatedWithAUserAreListedSortedAndTheUserLoadsBack(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }
        let store = made.store
        let b = Self.session("b", user: "alice"), a = Self.session("a", user: "alice")
        let bob = Self.session("c", user: "bob"), nobody = Self.session("d", user: nil)
        for session in [b, a, bob, nobody] { try store.create(session, maxSessions: 10) }

        #expect(try store.sessions(ofUser: "alice", now: Fixture.t0, limit: 10) == [a.id, b.id])
        #expect(try store.sessions(ofUser: "bob", now: Fixture.t0, limit: 10) == [bob.id])
        #expect(try store.sessions(ofUser: "carol", now: Fixture.t0, limit: 10) == [])
        #expect(try store.load(id: a.id, now: Fixture.t0) == a)
        #expect(try store.load(id: a.id, now: Fixture.t0)?.user == "alice")
        #expect(try store.load(id: nobody.id, now: Fixture.t0)?.user == nil)
        // Another store on the same backend (a second instance, or a restart) reads it too.
        if let sqlite = store as? SQLiteStore {
            #expect(try SQLiteStore(path: sqlite.path).load(id: b.id, now: Fixture.t0) == b)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theLimitKeepsTheFirstIDs(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }
        let store = made.store
        let sessions = (0..<5).map { Self.session("\($0)", user: "alice") }
        for session in sessions.reversed() { try store.create(session, maxSessions: 10) }
        let ids = sessions.map(\.id)
        #expect(try store.sessions(ofUser: "alice", now: Fixture.t0, limit: 2) == Array(ids.prefix(2)))
        #expect(try store.sessions(ofUser: "alice", now: Fixture.t0, limit: 5) == ids)
        #expect(try store.sessions(ofUser: "alice", now: Fixture.t0, limit: 50) == ids)
        #expect(try store.sessions(ofUser: "alice", now: Fixture.t0, limit: 0) == [])
    }

    @Test(arguments: StoreKind.allCases)
    func aSaveMovesTheSessionBetweenUsers(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }
        let store = made.store
        let other = Self.session("z", user: "a")
        try store.create(other, maxSessions: 10)
        var session = Self.session("m", user: nil)
        try store.create(session, maxSessions: 10)
        func list(_ user: String) throws -> [String] { try store.sessions(ofUser: user, now: Fixture.t0, limit: 10) }
        func save(user: String?) throws {
            var next = Fixture.next(session)
            next.user = user
            try store.save(next, expectedRevision: session.revision, idempotency: nil)
            session = next
            #expect(try store.load(id: session.id, now: Fixture.t0) == session)
        }
        #expect(try list("a") == [other.id])

        try save(user: "a")  // nil → a
        #expect(try list("a") == [session.id, other.id])
        try save(user: "a")  // a → a: no change
        #expect(try list("a") == [session.id, other.id])
        try save(user: "b")  // a → b
        #expect(try list("a") == [other.id])
        #expect(try list("b") == [session.id])
        try save(user: nil)  // b → nil
        #expect(try list("a") == [other.id])
        #expect(try list("b") == [])
        try save(user: "b")  // nil → b, then back to a in the next save
        try save(user: "a")
        #expect(try list("a") == [session.id, other.id])
        #expect(try list("b") == [])
        // Each listing is the same when asked again (what a listing removed stays removed).
        #expect(try list("b") == [])
        #expect(try list("a") == [session.id, other.id])
    }

    @Test(arguments: StoreKind.allCases)
    func aRefusedSaveLeavesTheListingAlone(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }
        let store = made.store
        let session = Self.session("r", user: "a")
        try store.create(session, maxSessions: 10)
        var second = Fixture.next(session)
        second.user = "a"
        try store.save(second, expectedRevision: 1, idempotency: Fixture.record(session.id))

        // A stale revision.
        var stale = Fixture.next(session)
        stale.user = "b"
        #expect(throws: StoreError.conflict(currentRevision: 2)) { try store.save(stale, expectedRevision: 1, idempotency: nil) }
        // A taken idempotency key.
        var taken = Fixture.next(second)
        taken.user = nil
        #expect(throws: StoreError.idempotencyKeyTaken) {
            try store.save(taken, expectedRevision: 2, idempotency: Fixture.record(session.id))
        }
        // An absent session.
        #expect(throws: StoreError.notFound) {
            try store.save(Self.session("x", user: "b"), expectedRevision: 1, idempotency: nil)
        }
        #expect(try store.sessions(ofUser: "a", now: Fixture.t0, limit: 10) == [session.id])
        #expect(try store.sessions(ofUser: "b", now: Fixture.t0, limit: 10) == [])
        #expect(try store.load(id: session.id, now: Fixture.t0) == second)
        // A refused create (its id is taken) changes nothing either.
        var duplicate = Self.session("r", user: "b")
        duplicate.id = session.id
        #expect(throws: StoreError.duplicateID) { try store.create(duplicate, maxSessions: 10) }
        #expect(try store.sessions(ofUser: "b", now: Fixture.t0, limit: 10) == [])
        #expect(try store.sessions(ofUser: "a", now: Fixture.t0, limit: 10) == [session.id])
    }

    @Test(arguments: StoreKind.allCases)
    func aDeletedSessionIsNoLongerListed(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }
        let store = made.store
        let first = Self.session("1", user: "a"), second = Self.session("2", user: "a")
        try store.create(first, maxSessions: 10)
        try store.create(second, maxSessions: 10)
        // A delete refused at a stale revision keeps it listed.
        #expect(throws: StoreError.conflict(currentRevision: 1)) { try store.delete(id: first.id, expectedRevision: 7) }
        #expect(try store.sessions(ofUser: "a", now: Fixture.t0, limit: 10) == [first.id, second.id])
        #expect(try store.delete(id: first.id, expectedRevision: 1))
        #expect(try store.sessions(ofUser: "a", now: Fixture.t0, limit: 10) == [second.id])
        #expect(try store.delete(id: second.id))
        #expect(try store.sessions(ofUser: "a", now: Fixture.t0, limit: 10) == [])
        #expect(try !store.delete(id: second.id))
        // The same id made again (after its delete) is listed under its new user only.
        try store.create(Self.relabel(second, user: "b"), maxSessions: 10)
        #expect(try store.sessions(ofUser: "a", now: Fixture.t0, limit: 10) == [])
        #expect(try store.sessions(ofUser: "b", now: Fixture.t0, limit: 10) == [second.id])
    }

    @Test(arguments: StoreKind.allCases)
    func expiredSessionsAreNotListedAndExpiryRemovesThem(kind: StoreKind) throws {
        let made = try kind.make(configuration: StoreConfiguration(ttlMillis: 1_000))
        defer { withExtendedLifetime(made) {} }
        let store = made.store
        let idle = Self.session("1", user: "a"), used = Self.session("2", user: "a")
        try store.create(idle, maxSessions: 10)
        try store.create(used, maxSessions: 10)
        try store.touch(id: used.id, now: Fixture.t0 + 900)

        // The rule of `load`: expired once `lastUsed` is older than the TTL at `now`.
        #expect(try store.sessions(ofUser: "a", now: Fixture.t0 + 1_000, limit: 10) == [idle.id, used.id])
        #expect(try store.sessions(ofUser: "a", now: Fixture.t0 + 1_001, limit: 10) == [used.id])
        #expect(try store.load(id: idle.id, now: Fixture.t0 + 1_001) == nil)
        #expect(try store.expire(now: Fixture.t0 + 1_001) == 1)
        #expect(try store.sessions(ofUser: "a", now: Fixture.t0 + 1_001, limit: 10) == [used.id])
        // Listed at an earlier `now` no more either: the expiry deleted it.
        #expect(try store.sessions(ofUser: "a", now: Fixture.t0, limit: 10) == [used.id])
        #expect(try store.expire(now: Fixture.t0 + 1_901) == 1)
        #expect(try store.sessions(ofUser: "a", now: Fixture.t0, limit: 10) == [])
    }

    /// The store never interprets a user: an empty one, one with braces (a Redis hash tag's
    /// delimiters), spaces, a newline and non-ASCII letters are each a user of their own.
    @Test(arguments: StoreKind.allCases)
    func anyStringIsAUserOfItsOwn(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }
        let store = made.store
        let users = ["", "{x}", "{x}y", "}{", "a b\nc", "ünï:cödé", "x"]
        var ids: [String: String] = [:]
        for user in users {
            let session = Self.session("u", user: user)
            try store.create(session, maxSessions: 20)
            ids[user] = session.id
            #expect(try store.load(id: session.id, now: Fixture.t0)?.user == user)
        }
        for user in users {
            #expect(try store.sessions(ofUser: user, now: Fixture.t0, limit: 10) == [ids[user]!], "user \(user.debugDescription)")
        }
        // An empty user is one: a save to nil takes the session off its list.
        let empty = try #require(try store.load(id: ids[""]!, now: Fixture.t0))
        try store.save(Self.relabel(Fixture.next(empty), user: nil), expectedRevision: 1, idempotency: nil)
        #expect(try store.sessions(ofUser: "", now: Fixture.t0, limit: 10) == [])
        #expect(try store.load(id: empty.id, now: Fixture.t0)?.user == nil)
    }

    static func relabel(_ session: StoredSession, user: String?) -> StoredSession {
        var session = session
        session.user = user
        return session
    }
}

/// The SQLite store's paths for the user: the row cache and deferred statements, the direct
/// statements of a store opened `shared`, a loop's open group, and the upgrade of a version-4 file.
@Suite("Sessions by user in SQLite")
struct SQLiteUserSessionsTests {
    @Test(arguments: [false, true])
    func theUserGoesThroughTheRowCacheAndTheDirectStatements(shared: Bool) throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/users.sqlite"
        let store = try SQLiteStore(path: path, shared: shared)
        var session = UserSessionsTests.session("s", user: "a")
        try store.create(session, maxSessions: 10)
        #expect(store.cachedRows == (shared ? 0 : 1))
        for user in ["b", nil, "a", "a"] as [String?] {
            let next = UserSessionsTests.relabel(Fixture.next(session), user: user)
            try store.save(next, expectedRevision: session.revision, idempotency: nil)
            session = next
            #expect(try store.sessions(ofUser: "a", now: Fixture.t0, limit: 10) == (user == "a" ? [session.id] : []))
            #expect(try store.sessions(ofUser: "b", now: Fixture.t0, limit: 10) == (user == "b" ? [session.id] : []))
            // The file agrees with the cache: a store opened afresh reads the same.
            #expect(try SQLiteStore(path: path, shared: true).load(id: session.id, now: Fixture.t0) == session)
        }
        // With an idempotency record the save runs under the writer lock, not deferred.
        let recorded = UserSessionsTests.relabel(Fixture.next(session), user: "b")
        try store.save(recorded, expectedRevision: session.revision, idempotency: Fixture.record(session.id))
        #expect(try store.sessions(ofUser: "b", now: Fixture.t0, limit: 10) == [session.id])
        #expect(try SQLiteStore(path: path, shared: true).load(id: session.id, now: Fixture.t0) == recorded)
    }

    /// Writes a loop leaves in the queue or the open group are listed (the read goes through the
    /// writing connection), and committed at the round's end.
    @Test func aLoopsUncommittedWritesAreListed() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/users.sqlite"
        let store = try SQLiteStore(path: path)
        let kept = UserSessionsTests.session("k", user: "a")
        try store.create(kept, maxSessions: 10)
        let loop = ManualLoop()
        let fresh = UserSessionsTests.session("f", user: "a")
        let created = Answer<Void>(), saved = Answer<Void>()
        store.create(fresh, maxSessions: 10, now: Fixture.t0, journal: nil, on: loop, created.done)
        let moved = UserSessionsTests.relabel(Fixture.next(kept), user: "b")
        store.save(moved, expectedRevision: 1, idempotency: nil, journal: nil, on: loop, saved.done)
        #expect(store.queuedStatements == 2)
        #expect(try store.sessions(ofUser: "a", now: Fixture.t0, limit: 10) == [fresh.id])
        #expect(try store.sessions(ofUser: "b", now: Fixture.t0, limit: 10) == [kept.id])
        loop.endRound()
        try created.value()
        try saved.value()
        let outside = try SQLiteStore(path: path, shared: true)
        #expect(try outside.sessions(ofUser: "a", now: Fixture.t0, limit: 10) == [fresh.id])
        #expect(try outside.sessions(ofUser: "b", now: Fixture.t0, limit: 10) == [kept.id])
    }

    /// A file made by a server of schema version 4 (its DDL as that server ran it) opens and is
    /// upgraded in place: its sessions keep everything and have no user, and new ones do.
    @Test func aVersion4FileIsUpgradedInPlace() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/sessions.sqlite"
        let old = Fixture.session()
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute(
                """
                PRAGMA journal_mode = WAL;
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY NOT NULL,
                    token_hash BLOB NOT NULL,
                    revision INTEGER NOT NULL,
                    state BLOB NOT NULL,
                    last_used INTEGER NOT NULL,
                    journal BLOB
                );
                CREATE INDEX sessions_by_last_used ON sessions (last_used);
                CREATE TABLE idempotency (
                    session_id TEXT NOT NULL,
                    key TEXT NOT NULL,
                    fingerprint BLOB NOT NULL,
                    status INTEGER NOT NULL,
                    headers BLOB NOT NULL,
                    body BLOB NOT NULL,
                    created_at INTEGER NOT NULL,
                    PRIMARY KEY (session_id, key)
                );
                CREATE INDEX idempotency_by_created_at ON idempotency (created_at);
                CREATE TABLE counters (
                    name TEXT PRIMARY KEY NOT NULL,
                    value INTEGER NOT NULL
                ) WITHOUT ROWID;
                INSERT INTO counters (name, value) VALUES ('sessions', 0);
                CREATE TRIGGER sessions_after_insert AFTER INSERT ON sessions BEGIN
                    UPDATE counters SET value = value + 1 WHERE name = 'sessions';
                END;
                CREATE TRIGGER sessions_after_delete AFTER DELETE ON sessions BEGIN
                    UPDATE counters SET value = value - 1 WHERE name = 'sessions';
                    DELETE FROM idempotency WHERE session_id = old.id;
                END;
                PRAGMA user_version = 4;
                INSERT INTO sessions (id, token_hash, revision, state, last_used)
                    VALUES ('\(old.id)', x'\(old.tokenHash.map { String(format: "%02x", $0) }.joined())', 1,
                        x'\(old.state.map { String(format: "%02x", $0) }.joined())', \(Fixture.t0));
                INSERT INTO sessions (id, token_hash, revision, state, last_used) VALUES ('other', x'00', 3, x'00', \(Fixture.t0));
                """)
        }
        let store = try SQLiteStore(path: path)
        #expect(try store.count(now: Fixture.t0) == 2)
        let loaded = try #require(try store.load(id: old.id, now: Fixture.t0))
        #expect(loaded == old)
        #expect(loaded.user == nil)
        #expect(try store.load(id: "other", now: Fixture.t0)?.user == nil)
        do {
            let connection = try SQLiteConnection(path: path)
            #expect(try connection.queryInt("PRAGMA user_version") == SQLiteSchema.currentVersion)
            #expect(try connection.queryInt("SELECT count(*) FROM sessions WHERE user IS NULL") == 2)
            #expect(try connection.queryInt("SELECT count(*) FROM sqlite_master WHERE name = 'sessions_by_user'") == 1)
        }
        // The old session takes a user with its next save; a new one is created with one.
        let labelled = UserSessionsTests.relabel(Fixture.next(old), user: "a")
        try store.save(labelled, expectedRevision: 1, idempotency: nil)
        let fresh = UserSessionsTests.session("n", user: "a")
        try store.create(fresh, maxSessions: 10)
        #expect(try store.sessions(ofUser: "a", now: Fixture.t0, limit: 10) == [old.id, fresh.id].sorted())
        // Opening it again finds the current version: nothing more to do.
        let reopened = try SQLiteStore(path: path)
        #expect(try reopened.load(id: old.id, now: Fixture.t0) == labelled)
        #expect(try reopened.sessions(ofUser: "a", now: Fixture.t0, limit: 10) == [old.id, fresh.id].sorted())
    }
}

/// The Redis layout of a user's sessions: one set per user, exact on a single Redis; in a cluster,
/// ids left in a set by a write elsewhere are checked against their sessions and removed.
@Suite("Sessions by user in Redis")
struct RedisUserSessionsTests {
    @Test func aSingleRedisKeepsEachUsersSetExact() throws {
        let server = try RedisServer.shared.get()
        let database = RedisServer.freshDatabase()
        let store = try RedisStore(url: server.url(database: database), configuration: StoreConfiguration())
        defer { store.close() }
        let session = UserSessionsTests.session("s", user: "alice")
        try store.create(session, maxSessions: 10)
        #expect(try server.cli(database: database, "SMEMBERS", "wf:u:{alice}") == session.id)
        #expect(try server.cli(database: database, "HGET", "wf:s:{\(session.id)}", "user") == "alice")
        try store.save(UserSessionsTests.relabel(Fixture.next(session), user: "bob"), expectedRevision: 1, idempotency: nil)
        #expect(try server.cli(database: database, "EXISTS", "wf:u:{alice}") == "0")
        #expect(try server.cli(database: database, "SMEMBERS", "wf:u:{bob}") == session.id)
        try store.save(UserSessionsTests.relabel(Fixture.next(Fixture.next(session)), user: nil), expectedRevision: 2, idempotency: nil)
        #expect(try server.cli(database: database, "EXISTS", "wf:u:{bob}") == "0")
        #expect(try server.cli(database: database, "HEXISTS", "wf:s:{\(session.id)}", "user") == "0")
        let other = UserSessionsTests.session("o", user: "carol")
        try store.create(other, maxSessions: 10)
        #expect(try store.delete(id: other.id))
        #expect(try server.cli(database: database, "EXISTS", "wf:u:{carol}") == "0")
        // An id left behind by a hash Redis expired by itself is dropped by the listing.
        _ = try server.cli(database: database, "SADD", "wf:u:{dave}", "gone")
        #expect(try store.sessions(ofUser: "dave", now: Fixture.t0, limit: 10) == [])
        #expect(try server.cli(database: database, "EXISTS", "wf:u:{dave}") == "0")
    }

    @Test func aClusterListingDropsIDsWhoseSessionMovedOnOrIsGone() throws {
        let cluster = try RedisCluster.shared.get()
        let prefix = "t-\(UUID().uuidString):"
        let store = try RedisStore(url: cluster.url, configuration: StoreConfiguration(), keyPrefix: prefix)
        defer { store.close() }
        let setKey = prefix + "u:{alice}"
        func members() throws -> [String] {
            let node = try clusterNode(for: setKey, in: cluster)
            let output = try RedisCluster.cli(["-p", String(node.port), "SMEMBERS", setKey]).output
            return output.split(separator: "\n").map(String.init).sorted()
        }
        let moving = UserSessionsTests.session("m", user: "alice"), staying = UserSessionsTests.session("s", user: "alice")
        try store.create(moving, maxSessions: 10)
        try store.create(staying, maxSessions: 10)
        #expect(try members() == [moving.id, staying.id])
        // The save leaves the id in alice's set (in another slot); the listing removes it.
        try store.save(UserSessionsTests.relabel(Fixture.next(moving), user: "bob"), expectedRevision: 1, idempotency: nil)
        #expect(try members() == [moving.id, staying.id])
        #expect(try store.sessions(ofUser: "alice", now: Fixture.t0, limit: 10) == [staying.id])
        #expect(try members() == [staying.id])
        #expect(try store.sessions(ofUser: "bob", now: Fixture.t0, limit: 10) == [moving.id])
        // A delete removes the id from its user's set after its script.
        #expect(try store.delete(id: staying.id))
        #expect(try members() == [])
        // An id whose session is gone (Redis expired it, say) is dropped by the listing.
        let node = try clusterNode(for: setKey, in: cluster)
        _ = try RedisCluster.cli(["-p", String(node.port), "SADD", setKey, "gone"])
        #expect(try members() == ["gone"])
        #expect(try store.sessions(ofUser: "alice", now: Fixture.t0, limit: 10) == [])
        #expect(try members() == [])
    }

    /// An expiry pass removes each expired session from its user's set (a cluster: after the
    /// script, which answers the users), without waiting for a listing.
    @Test(arguments: [false, true])
    func expiryRemovesTheIDsFromTheUsersSets(cluster clustered: Bool) throws {
        let configuration = StoreConfiguration(ttlMillis: 1_000)
        let prefix = "t-\(UUID().uuidString):"
        let store: RedisStore
        let members: (String) throws -> String
        if clustered {
            let cluster = try RedisCluster.shared.get()
            store = try RedisStore(url: cluster.url, configuration: configuration, keyPrefix: prefix)
            members = { key in
                let node = try clusterNode(for: key, in: cluster)
                return try RedisCluster.cli(["-p", String(node.port), "SCARD", key]).output
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
        } else {
            let server = try RedisServer.shared.get()
            let database = RedisServer.freshDatabase()
            store = try RedisStore(url: server.url(database: database), configuration: configuration, keyPrefix: prefix)
            members = { key in try server.cli(database: database, "SCARD", key) }
        }
        defer { store.close() }
        let idle = UserSessionsTests.session("i", user: "alice"), used = UserSessionsTests.session("u", user: "alice")
        let bobs = UserSessionsTests.session("b", user: "bob")
        for session in [idle, used, bobs] { try store.create(session, maxSessions: 10) }
        try store.touch(id: used.id, now: Fixture.t0 + 900)
        #expect(try members(prefix + "u:{alice}") == "2")
        #expect(try store.expire(now: Fixture.t0 + 1_001) == 2)
        #expect(try members(prefix + "u:{alice}") == "1")
        #expect(try members(prefix + "u:{bob}") == "0")
        #expect(try store.sessions(ofUser: "alice", now: Fixture.t0 + 1_001, limit: 10) == [used.id])
    }

    /// The master serving `key`'s slot (the others answer `MOVED`).
    private func clusterNode(for key: String, in cluster: RedisCluster) throws -> RedisServer {
        for node in cluster.nodes {
            let answer = try RedisCluster.cli(["-p", String(node.port), "EXISTS", key])
            if answer.status == 0, !answer.output.contains("MOVED") { return node }
        }
        throw RedisServer.Failure(description: "no node serves \(key)")
    }
}
