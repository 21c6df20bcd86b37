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
    func mutate(_ id: String, _ request: HTTPRequest, action makeAction: (RequestBody) throws -> Action) throws -> HTTPResponse {
        let cacheKey = SessionKey(id)
        var session = try authorized(id, key: cacheKey, request, allowQueryToken: false)
        let body = try RequestBody.read(request)
        let key = try idempotencyKey(request)
        let fingerprint = key.map { _ in
            SHA256.hash(Array("\(request.method) \(request.path)\n".utf8) + body.canonical)
        }
        let ifMatch = request.headers["If-Match"]
        for _ in 0..<16 {
            if let key, let fingerprint,
                let record = try metrics.timed(.idempotency, { try store.idempotencyRecord(sessionID: id, key: key, now: WallClock.nowMillis()) })
            {
                guard record.fingerprint == fingerprint else { throw APIError.idempotencyKeyReused }
                var headers = HTTPHeaders(record.headers.map { ($0.name, $0.value) })
                headers.set("Idempotent-Replayed", "true")
                return HTTPResponse(status: record.status, headers: headers, body: record.body)
            }
            if let ifMatch, !ETag.ifMatch(ifMatch, revision: session.revision) {
                throw APIError.revisionMismatch(currentRevision: session.revision)
            }
            let action = try makeAction(body)
            let state = try decodedState(session, cacheKey)
            let outcome = try engine.reduce(state, action)
            let headers: HTTPHeaders = ["Content-Type": "application/json", "ETag": ETag.of(outcome.state.revision)]
            guard outcome.changed || key != nil else {
                return HTTPResponse(status: 200, headers: headers, body: rememberedActionBody(outcome, cacheKey))
            }
            var next = session
            next.revision = outcome.state.revision
            let now = WallClock.nowMillis()
            // Like reads, writes move `lastUsed` at most every touch interval: a store can then
            // leave its expiry index alone on most saves.
            if now - session.lastUsed > touchIntervalMillis { next.lastUsed = now }
            if outcome.changed {
                var codecMemo = cache.storedMemo(cacheKey) ?? StateCodec.Memo()
                next.state = try SessionCodec.encode(outcome.state, memo: &codecMemo)
                try checkSize(next.state)
                cache.putStoredMemo(cacheKey, codecMemo)
            }
            let (bytes, rendered, memo) = actionBody(outcome, cacheKey)
            let record = key.map { key in
                IdempotencyRecord(
                    sessionID: id, key: key, fingerprint: fingerprint ?? [], status: 200,
                    headers: headers.map { HeaderPair(name: $0.name, value: $0.value) }, body: bytes, createdAt: now)
            }
            do {
                try metrics.timed(.save) { try store.save(next, expectedRevision: session.revision, idempotency: record) }
            } catch StoreError.conflict(let current) {
                if ifMatch != nil { throw APIError.revisionMismatch(currentRevision: current) }
                guard let fresh = try store.load(id: id, now: WallClock.nowMillis()) else { throw APIError.notFound }
                session = fresh
                continue
            } catch StoreError.idempotencyKeyTaken {
                continue  // a request with the same key was stored first: replay or refuse it
            }
            cache.put(cacheKey, revision: outcome.state.revision, state: outcome.state, body: rendered, memo: memo)
            if case .trigger(let route) = action, outcome.changed {
                metrics.routeTriggered(flow: handlingFlow(route, in: state), route: route.name)
            }
            return HTTPResponse(status: 200, headers: headers, body: bytes)
        }
        throw APIError.unavailable("too much contention on one session")
    }

    /// The request's `Idempotency-Key` (an empty one counts as none).
    /// - Throws: `400 idempotency_key_too_long` past `maxIdempotencyKeyBytes`.
    private func idempotencyKey(_ request: HTTPRequest) throws(APIError) -> String? {
        guard let key = request.headers["Idempotency-Key"], !key.isEmpty else { return nil }
        guard key.utf8.count <= configuration.maxIdempotencyKeyBytes else {
            throw .idempotencyKeyTooLong(limit: configuration.maxIdempotencyKeyBytes)
        }
        return key
    }

    /// `{"state": …, "transitions": […]}`, remembering the rendering (for a revision that is stored).
    private func rememberedActionBody(_ outcome: Outcome, _ key: SessionKey) -> [UInt8] {
        let (bytes, rendered, memo) = actionBody(outcome, key)
        cache.put(key, revision: outcome.state.revision, state: outcome.state, body: rendered, memo: memo)
        return bytes
    }

    /// `{"state": …, "transitions": […]}`, with the state's rendering and render memo.
    private func actionBody(_ outcome: Outcome, _ key: SessionKey) -> (body: [UInt8], rendered: [UInt8], memo: RenderMemo) {
        let (rendered, memo) = renderUncached(outcome.state, key: key)
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("transitions"); w.beginArray(); for transition in outcome.transitions { transition.write(to: &w) }; w.endArray()
        w.endObject()
        let prefix = #"{"state":"#.utf8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(prefix.count + rendered.count + w.bytes.count)  // one buffer, no regrowth
        bytes.append(contentsOf: prefix)
        bytes.append(contentsOf: rendered)
        bytes.append(UInt8(ascii: ","))
        bytes.append(contentsOf: w.bytes.dropFirst())
        return (bytes, rendered, memo)
    }

    /// The flow of the coordinator that owns the top screen (for the routes metric).
    private func handlingFlow(_ route: Route, in state: SessionState) -> String {
        guard let top = state.navigation.topScreen else { return "unknown" }
        return state.coordinators.lookup(top.coordinator) { $0.flow } ?? "unknown"
    }
}
