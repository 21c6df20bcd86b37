/// The operations on one session, without blocking: each sends one command (or script) to the
/// node serving the session's slot and answers when its reply arrives.
extension RedisStore {
    /// Creates the session (the cap: see "Atomicity" on `RedisStore`); publishes `.deleted` for
    /// sessions reclaimed at the cap.
    public func create(
        _ session: StoredSession, maxSessions: Int, now: Int64, journal: JournalEntry?, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        guard topology.isCluster else {
            return createChecked(session, maxSessions: maxSessions, now: now, journal: journal, on: loop, done)
        }
        clusterHasRoom(maxSessions, now: now, on: loop) { [self] result in
            switch result {
            case .success(true): createChecked(session, maxSessions: maxSessions, now: now, journal: journal, on: loop, done)
            case .success(false): done(.failure(StoreError.sessionLimit))
            case .failure(let error): done(.failure(error))
            }
        }
    }

    /// `create` once a cluster's cap is checked (a single Redis checks it in the script).
    private func createChecked(
        _ session: StoredSession, maxSessions: Int, now: Int64, journal: JournalEntry?, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        let (live, records, effects) = indexKeys(session.id)
        let keys = [sessionKey(session.id), keyIndexKey(session.id), live, records, effects]
        withClient(loop, refused: { done(.failure($0)) }) { [self] client in
            evaluate(
                .create, keys: keys, to: .session(session.id), on: client, writes: true,
                size: session.state.count + (journal.map { $0.record.count + $0.state.count + 64 } ?? 0)
            ) { command in
                command.add(session.id)
                command.add(session.revision)
                command.add(session.tokenHash)
                command.add(session.state)
                command.add(session.lastUsed)
                command.add(topology.isCluster ? -1 : maxSessions)
                command.add(now &- configuration.ttlMillis)
                command.add(batchLimit)
                command.add(effectsFlag(session.state))
                command.add(Self.userArgument(session.user))
                if let journal { addJournal(journal, to: &command) }
            } _: { [self] result in
                let created = Result {
                    let reply = try result.get()
                    guard case .array(let parts) = reply, let outcome = parts.first?.text else { throw unexpected(reply, "create") }
                    for part in parts.dropFirst() {
                        if let id = part.text { changes.publish(id, .deleted) }
                    }
                    switch outcome {
                    case "ok": noteCreated()
                    case "dup": throw StoreError.duplicateID
                    case "limit": throw StoreError.sessionLimit
                    default: throw unexpected(reply, "create")
                    }
                }
                // A cluster files the session under its user now (see "Key layout").
                guard case .success = created, topology.isCluster, let user = session.user else { return done(created) }
                fileUnderUser(session.id, user, on: client, done)
            }
        }
    }

    /// The session (`HMGET`), or nil if absent or expired at `now`.
    public func load(
        id: String, key: SessionKey, now: Int64, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<StoredSession?, any Error>) -> Void
    ) {
        var command = RedisCommand("HMGET")
        command.add(sessionKey(id))
        for field in ["rev", "token", "state", "used", "user"] { command.add(field) }
        withClient(loop, refused: { done(.failure($0)) }) { [self, command] client in
            send(command, to: .session(id), on: client) { [self] result in
                done(Result {
                    let reply = try result.get()
                    guard case .array(let fields) = reply, fields.count == 5 else { throw unexpected(reply, "load") }
                    if fields[0] == .null { return nil }
                    guard let revision = fields[0].integer, let tokenHash = fields[1].bytes, let state = fields[2].bytes,
                        let lastUsed = fields[3].integer
                    else { throw StoreError.unavailable("redis: corrupt session hash \(sessionKey(id))") }
                    if configuration.isExpired(lastUsed: Int64(lastUsed), now: now) { return nil }
                    return StoredSession(
                        id: id, tokenHash: tokenHash, revision: revision, state: state, lastUsed: Int64(lastUsed),
                        user: fields[4].bytes.map { String(decoding: $0, as: UTF8.self) })
                })
            }
        }
    }

    /// Compare-and-set of the session with its idempotency record, in one script; publishes
    /// `.saved` when the revision changed.
    public func save(
        _ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?, journal: JournalEntry?,
        on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        // A single Redis' index keys are in the script's source.
        let indexes = topology.isCluster ? indexKeys(session.id) : nil
        let keys = [sessionKey(session.id)] + (indexes.map { [$0.live, $0.records, $0.effects] } ?? [])
            + (idempotency.map { [recordKey(session.id, $0.key)] } ?? [])
        withClient(loop, refused: { done(.failure($0)) }) { [self] client in
            evaluate(
                .save, keys: keys, to: .session(session.id), on: client, writes: true,
                size: session.state.count + (idempotency.map { $0.body.count + 256 } ?? 0)
                    + (journal.map { $0.record.count + $0.state.count + 64 } ?? 0)
            ) { command in
                command.add(session.id)
                command.add(expectedRevision)
                command.add(session.revision)
                command.add(session.tokenHash)
                command.add(session.state)
                command.add(session.lastUsed)
                command.add(effectsFlag(session.state))
                command.add(Self.userArgument(session.user))
                if let journal {
                    addJournal(journal, to: &command)
                } else if idempotency != nil {
                    for _ in 0..<2 { command.add("") }  // (an empty entry: none)
                }
                if let idempotency {
                    command.add(idempotency.key)
                    command.add(RedisRecordCoding.encode(idempotency))
                    command.add(idempotency.createdAt)
                    command.add(idempotency.createdAt &- configuration.idempotencyTTLMillis)
                }
            } _: { [self] result in
                var movedUser = false
                let saved = Result {
                    let reply = try result.get()
                    guard case .array(let parts) = reply, let outcome = parts.first?.text else { throw unexpected(reply, "save") }
                    switch outcome {
                    case "ok":
                        guard parts.count == 3, let dropped = parts[2].integer else { throw unexpected(reply, "save") }
                        movedUser = parts[1].text == "user"
                        if dropped > 0 { answersDropped.add(dropped, ordering: .relaxed) }
                        if session.revision != expectedRevision { changes.publish(session.id, .saved(revision: session.revision)) }
                    case "notfound":
                        throw StoreError.notFound
                    case "keytaken":
                        throw StoreError.idempotencyKeyTaken
                    case "conflict":
                        guard parts.count == 2, let current = parts[1].integer else { throw unexpected(reply, "save") }
                        throw StoreError.conflict(currentRevision: current)
                    default:
                        throw unexpected(reply, "save")
                    }
                }
                // A cluster files the session under its new user now; the old user's set keeps the
                // id until a listing finds it has moved on (see "Key layout").
                guard case .success = saved, movedUser, topology.isCluster, let user = session.user else { return done(saved) }
                fileUnderUser(session.id, user, on: client, done)
            }
        }
    }

    /// Moves `used` forward (and the keys' Redis TTLs).
    public func touch(id: String, now: Int64, on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let keys = [sessionKey(id), keyIndexKey(id), indexKeys(id).live]
        withClient(loop, refused: { done(.failure($0)) }) { [self] client in
            evaluate(.touch, keys: keys, to: .session(id), on: client) { command in
                command.add(id)
                command.add(now)
            } _: { [self] result in
                done(Result {
                    let reply = try result.get()
                    switch reply {
                    case .integer(1): return
                    case .integer(0): throw StoreError.notFound
                    default: throw unexpected(reply, "touch")
                    }
                })
            }
        }
    }

    /// Deletes the session and its records (at `expectedRevision` only, if given); publishes `.deleted`.
    public func delete(
        id: String, expectedRevision: Int?, on loop: (any StoreLoop)?, _ done: @escaping @Sendable (Result<Bool, any Error>) -> Void
    ) {
        let (live, records, effects) = indexKeys(id)
        let keys = [sessionKey(id), keyIndexKey(id), live, records, effects]
        withClient(loop, refused: { done(.failure($0)) }) { [self] client in
            evaluate(.delete, keys: keys, to: .session(id), on: client, writes: true) { command in
                command.add(id)
                if let expectedRevision { command.add(expectedRevision) }
            } _: { [self] result in
                var user: String?
                let deleted = Result {
                    let reply = try result.get()
                    if case .array(let parts) = reply, parts.count == 2, parts[0].text == "conflict", let current = parts[1].integer {
                        throw StoreError.conflict(currentRevision: current)
                    }
                    let existed: Int
                    switch reply {
                    case .integer(let value):
                        existed = value
                    case .array(let parts) where parts.count == 2 && parts[0] == .integer(1) && parts[1].bytes != nil:
                        // A cluster: the deleted session's user, whose set is in another slot.
                        existed = 1
                        user = parts[1].bytes.map { String(decoding: $0, as: UTF8.self) }
                    default:
                        throw unexpected(reply, "delete")
                    }
                    if existed == 1 { changes.publish(id, .deleted) }
                    return existed == 1
                }
                guard let user else { return done(deleted) }
                unfileFromUsers([(id, user)], on: client) { done(deleted) }
            }
        }
    }

    /// The record stored for `key`, if its key is still listed and it is younger than the TTL.
    public func idempotencyRecord(
        sessionID: String, key: String, now: Int64, on loop: (any StoreLoop)?,
        _ done: @escaping @Sendable (Result<IdempotencyRecord?, any Error>) -> Void
    ) {
        let keys = [keyIndexKey(sessionID), recordKey(sessionID, key)]
        withClient(loop, refused: { done(.failure($0)) }) { [self] client in
            evaluate(.idempotencyRecord, keys: keys, to: .session(sessionID), on: client) { command in
                command.add(key)
            } _: { [self] result in
                done(Result {
                    let reply = try result.get()
                    switch reply {
                    case .null:
                        return nil
                    case .string(let bytes):
                        let record = try RedisRecordCoding.decode(bytes, sessionID: sessionID, key: key)
                        return configuration.isExpired(createdAt: record.createdAt, now: now) ? nil : record
                    default:
                        throw unexpected(reply, "idempotencyRecord")
                    }
                })
            }
        }
    }
}
