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
    /// Makes `session` what this version of the app serves; returns the transitions that take a
    /// client showing the stored state there (none when it is served as it was).
    func upgrade(_ session: inout StoredSession, _ key: SessionKey) throws -> [Transition] {
        if Self.starts(session.state, with: currentStatePrefix) { return [] }
        for _ in 0..<16 {
            let loaded: LoadedSession
            do {
                loaded = try engine.load(session.state, session: session.id, revision: session.revision)
            } catch let ahead as SessionVersionAhead {
                metrics.sessionUpgrade(outcome: "refused")
                logger.log(.info, "session_version_ahead", [
                    ("session", .string(session.id)), ("stateVersion", .string(ahead.stateVersion)), ("appVersion", .string(ahead.appVersion)),
                ])
                throw APIError.versionAhead(ahead)
            }
            guard loaded.changed else { return [] }
            if let saved = try save(loaded, over: session, key) {
                session = saved
                return loaded.transitions
            }
            guard let fresh = try store.load(id: session.id, now: WallClock.nowMillis()) else { throw APIError.notFound }
            session = fresh
            if Self.starts(session.state, with: currentStatePrefix) { return [] }
        }
        throw APIError.unavailable("too much contention on one session")
    }

    /// Saves a loaded state that changed over `session` (compare-and-set on its revision), keeps
    /// it in the cache, counts and logs it; nil if another writer came first.
    func save(_ loaded: LoadedSession, over session: StoredSession, _ key: SessionKey) throws -> StoredSession? {
        var next = session
        next.revision = loaded.state.revision
        next.state = try SessionCodec.encode(loaded.state)
        next.lastUsed = max(session.lastUsed, WallClock.nowMillis())
        do {
            try metrics.timed(.save) { try store.save(next, expectedRevision: session.revision, idempotency: nil) }
        } catch StoreError.conflict {
            return nil
        }
        cache.put(key, revision: next.revision, state: loaded.state)
        var fields: [(String, JSONValue)] = [("session", .string(session.id)), ("revision", .int(next.revision))]
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
        return next
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
