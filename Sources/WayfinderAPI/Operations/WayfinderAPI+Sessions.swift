import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// The session operations: create, read, delete, and the four mutations.
extension WayfinderAPI {
    // MARK: Create

    func createSession(_ request: HTTPRequest) throws -> HTTPResponse {
        let body = try RequestBody.read(request)
        _ = try body.object()
        let context = try body.optionalObject("context") ?? [:]
        let deepLink = try body.optionalString("deepLink")
        let now = WallClock.nowMillis()
        for _ in 0..<4 {
            let id = Credentials.newSessionID(), token = Credentials.newToken()
            let (state, encoded, memo) = try launches.start(engine, session: id, context: context, deepLink: deepLink)
            let stored = StoredSession(
                id: id, tokenHash: Credentials.hash(token), revision: state.revision, state: encoded, lastUsed: now)
            do {
                try metrics.timed(.create) { try store.create(stored, maxSessions: configuration.maxSessions) }
            } catch StoreError.duplicateID {
                continue  // 128 random bits collided: astronomically unlikely, but cheap to handle
            }
            let rendered = render(state, key: SessionKey(id), startingFrom: memo)
            var w = JSONWriter(capacity: rendered.count + 128)
            w.beginObject()
            w.key("id"); w.string(id)
            w.key("token"); w.string(token)
            w.endObject()
            var bytes = w.bytes
            bytes.removeLast()
            bytes.append(contentsOf: Array(#","state":"#.utf8))
            bytes.append(contentsOf: rendered)
            bytes.append(UInt8(ascii: "}"))
            return json(201, bytes, ["Location": "/v1/sessions/\(id)", "ETag": ETag.of(state.revision), "Cache-Control": "no-store"])
        }
        throw APIError.internalError("could not allocate a session id")
    }

    // MARK: Read and delete

    func readSession(_ id: String, _ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = SessionKey(id)
        let session = try authorized(id, key: key, request, allowQueryToken: false)
        let etag = ETag.of(session.revision)
        if let condition = request.headers["If-None-Match"], ETag.ifNoneMatch(condition, revision: session.revision) {
            if let wait = LongPoll.wait(request.headers["Prefer"]) {
                return longPoll(id, key: key, seen: session.revision, wait: wait, context)
            }
            return HTTPResponse(status: 304, headers: ["ETag": etag])
        }
        return json(200, try renderedBody(session, key), ["ETag": etag])
    }

    /// A long poll (`If-None-Match` with the current revision and `Prefer: wait=N`): the answer
    /// waits until the session changes (`200` with the new state: an effect's result, another
    /// client's action) or `N` seconds pass (`304`). `Preference-Applied` says it waited.
    private func longPoll(_ id: String, key: SessionKey, seen: Int, wait: Int, _ context: RequestContext) -> HTTPResponse {
        .later { [self] responder in
            let once = LongPoll(responder: responder)
            let answer: @Sendable () -> Void = { [self] in
                var response: HTTPResponse
                do {
                    if let session = try store.load(id: id, key: key, now: WallClock.nowMillis()) {
                        if session.revision == seen {
                            response = HTTPResponse(status: 304, headers: ["ETag": ETag.of(seen)])
                        } else {
                            response = json(200, try renderedBody(session, key), ["ETag": ETag.of(session.revision)])
                        }
                    } else {
                        response = APIError.notFound.response(path: context.path, requestID: context.requestID)
                    }
                } catch {
                    response = problem(error, path: context.path, requestID: context.requestID)
                }
                response.headers.set("Preference-Applied", "wait=\(wait)")
                finish(&response, context)
                once.respond(response)
            }
            // Subscribed before the state is read again, so no change falls in between.
            let subscription = store.changes.subscribe(id) { _ in answer() }
            once.onDone { subscription.cancel() }
            responder.onCancel { subscription.cancel() }
            if let current = try? store.load(id: id, key: key, now: WallClock.nowMillis()), current.revision != seen { return answer() }
            effects.detach {
                try? await Task.sleep(for: .seconds(wait))
                answer()
            }
        }
    }

    func deleteSession(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let session = try authorized(id, request, allowQueryToken: false)
        if let condition = request.headers["If-Match"], !ETag.ifMatch(condition, revision: session.revision) {
            throw APIError.revisionMismatch(currentRevision: session.revision)
        }
        guard try metrics.timed(.delete, { try store.delete(id: id) }) else { throw APIError.notFound }
        cache.remove(SessionKey(id))
        return HTTPResponse(status: 204)
    }

    // MARK: Mutations

    /// Runs one action with the contract's order of checks: auth, body (415, 400), idempotent
    /// replay, `If-Match` (412), then the action; saved with compare-and-set on the revision.
    ///
    /// Without `If-Match`, losing a race to another writer re-runs the action on the newer
    /// state (so concurrent triggers both apply, in some order); with it, the loser gets `412`.
    /// An action that asks for effects is answered later (``settle(_:_:)``).
    func mutate(
        _ id: String, _ request: HTTPRequest, _ context: RequestContext, action makeAction: (RequestBody) throws -> Action
    ) throws -> HTTPResponse {
        let cacheKey = SessionKey(id)
        var session = try authorized(id, key: cacheKey, request, allowQueryToken: false)
        let body = try RequestBody.read(request)
        let key = request.headers["Idempotency-Key"].flatMap { $0.isEmpty ? nil : $0 }
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
            var memo = cache.memo(cacheKey) ?? RenderMemo()
            let outcome = try engine.reduce(state, action, memo: &memo)
            if !outcome.effects.isEmpty {
                let pending = PendingAction(
                    id: id, cacheKey: cacheKey, session: session, state: state, action: action, idempotencyKey: key,
                    fingerprint: fingerprint, ifMatch: ifMatch, context: context)
                return .later { responder in
                    self.effects.detach {
                        var response = await self.settle(pending, outcome)
                        self.finish(&response, context)
                        responder.respond(response)
                    }
                }
            }
            let bytes = actionBody(outcome, cacheKey, memo: &memo)
            do {
                let response = try commit(
                    outcome, bytes, status: 200, session: session, cacheKey: cacheKey, idempotencyKey: key, fingerprint: fingerprint)
                if case .trigger(let route) = action, outcome.changed {
                    metrics.routeTriggered(flow: handlingFlow(route, in: state), route: route.name)
                }
                return response
            } catch StoreError.conflict(let current) {
                if ifMatch != nil { throw APIError.revisionMismatch(currentRevision: current) }
                guard let fresh = try store.load(id: id, now: WallClock.nowMillis()) else { throw APIError.notFound }
                session = fresh
            }
        }
        throw APIError.unavailable("too much contention on one session")
    }

    /// Saves an action's outcome (compare-and-set on `session`'s revision) with its idempotency
    /// record, and gives the answer. Throws `StoreError.conflict` when another writer came first.
    func commit(
        _ outcome: Outcome, _ bytes: [UInt8], status: Int, session: StoredSession, cacheKey: SessionKey,
        idempotencyKey key: String?, fingerprint: [UInt8]?
    ) throws -> HTTPResponse {
        let headers: HTTPHeaders = ["Content-Type": "application/json", "ETag": ETag.of(outcome.state.revision)]
        guard outcome.changed || key != nil else { return HTTPResponse(status: status, headers: headers, body: bytes) }
        var next = session
        next.revision = outcome.state.revision
        let now = WallClock.nowMillis()
        // Like reads, writes move `lastUsed` at most every touch interval: a store can then
        // leave its expiry index alone on most saves.
        if now - session.lastUsed > touchIntervalMillis { next.lastUsed = now }
        if outcome.changed {
            var codecMemo = cache.storedMemo(cacheKey) ?? StateCodec.Memo()
            next.state = try SessionCodec.encode(outcome.state, memo: &codecMemo)
            cache.putStoredMemo(cacheKey, codecMemo)
        }
        let record = key.map { key in
            IdempotencyRecord(
                sessionID: session.id, key: key, fingerprint: fingerprint ?? [], status: status,
                headers: headers.map { HeaderPair(name: $0.name, value: $0.value) }, body: bytes, createdAt: now)
        }
        try metrics.timed(.save) { try store.save(next, expectedRevision: session.revision, idempotency: record) }
        return HTTPResponse(status: status, headers: headers, body: bytes)
    }

    /// `{"state": …, "transitions": […]}`; also warms the render cache.
    func actionBody(_ outcome: Outcome, _ key: SessionKey, memo: inout RenderMemo) -> [UInt8] {
        let rendered = render(outcome.state, key: key, memo: &memo)
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
        return bytes
    }

    /// The flow of the coordinator that owns the top screen (for the routes metric).
    private func handlingFlow(_ route: RouteRequest, in state: SessionState) -> String {
        guard let top = state.navigation.topScreen else { return "unknown" }
        return state.coordinators.lookup(top.coordinator) { $0.flow } ?? "unknown"
    }

    // MARK: Shared

    /// The session named by the path if the bearer token matches: `401` without a usable token,
    /// `404` alike for an unknown id and a wrong token.
    func authorized(_ id: String, _ request: HTTPRequest, allowQueryToken: Bool) throws -> StoredSession {
        try authorized(id, key: SessionKey(id), request, allowQueryToken: allowQueryToken)
    }

    /// `authorized` with the id's table key made by the caller (`key == SessionKey(id)`).
    func authorized(_ id: String, key: SessionKey, _ request: HTTPRequest, allowQueryToken: Bool) throws -> StoredSession {
        let token = try Credentials.bearerToken(request, allowQuery: allowQueryToken)
        let now = WallClock.nowMillis()
        guard let session = try metrics.timed(.load, { try store.load(id: id, key: key, now: now) }) else { throw APIError.notFound }
        if !cache.tokenWasVerified(key, token: token, tokenHash: session.tokenHash) {
            guard Credentials.constantTimeEqual(session.tokenHash, Credentials.hash(token)) else { throw APIError.notFound }
            cache.noteVerified(key, token: token, tokenHash: session.tokenHash)
        }
        if now - session.lastUsed > touchIntervalMillis {
            do { try store.touch(id: id, now: now) } catch {
                // The read still succeeds; a failed refresh only shortens the idle window.
                logger.log(.warn, "touch_failed", [("session", .string(id)), ("error", .string("\(error)"))])
            }
        }
        return session
    }

    /// How stale `lastUsed` may get before a read or a write refreshes it: ttl/100, at least 1 s.
    var touchIntervalMillis: Int64 { max(1000, configuration.sessionTTLMillis / 100) }

    /// The decoded state of a stored session, from the cache when the revision matches.
    func decodedState(_ session: StoredSession, _ key: SessionKey) throws -> SessionState {
        if let state = cache.state(key, revision: session.revision) { return state }
        let state = try SessionCodec.decode(session.state, session: session.id)
        cache.put(key, revision: session.revision, state: state)
        return state
    }

    /// The rendered state of a stored session, from the cache when the revision matches.
    func renderedBody(_ session: StoredSession, _ key: SessionKey) throws -> [UInt8] {
        if let body = cache.body(key, revision: session.revision) { return body }
        return render(try decodedState(session, key), key: key)
    }

    /// Renders a state (reusing the screens of the session's last rendering that still hold) and
    /// remembers the state, the body and the screens for its revision.
    /// A new session (`launchMemo` given) is cached only if there is room: it is not yet in use.
    func render(_ state: SessionState, key: SessionKey, startingFrom launchMemo: RenderMemo? = nil) -> [UInt8] {
        var memo = launchMemo ?? cache.memo(key) ?? RenderMemo()
        return render(state, key: key, memo: &memo, evicting: launchMemo == nil)
    }

    /// `render` with the memo in hand (an action's, which its reduction updated).
    func render(_ state: SessionState, key: SessionKey, memo: inout RenderMemo, evicting: Bool = true) -> [UInt8] {
        let bytes = engine.renderJSON(state, memo: &memo)
        cache.put(key, revision: state.revision, state: state, body: bytes, memo: memo, evicting: evicting)
        return bytes
    }
}
