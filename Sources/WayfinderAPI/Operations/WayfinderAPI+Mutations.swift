import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// The four mutations (routes, back, tab, deep links): one action each, with idempotency keys,
/// `If-Match`, the session size limit and compare-and-set on the revision.
extension WayfinderAPI {
    /// Runs one action with the contract's order of checks: auth, body (415, 400), the
    /// `Idempotency-Key`'s length (400), idempotent replay, `If-Match` (412), then the action;
    /// saved with compare-and-set on the revision.
    ///
    /// Without `If-Match`, losing a race to another writer re-runs the action on the newer
    /// state (so concurrent triggers both apply, in some order); with it, the loser gets `412`.
    /// Of two requests racing with one `Idempotency-Key` only one is stored (the store refuses a
    /// taken key); the other finds its record on the next turn and replays it, or is refused.
    /// A change whose stored form would pass `maxSessionBytes` is refused and nothing is stored.
    /// The rendering of a new revision is remembered only once it is stored, so a writer that
    /// loses a race never leaves its state in the cache under the winner's revision.
    /// An action that asks for effects is answered later (``settle(_:_:)``).
    /// A session saved by another version of the app is upgraded first: the answer's transitions
    /// start with the upgrade's, and `If-Match` may name the revision before it.
    func mutate(
        _ id: String, _ request: HTTPRequest, _ context: RequestContext, action makeAction: (RequestBody) throws -> Action
    ) throws -> HTTPResponse {
        let cacheKey = SessionKey(id)
        var session = try authorized(id, key: cacheKey, request, allowQueryToken: false)
        let stored = session.revision
        var upgrade = try self.upgrade(&session, cacheKey)
        var upgradedFrom = upgrade.isEmpty ? nil : stored
        let body = try RequestBody.read(request)
        let (keyHeader, components) = request.headers.first("Idempotency-Key", "Wayfinder-Components")
        let key = try idempotencyKey(keyHeader)
        let client = clientComponents(components)
        let fingerprint = key.map { _ in
            SHA256.hash(Array("\(request.method) \(request.path)\n".utf8) + body.canonical)
        }
        let ifMatch = request.headers["If-Match"]
        for _ in 0..<16 {
            if let key, let fingerprint, let replay = try replay(id, key: key, fingerprint: fingerprint) { return replay }
            if let ifMatch, !ETag.ifMatch(ifMatch, revision: session.revision), !(upgradedFrom.map { ETag.ifMatch(ifMatch, revision: $0) } ?? false) {
                throw APIError.revisionMismatch(currentRevision: session.revision)
            }
            let action = try makeAction(body)
            let state = try decodedState(session, cacheKey)
            if state.revision != session.revision {
                // Rebuilt and saved while decoding (a state of this version that no longer fits it).
                guard let fresh = try store.load(id: id, now: WallClock.nowMillis()) else { throw APIError.notFound }
                session = fresh
                continue
            }
            var memo = cache.memo(cacheKey) ?? RenderMemo()
            var reduced = try engine.reduce(state, action, memo: &memo)
            if !upgrade.isEmpty { reduced.transitions = upgrade + reduced.transitions }
            let outcome = reduced
            if !outcome.effects.isEmpty {
                let pending = PendingAction(
                    id: id, cacheKey: cacheKey, session: session, state: state, action: action, idempotencyKey: key,
                    fingerprint: fingerprint, ifMatch: ifMatch, context: context, client: client)
                return .later { responder in
                    self.effects.detach {
                        var response = await self.settle(pending, outcome)
                        self.finish(&response, context)
                        responder.respond(response)
                    }
                }
            }
            do {
                let response = try commit(
                    outcome, status: 200, session: session, cacheKey: cacheKey, idempotencyKey: key, fingerprint: fingerprint,
                    memo: memo, before: state, journal: [.action(action)], requestID: context.requestID, for: client)
                if case .trigger(let route) = action, outcome.changed {
                    metrics.routeTriggered(flow: handlingFlow(route, in: state), route: route.name)
                }
                return response
            } catch StoreError.conflict(let current) {
                if ifMatch != nil { throw APIError.revisionMismatch(currentRevision: current) }
                guard let fresh = try store.load(id: id, now: WallClock.nowMillis()) else { throw APIError.notFound }
                session = fresh
                upgrade = try self.upgrade(&session, cacheKey)
                upgradedFrom = nil
            } catch StoreError.idempotencyKeyTaken {
                continue  // a request with the same key was stored first: replay or refuse it
            }
        }
        throw APIError.unavailable("too much contention on one session")
    }

    /// The stored answer for an `Idempotency-Key` already used on this session, replayed; nil if
    /// the key is new. `422 idempotency_key_reused` if it was used for another request.
    func replay(_ id: String, key: String, fingerprint: [UInt8]) throws -> HTTPResponse? {
        guard let record = try metrics.timed(.idempotency, { try store.idempotencyRecord(sessionID: id, key: key, now: WallClock.nowMillis()) })
        else { return nil }
        guard record.fingerprint == fingerprint else { throw APIError.idempotencyKeyReused }
        var headers = HTTPHeaders(record.headers.map { ($0.name, $0.value) })
        headers.set("Idempotent-Replayed", "true")
        return HTTPResponse(status: record.status, headers: headers, body: record.body)
    }

    /// Stores an action's outcome (compare-and-set on `session`'s revision, with the
    /// idempotency record, and a journal entry of `journal` if the state changed and the journal
    /// is on) and gives the answer; the rendering is remembered once it is stored (for a client
    /// that renders everything: another's is rendered apart and not remembered).
    /// - Throws: `StoreError.conflict` or `.idempotencyKeyTaken` when another writer came first,
    ///   `422 session_too_large` past `maxSessionBytes` (nothing stored).
    func commit(
        _ outcome: Outcome, status: Int, session: StoredSession, cacheKey: SessionKey, idempotencyKey key: String?,
        fingerprint: [UInt8]?, memo: RenderMemo, before: SessionState, journal: [JournalAction], requestID: String?,
        for client: ClientComponents? = nil
    ) throws -> HTTPResponse {
        let headers: HTTPHeaders = ["Content-Type": "application/json", "ETag": ETag.of(outcome.state.revision)]
        guard outcome.changed || key != nil else {
            let (bytes, rendered, renderedMemo) = actionBody(outcome, memo: memo, for: client)
            cache.put(cacheKey, revision: outcome.state.revision, state: outcome.state, body: rendered, memo: renderedMemo)
            return HTTPResponse(status: status, headers: headers, body: bytes)
        }
        var next = session
        next.revision = outcome.state.revision
        let now = WallClock.nowMillis()
        // Like reads, writes move `lastUsed` at most every touch interval: a store can then
        // leave its expiry index alone on most saves.
        if now - session.lastUsed > touchIntervalMillis { next.lastUsed = now }
        var entry: JournalEntry?
        if outcome.changed {
            var codecMemo = cache.storedMemo(cacheKey) ?? StateCodec.Memo()
            next.state = try SessionCodec.encode(outcome.state, memo: &codecMemo)
            try checkSize(next.state)
            cache.putStoredMemo(cacheKey, codecMemo)
            entry = journalEntry(journal, outcome, stateBytes: next.state, time: now, requestID: requestID)
        }
        let (bytes, rendered, renderedMemo) = actionBody(outcome, memo: memo, for: client)
        let record = key.map { key in
            IdempotencyRecord(
                sessionID: session.id, key: key, fingerprint: fingerprint ?? [], status: status,
                headers: headers.map { HeaderPair(name: $0.name, value: $0.value) }, body: bytes, createdAt: now)
        }
        try metrics.timed(.save) { try store.save(next, expectedRevision: session.revision, idempotency: record, journal: entry) }
        if outcome.changed { traffic.record(before: before, after: outcome.state, actions: journal) }
        cache.put(cacheKey, revision: outcome.state.revision, state: outcome.state, body: rendered, memo: renderedMemo)
        return HTTPResponse(status: status, headers: headers, body: bytes)
    }

    /// The request's `Idempotency-Key` (`header`; an empty one counts as none).
    /// - Throws: `400 idempotency_key_too_long` past `maxIdempotencyKeyBytes`.
    private func idempotencyKey(_ header: String?) throws(APIError) -> String? {
        guard let key = header, !key.isEmpty else { return nil }
        guard key.utf8.count <= configuration.maxIdempotencyKeyBytes else {
            throw .idempotencyKeyTooLong(limit: configuration.maxIdempotencyKeyBytes)
        }
        return key
    }

    /// `{"state": …, "transitions": […]}`, with the state's rendering and render memo (not
    /// remembered: the revision may not be stored). For a client that does not render
    /// everything, the state is rendered for it with a memo of its own, and neither is returned.
    func actionBody(
        _ outcome: Outcome, memo: RenderMemo, for client: ClientComponents? = nil
    ) -> (body: [UInt8], rendered: [UInt8]?, memo: RenderMemo?) {
        if let client {
            return (actionBody(render(outcome.state, for: client), outcome.transitions), nil, nil)
        }
        var memo = memo
        let rendered = engine.renderJSON(outcome.state, memo: &memo)
        return (actionBody(rendered, outcome.transitions), rendered, memo)
    }

    /// `{"state": rendered, "transitions": […]}`.
    private func actionBody(_ rendered: [UInt8], _ transitions: [Transition]) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("transitions"); w.beginArray(); for transition in transitions { transition.write(to: &w) }; w.endArray()
        w.endObject()
        let prefix = #"{"state":"#.utf8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(prefix.count + rendered.count + w.bytes.count)  // one buffer, no regrowth
        bytes.append(contentsOf: prefix)
        bytes.append(contentsOf: rendered)
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: w.bytes.dropFirst())
        return bytes
    }

    /// The flow of the coordinator that owns the top screen (for the routes metric).
    func handlingFlow(_ route: RouteRequest, in state: SessionState) -> String {
        guard let top = state.navigation.topScreen else { return "unknown" }
        return state.coordinators.flow(of: top.coordinator) ?? "unknown"
    }
}
