/// Group commit for event loops: a write made without blocking on a loop leaves the group open
/// and is answered at the end of the loop's round, after one commit of everything written so
/// far; a read that may have seen uncommitted rows waits for that commit too. Without a loop
/// the blocking forms run (each write commits before it returns).
extension SQLiteStore {
    /// The blocking `create`; on a loop, the group stays open and the answer comes at the end of its round.
    public func create(
        _ session: StoredSession, maxSessions: Int, now: Int64, journal: JournalEntry?, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        deferred(on: loop, done) { defers in try create(session, maxSessions: maxSessions, now: now, journal: journal, defers: defers) }
    }

    /// The blocking `save`; on a loop, the group stays open and the answer comes at the end of its round.
    public func save(
        _ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?, journal: JournalEntry?,
        on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        deferred(on: loop, done) { defers in
            try save(session, expectedRevision: expectedRevision, idempotency: idempotency, journal: journal, defers: defers)
        }
    }

    /// The blocking `touch`; on a loop, the group stays open and the answer comes at the end of its round.
    public func touch(id: String, now: Int64, on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        deferred(on: loop, done) { defers in try touch(id: id, now: now, defers: defers) }
    }

    /// The blocking `delete`; on a loop, the group stays open and the answer comes at the end of its round.
    public func delete(
        id: String, expectedRevision: Int?, on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        deferred(on: loop, done) { defers in try delete(id: id, expectedRevision: expectedRevision, defers: defers) }
    }

    /// The blocking `load`; on a loop, answered at the end of its round when it may depend on uncommitted writes.
    public func load(
        id: String, key: SessionKey, now: Int64, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<StoredSession?, any Error>) -> Void
    ) {
        read(on: loop, done) { try loadNoting(id: id, key: key, now: now) }
    }

    /// The blocking `idempotencyRecord`; on a loop, answered at the end of its round when it may depend on uncommitted writes.
    public func idempotencyRecord(
        sessionID: String, key: String, now: Int64, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<IdempotencyRecord?, any Error>) -> Void
    ) {
        read(on: loop, done) { try idempotencyRecordNoting(sessionID: sessionID, key: key, now: now) }
    }

    // MARK: Internals

    /// Runs `write` (told whether it may leave the group open); with a loop, answers at the end of
    /// its round, once what it wrote is committed.
    private func deferred<T: Sendable>(
        on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<T, any Error>) -> Void, _ write: (Bool) throws -> T
    ) {
        guard let loop else { return done(Result { try write(false) }) }
        let mark = groupFailures.load(ordering: .sequentiallyConsistent)
        let result = Result { try write(true) }
        if case .failure = result { return done(result) }  // nothing written
        afterCommit(on: loop, mark: mark, result, done)
    }

    /// Runs `read`; with a loop, if what it read may be uncommitted, answers at the end of the
    /// round, once it is committed.
    private func read<T: Sendable>(
        on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<T, any Error>) -> Void,
        _ read: () throws -> (T, uncommitted: Bool)
    ) {
        let mark = groupFailures.load(ordering: .sequentiallyConsistent)
        let result = Result { try read() }
        switch result {
        case .failure(let error):
            done(.failure(error))
        case .success(let (value, uncommitted)):
            guard let loop, uncommitted || groupFailures.load(ordering: .sequentiallyConsistent) != mark else {
                return done(.success(value))
            }
            afterCommit(on: loop, mark: mark, .success(value), done)
        }
    }

    /// At the end of the loop's round: commits what is pending and gives `result`, unless a group
    /// was rolled back since `mark` (then what `result` reports may be lost: `.unavailable`).
    /// One commit per loop and round, before the answers that wait for it: a commit for each
    /// answer would commit again whatever the other loops wrote meanwhile.
    private func afterCommit<T: Sendable>(
        on loop: any StoreLoop, mark: UInt64, _ result: Result<T, any Error>,
        _ done: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let id = ObjectIdentifier(loop)
        if roundCommits.withLock({ $0.insert(id).inserted }) {
            loop.atEndOfRound { [self] in
                _ = roundCommits.withLock { $0.remove(id) }
                commitPending()
            }
        }
        loop.atEndOfRound { [self] in
            if groupFailures.load(ordering: .sequentiallyConsistent) == mark {
                done(result)
            } else {
                done(.failure(StoreError.unavailable("sqlite: the group commit failed; its writes were rolled back")))
            }
        }
    }
}
