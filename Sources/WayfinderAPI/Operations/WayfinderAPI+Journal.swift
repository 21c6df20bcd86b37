import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// The journal: every accepted change of a session recorded with it (in the store's same atomic
/// step), read back as its history or a replay bundle, and the rewind that puts the navigation
/// back to an earlier revision.
extension WayfinderAPI {
    /// The entry recording `outcome` (made by `actions`), or nil if the journal is off.
    func journalEntry(_ actions: [JournalAction], _ outcome: Outcome, stateBytes: [UInt8], time: Int64, requestID: String?) -> JournalEntry? {
        guard configuration.journal, !actions.isEmpty else { return nil }
        let record = JournalRecord.encode(
            revision: outcome.state.revision, time: time, requestID: requestID, actions: actions, transitions: outcome.transitions,
            state: outcome.state, stateBytes: stateBytes, redacting: secrets)
        // The state's own buffer: the memory store keeps one copy for the session and its entry.
        return JournalEntry(revision: outcome.state.revision, record: record, state: stateBytes)
    }

    /// `GET /v1/sessions/{id}/history[?since=N][&format=bundle]`: the journal's entries, oldest
    /// first, or a replay bundle of them (as a download).
    func history(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let session = try authorized(id, request, allowQueryToken: false)
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
            for entry in entries { w.raw(JournalRecord.joined(record: entry.record, state: entry.state)) }
            w.endArray()
            w.endObject()
            return json(200, w.bytes, ["ETag": ETag.of(session.revision), "Cache-Control": "no-store"])
        case "bundle":
            let bytes = ReplayBundle.encode(session: id, app: ["scheme": .string(engine.app.scheme)], entries: entries.map { JournalRecord.joined(record: $0.record, state: $0.state) })
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
    /// screen would be rewound away from it); `N` past the current revision is `422`.
    func rewind(_ id: String, _ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let cacheKey = SessionKey(id)
        var session = try authorized(id, key: cacheKey, request, allowQueryToken: false)
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
            let outcome = engine.rewind(state, to: earlier)
            do {
                return try commit(
                    outcome, status: 200, session: session, cacheKey: cacheKey, idempotencyKey: nil, fingerprint: nil,
                    memo: cache.memo(cacheKey) ?? RenderMemo(), before: state, journal: [.rewind(revision: target)], requestID: context.requestID)
            } catch StoreError.conflict(let current) {
                if ifMatch != nil { throw APIError.revisionMismatch(currentRevision: current) }
                guard let fresh = try store.load(id: id, now: WallClock.nowMillis()) else { throw APIError.notFound }
                session = fresh
            }
        }
        throw APIError.unavailable("too much contention on one session")
    }

    /// The state recorded at `revision`.
    /// - Throws: `410 revision_not_journaled` if the journal does not hold it.
    private func journaledState(_ id: String, revision: Int) throws -> SessionState {
        let entries = try store.journal(id: id, since: revision)
        guard let entry = entries.first, entry.revision == revision else {
            let oldest = try entries.first?.revision ?? store.journal(id: id, since: 0).first?.revision
            throw APIError.revisionNotJournaled(revision: revision, oldest: oldest)
        }
        do {
            return try SessionCodec.decode(entry.state, session: id)
        } catch {
            throw APIError.internalError("the journal entry of revision \(revision) cannot be read: \(error)")
        }
    }
}
