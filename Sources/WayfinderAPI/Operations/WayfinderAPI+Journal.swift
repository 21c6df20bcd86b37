import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// The journal: every accepted change of a session recorded with it (in the store's same atomic
/// step), read back as its history or a replay bundle, and the rewind that puts the navigation
/// back to an earlier revision.
extension WayfinderAPI {
    /// The entry recording `outcome` (made by `actions`), or nil if the journal is off. It keeps
    /// the state only where ``JournalRecord/keepsState(revision:actions:state:secrets:interval:)`` says so.
    func journalEntry(_ actions: [JournalAction], _ outcome: Outcome, stateBytes: [UInt8], time: Int64, requestID: String?) -> JournalEntry? {
        guard configuration.journal, !actions.isEmpty else { return nil }
        let revision = outcome.state.revision
        // The state's own bytes unless it holds secret context members: then a copy without them.
        let shown = secrets.digestBytes(outcome.state, stateBytes: stateBytes)
        let record = JournalRecord.encode(
            revision: revision, time: time, requestID: requestID, actions: actions,
            transitions: outcome.transitions, state: outcome.state,
            stateBytes: shown, redacting: secrets)
        // The state's own buffer: the memory store keeps one copy for the session and its entry.
        let keeps = JournalRecord.keepsState(
            revision: revision, actions: actions, state: outcome.state, secrets: secrets, interval: configuration.journalStateInterval)
        let kept = keeps ? shown : []
        return JournalEntry(revision: revision, record: record, state: kept)
    }

    /// `GET /v1/sessions/{id}/history[?since=N][&format=bundle]`: the journal's entries, oldest
    /// first, or a replay bundle of them (as a download). The session's token, or the operator key.
    func history(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let session = try sessionForOwnerOrOperator(id, request)
        var since = 0
        if let text = QueryString.value("since", in: request.query) {
            guard let value = Int(text), value >= 0 else { throw APIError.invalid("since", "must be a revision (an integer of at least 0)") }
            since = value
        }
        let entries = try store.journal(id: id, since: since)
        switch QueryString.value("format", in: request.query) ?? "json" {
        case "json":
            var w = JSONWriter(capacity: entries.reduce(128) { $0 + $1.size + 16 })
            w.beginObject()
            w.key("revision"); w.int(session.revision)
            w.key("entries"); w.beginArray()
            for entry in entries { w.raw(try Self.json(entry)) }
            w.endArray()
            w.endObject()
            return json(200, w.bytes, ["ETag": ETag.of(session.revision), "Cache-Control": "no-store"])
        case "bundle":
            let bytes = ReplayBundle.encode(session: id, app: ["scheme": .string(engine.app.scheme), "version": .string(engine.app.version)], entries: try bundleEntries(id, entries))
            return json(200, bytes, [
                "Content-Disposition": "attachment; filename=\"wayfinder-\(id.prefix(8))-r\(session.revision).json\"",
                "Cache-Control": "no-store",
            ])
        case let other:
            throw APIError.invalid("format", "must be json or bundle, not '\(other)'")
        }
    }

    /// `POST /v1/sessions/{id}/rewind` with `{"revision": N}`: the navigation as it was at
    /// revision `N` (the model as it is now), stored as a new revision and journaled as a rewind.
    ///
    /// `If-Match` as for the other changes (`412` if stale); `410 revision_not_journaled` if the
    /// journal no longer holds `N`; `409 effects_pending` while an effect's result is awaited (its
    /// screen would be rewound away from it); `N` past the current revision is `422`; `409
    /// rewind_across_sign_in` if the session was signed in at `N` otherwise than now (its screens
    /// could show what only the user then signed in may see).
    func rewind(_ id: String, _ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let cacheKey = SessionKey(id)
        var session = try waiting { authorized(id, key: cacheKey, request, allowQueryToken: false, on: nil, $0) }
        let body = try RequestBody.read(request)
        guard let target = try body.object()["revision"]?.intValue, target >= 1 else {
            throw APIError.invalid("revision", "is required: the revision to rewind to (an integer of at least 1)")
        }
        let ifMatch = request.headers["If-Match"]
        for _ in 0..<16 {
            if let ifMatch, !ETag.ifMatch(ifMatch, revision: session.revision) {
                throw APIError.revisionMismatch(currentRevision: session.revision)
            }
            guard target <= session.revision else {
                throw APIError.invalid("revision", "must be at most the session's revision, \(session.revision)")
            }
            let state = try decodedState(session, cacheKey)
            guard state.effects.isEmpty else { throw APIError.effectsPending }
            let earlier = try journaledState(id, revision: target)
            guard engine.app.mayRewind(state, to: earlier) else { throw APIError.rewindAcrossSignIn(revision: target) }
            // No effect to hand to the runner: a rewind runs no flow (`Engine.rewind` only
            // restores the navigation), so it asks for none, and none is pending (checked above).
            let outcome = engine.rewind(state, to: earlier)
            do {
                let current = session
                return try waiting { done in
                    commit(
                        outcome, status: 200, session: current, cacheKey: cacheKey, idempotencyKey: nil, fingerprint: nil,
                        memo: cache.memo(cacheKey) ?? RenderMemo(), before: state, journal: [.rewind(revision: target)],
                        requestID: context.requestID, shape: context.shape, on: nil, done)
                }
            } catch StoreError.conflict(let current) {
                if ifMatch != nil { throw APIError.revisionMismatch(currentRevision: current) }
                guard let fresh = try store.load(id: id, now: WallClock.nowMillis()) else { throw APIError.notFound }
                session = fresh
            }
        }
        throw APIError.unavailable("too much contention on one session")
    }

    /// The state at `revision`: kept by its entry, or rebuilt from the nearest kept state before it
    /// by running the entries in between through the engine (checked by their digests).
    /// Only revisions since the session's last migration count: earlier ones were made by another
    /// version of the app, whose navigation this one may not have.
    /// - Throws: `410 revision_not_journaled` if the journal does not hold it, or holds no kept
    ///   state before it, or the app computes it differently now.
    private func journaledState(_ id: String, revision: Int) throws -> SessionState {
        var entries = try store.journal(id: id, since: 0)
        if let migration = entries.lastIndex(where: { Self.isMigration($0) }) { entries.removeFirst(migration) }
        let oldest = entries.first(where: { !$0.state.isEmpty })?.revision
        guard let at = entries.firstIndex(where: { $0.revision == revision }),
            let base = entries[...at].lastIndex(where: { !$0.state.isEmpty })
        else { throw APIError.revisionNotJournaled(revision: revision, oldest: oldest) }
        let report = try replay(id, entries[base...at])
        guard report.isClean, let state = report.states[revision] else {
            throw APIError.revisionNotJournaled(revision: revision, oldest: oldest)
        }
        return state
    }

    /// Whether `entry` records a migration (an unreadable one counts as one: nothing before it is
    /// trusted).
    private static func isMigration(_ entry: JournalEntry) -> Bool {
        guard let record = try? JournalRecord(bytes: entry.record) else { return true }
        return record.actions.contains { if case .migration = $0 { true } else { false } }
    }

    /// A bundle's entries: from the oldest that keeps its state, each with its state (rebuilt
    /// where the journal did not keep it and the replay agrees with its digest).
    private func bundleEntries(_ id: String, _ entries: [JournalEntry]) throws -> [[UInt8]] {
        guard let base = entries.firstIndex(where: { !$0.state.isEmpty }) else { return [] }
        let kept = entries[base...]
        let states = try replay(id, kept).states
        return try kept.map { entry in
            if entry.state.isEmpty, let state = states[entry.revision] {
                return try Self.json(JournalEntry(revision: entry.revision, record: entry.record, state: StateCodec.encode(secrets.redact(state))))
            }
            return try Self.json(entry)
        }
    }

    /// `entry` as the JSON the history endpoint and bundles carry.
    /// - Throws: `500` if the store holds an entry that does not read.
    private static func json(_ entry: JournalEntry) throws -> [UInt8] {
        do { return try JournalRecord.joined(record: entry.record, state: entry.state) } catch {
            throw APIError.internalError("the session's journal cannot be read: \(error)")
        }
    }

    /// `entries` (the first keeping its state) replayed through this server's engine.
    private func replay(_ id: String, _ entries: ArraySlice<JournalEntry>) throws -> Replay.Report {
        do {
            let records = try entries.map { entry in
                var record = try JournalRecord(bytes: entry.record)  // read as it is stored, not through its JSON
                if !entry.state.isEmpty { record.state = try JSONParser.parse(entry.state) }
                return record
            }
            return Replay(engine).run(ReplayBundle(session: id, app: [:], entries: records))
        } catch {
            throw APIError.internalError("the session's journal cannot be read: \(error)")
        }
    }
}
