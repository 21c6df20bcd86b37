import Synchronization
import WayfinderStore

/// A real store (memory or SQLite) that runs one given write, once, right after a chosen read:
/// another client's request landing between two steps of the request under test, on cue instead
/// of by luck. Everything else is passed through.
final class InterleavingStore: SessionStore {
    /// The read after which the write runs.
    enum Cue: Sendable, Equatable {
        /// `load` of this session id.
        case load(String)
        /// `idempotencyRecord` lookup of this key (which found nothing).
        case idempotencyLookup(String)
    }

    let base: any SessionStore
    private let armed = Mutex<(cue: Cue, write: @Sendable () -> Void)?>(nil)

    init(_ base: any SessionStore) { self.base = base }

    /// Runs `write` (on the thread of the request under test) right after the next `cue`.
    func arm(after cue: Cue, _ write: @escaping @Sendable () -> Void) {
        armed.withLock { $0 = (cue, write) }
    }

    private func fire(_ cue: Cue) {
        let write = armed.withLock { armed -> (@Sendable () -> Void)? in
            guard let current = armed, current.cue == cue else { return nil }
            armed = nil
            return current.write
        }
        write?()
    }

    var changes: ChangeFeed { base.changes }
    var idempotencyAnswersDropped: Int { base.idempotencyAnswersDropped }

    func create(_ session: StoredSession, maxSessions: Int, now: Int64, journal: JournalEntry?) throws {
        try base.create(session, maxSessions: maxSessions, now: now, journal: journal)
    }

    func load(id: String, now: Int64) throws -> StoredSession? {
        let session = try base.load(id: id, now: now)
        fire(.load(id))
        return session
    }

    func load(id: String, key: SessionKey, now: Int64) throws -> StoredSession? {
        let session = try base.load(id: id, key: key, now: now)
        fire(.load(id))
        return session
    }

    func save(_ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?, journal: JournalEntry?) throws {
        try base.save(session, expectedRevision: expectedRevision, idempotency: idempotency, journal: journal)
    }
    func journal(id: String, since: Int) throws -> [JournalEntry] { try base.journal(id: id, since: since) }

    func touch(id: String, now: Int64) throws { try base.touch(id: id, now: now) }

    func delete(id: String, expectedRevision: Int?) throws -> Bool {
        try base.delete(id: id, expectedRevision: expectedRevision)
    }

    func idempotencyRecord(sessionID: String, key: String, now: Int64) throws -> IdempotencyRecord? {
        let record = try base.idempotencyRecord(sessionID: sessionID, key: key, now: now)
        if record == nil { fire(.idempotencyLookup(key)) }
        return record
    }

    func expire(now: Int64) throws -> Int { try base.expire(now: now) }
    func count(now: Int64) throws -> Int { try base.count(now: now) }
    func ping() throws { try base.ping() }
    func deploymentSecret() throws -> [UInt8] { try base.deploymentSecret() }
    func sessionsWithPendingEffects(limit: Int) throws -> [String] { try base.sessionsWithPendingEffects(limit: limit) }
    func sessions(ofUser user: String, now: Int64, limit: Int) throws -> [String] {
        try base.sessions(ofUser: user, now: now, limit: limit)
    }
}
