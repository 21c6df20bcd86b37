import Glibc
import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// Serving sessions saved by other versions of the app, and clients of older versions.
///
/// A session is upgraded when it is loaded: a state saved by this version is served as it is (its
/// first bytes carry the version, so telling costs a comparison, not a decoding); any other is
/// migrated, or rebuilt when no migration covers it, and saved at once, so the store, every
/// server and every client agree on what each revision is. A state saved by a newer version is
/// never changed: `409 version_ahead` with `Retry-After`.
extension WayfinderAPI {
    /// `authorized`, then `upgrade`: the session as this version serves it.
    func upgradedSession(
        _ id: String, key: SessionKey, _ request: HTTPRequest, allowQueryToken: Bool, on loop: (any StoreLoop)?,
        _ then: @escaping Then<StoredSession>
    ) {
        authorized(id, key: key, request, allowQueryToken: allowQueryToken, on: loop) { [self] result in
            switch result {
            case .success(let session): upgrade(session, key, on: loop) { then($0.map(\.session)) }
            case .failure(let error): then(.failure(error))
            }
        }
    }

    /// `load`, then `upgrade`: the session as this version serves it; nil if it is gone.
    func loadUpgraded(_ id: String, key: SessionKey, on loop: (any StoreLoop)?, _ then: @escaping Then<StoredSession?>) {
        load(id, key: key, on: loop) { [self] result in
            switch result {
            case .success(let session?): upgrade(session, key, on: loop) { then($0.map(\.session)) }
            case .success(nil): then(.success(nil))
            case .failure(let error): then(.failure(error))
            }
        }
    }

    /// Makes `session` what this version of the app serves, then gives it with the transitions
    /// that take a client showing the stored state there (none when it is served as it was).
    /// A state of this version costs a comparison and answers at once; another is migrated or
    /// rebuilt and saved (compare-and-set; a lost race reads the session again).
    func upgrade(_ session: StoredSession, _ key: SessionKey, on loop: (any StoreLoop)?, _ then: @escaping Then<Upgraded>) {
        upgrade(session, key, turn: 0, on: loop, then)
    }

    private func upgrade(_ session: StoredSession, _ key: SessionKey, turn: Int, on loop: (any StoreLoop)?, _ then: @escaping Then<Upgraded>) {
        if Self.starts(session.state, with: currentStatePrefix) { return then(.success(Upgraded(session: session, transitions: []))) }
        guard turn < 16 else { return then(.failure(APIError.unavailable("too much contention on one session"))) }
        let loaded: LoadedSession
        do {
            loaded = try loadedState(session)
        } catch {
            return then(.failure(error))
        }
        guard loaded.changed else { return then(.success(Upgraded(session: session, transitions: []))) }
        let next: StoredSession, entry: JournalEntry?
        do {
            (next, entry) = try upgraded(loaded, over: session)
        } catch {
            return then(.failure(error))
        }
        let reserved = reserve(loaded.effects, session: next.id)
        save(next, expectedRevision: session.revision, idempotency: nil, journal: entry, on: loop) { [self] result in
            if case .failure = result { release(reserved, session: next.id) }
            switch result {
            case .success:
                saved(loaded, reserved, next, key)
                then(.success(Upgraded(session: next, transitions: loaded.transitions)))
            case .failure(StoreError.conflict):
                load(session.id, key: key, on: loop) { [self] result in
                    switch result {
                    case .success(let fresh?): upgrade(fresh, key, turn: turn + 1, on: loop, then)
                    case .success(nil): then(.failure(APIError.notFound))
                    case .failure(let error): then(.failure(error))
                    }
                }
            case .failure(let error):
                then(.failure(error))
            }
        }
    }

    /// The stored state as this version of the app loads it.
    /// - Throws: `409 version_ahead` for a state saved by a newer version (counted and logged).
    func loadedState(_ session: StoredSession) throws -> LoadedSession {
        do {
            return try engine.load(session.state, session: session.id, revision: session.revision)
        } catch let ahead as SessionVersionAhead {
            metrics.sessionUpgrade(outcome: "refused")
            logger.log(.info, "session_version_ahead", [
                ("session", .string(session.id)), ("stateVersion", .string(ahead.stateVersion)), ("appVersion", .string(ahead.appVersion)),
            ])
            throw APIError.versionAhead(ahead)
        }
    }

    /// Saves a loaded state that changed over `session` (compare-and-set on its revision),
    /// blocking the calling thread: for the rare state of this version that no longer fits it,
    /// found while decoding. Nil if another writer came first.
    func save(_ loaded: LoadedSession, over session: StoredSession, _ key: SessionKey) throws -> StoredSession? {
        let (next, entry) = try upgraded(loaded, over: session)
        let started = WallClock.monotonicNanos()
        defer { metrics.storeOperation(.save, since: started) }
        let reserved = reserve(loaded.effects, session: next.id)
        do {
            try store.save(next, expectedRevision: session.revision, idempotency: nil, journal: entry)
        } catch StoreError.conflict {
            release(reserved, session: next.id)
            return nil
        } catch {
            release(reserved, session: next.id)
            throw error
        }
        saved(loaded, reserved, next, key)
        return next
    }

    /// The stored form of a loaded state that changed, and its journal entry: a new revision is
    /// journaled as a migration (a new version stamp alone makes none: the story is the same).
    private func upgraded(_ loaded: LoadedSession, over session: StoredSession) throws -> (StoredSession, JournalEntry?) {
        var next = session
        let now = WallClock.nowMillis()
        next.revision = loaded.state.revision
        next.state = try SessionCodec.encode(loaded.state)
        next.lastUsed = max(session.lastUsed, now)
        guard loaded.state.revision > session.revision else { return (next, nil) }
        let migration: JournalAction
        switch loaded.outcome {
        case .current: migration = .migration(from: engine.app.version, to: engine.app.version, rebuilt: nil)
        case .migrated(let from): migration = .migration(from: from, to: engine.app.version, rebuilt: nil)
        case .rebuilt(let from, let reason, _): migration = .migration(from: from, to: engine.app.version, rebuilt: reason.rawValue)
        }
        let outcome = Outcome(state: loaded.state, transitions: loaded.transitions, changed: true)
        return (next, journalEntry([migration], outcome, stateBytes: next.state, time: now, requestID: nil))
    }

    /// Keeps a saved upgrade in the cache, counts and logs it, and hands the effects it asked for
    /// to the runner (as a resume pass would: claimed, then run; their results are later
    /// revisions, so the read or action that loaded the session waits for none).
    private func saved(_ loaded: LoadedSession, _ reserved: [EffectRequest], _ next: StoredSession, _ key: SessionKey) {
        cache.put(key, revision: next.revision, state: loaded.state)
        cache.noteKnown(key, next)
        if !reserved.isEmpty { effects.detach { self.runUnclaimed(reserved, session: next.id, reserved: true) } }
        var fields: [(String, JSONValue)] = [("session", .string(next.id)), ("revision", .int(next.revision))]
        switch loaded.outcome {
        case .current:
            break
        case .migrated(let from):
            metrics.sessionUpgrade(outcome: "migrated")
            fields += [("from", from.map(JSONValue.string) ?? .null), ("to", .string(engine.app.version))]
            logger.log(.info, "session_migrated", fields)
        case .rebuilt(let from, let reason, let detail):
            metrics.sessionUpgrade(outcome: "rebuilt", reason: reason.rawValue)
            fields += [
                ("from", from.map(JSONValue.string) ?? .null), ("to", .string(engine.app.version)), ("reason", .string(reason.rawValue)),
                ("detail", .string(detail)),
            ]
            logger.log(.warn, "session_rebuilt", fields)
        }
    }

    /// What a client that declared `declared` (its `Wayfinder-Components` header, or the
    /// `components` query parameter of an event stream) renders; nil when it renders everything,
    /// as a client that says nothing does.
    func clientComponents(_ declared: String?) -> ClientComponents? {
        // The web client names every kind, in this order: no parsing for it.
        guard let declared, !declared.isEmpty, declared != Self.everyKind else { return nil }
        let client = ClientComponents(header: declared)
        return client.rendersEverything ? nil : client
    }

    /// The header value that names every kind at its version (`ClientComponents.all`).
    static let everyKind = ClientComponents.all.description

    /// Whether `bytes` starts with `prefix`.
    static func starts(_ bytes: [UInt8], with prefix: [UInt8]) -> Bool {
        guard bytes.count >= prefix.count else { return false }
        return bytes.withUnsafeBytes { b in
            prefix.withUnsafeBytes { p in
                guard let stored = b.baseAddress, let expected = p.baseAddress else { return p.isEmpty }
                return memcmp(stored, expected, p.count) == 0
            }
        }
    }
}

/// A session as this version of the app serves it, and the transitions its upgrade made (none
/// when it was served as stored).
struct Upgraded: Sendable {
    let session: StoredSession
    let transitions: [Transition]
}
