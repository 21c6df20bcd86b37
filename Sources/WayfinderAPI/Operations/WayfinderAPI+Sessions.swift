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
            let rendered = clientComponents(request.headers["Wayfinder-Components"]).map { render(state, for: $0) }
                ?? render(state, key: SessionKey(id), startingFrom: memo)
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

    func readSession(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let key = SessionKey(id)
        var session = try authorized(id, key: key, request, allowQueryToken: false)
        _ = try upgrade(&session, key)
        let (condition, components) = request.headers.first("If-None-Match", "Wayfinder-Components")
        if let condition, ETag.ifNoneMatch(condition, revision: session.revision) {
            return HTTPResponse(status: 304, headers: ["ETag": ETag.of(session.revision)])
        }
        let (body, revision) = try renderedBody(session, key, for: clientComponents(components))
        return json(200, body, ["ETag": ETag.of(revision)])
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
    /// A session saved by another version of the app is upgraded first: the answer's transitions
    /// start with the upgrade's, and `If-Match` may name the revision before it.
    func mutate(_ id: String, _ request: HTTPRequest, action makeAction: (RequestBody) throws -> Action) throws -> HTTPResponse {
        let cacheKey = SessionKey(id)
        var session = try authorized(id, key: cacheKey, request, allowQueryToken: false)
        let stored = session.revision
        var upgrade = try self.upgrade(&session, cacheKey)
        var upgradedFrom = upgrade.isEmpty ? nil : stored
        let body = try RequestBody.read(request)
        let (idempotencyKey, components) = request.headers.first("Idempotency-Key", "Wayfinder-Components")
        let key = idempotencyKey.flatMap { $0.isEmpty ? nil : $0 }
        let client = clientComponents(components)
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
            var outcome = try engine.reduce(state, action, memo: &memo)
            if !upgrade.isEmpty { outcome.transitions = upgrade + outcome.transitions }
            let bytes = actionBody(outcome, cacheKey, memo: &memo, for: client)
            let headers: HTTPHeaders = ["Content-Type": "application/json", "ETag": ETag.of(outcome.state.revision)]
            guard outcome.changed || key != nil else { return HTTPResponse(status: 200, headers: headers, body: bytes) }
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
                    sessionID: id, key: key, fingerprint: fingerprint ?? [], status: 200,
                    headers: headers.map { HeaderPair(name: $0.name, value: $0.value) }, body: bytes, createdAt: now)
            }
            do {
                try metrics.timed(.save) { try store.save(next, expectedRevision: session.revision, idempotency: record) }
            } catch StoreError.conflict(let current) {
                if ifMatch != nil { throw APIError.revisionMismatch(currentRevision: current) }
                guard let fresh = try store.load(id: id, now: WallClock.nowMillis()) else { throw APIError.notFound }
                session = fresh
                upgrade = try self.upgrade(&session, cacheKey)
                upgradedFrom = nil
                continue
            }
            if case .trigger(let route) = action, outcome.changed {
                metrics.routeTriggered(flow: handlingFlow(route, in: state), route: route.name)
            }
            return HTTPResponse(status: 200, headers: headers, body: bytes)
        }
        throw APIError.unavailable("too much contention on one session")
    }

    /// `{"state": …, "transitions": […]}`; also warms the render cache (for a client that
    /// renders everything: another's state is rendered apart).
    private func actionBody(_ outcome: Outcome, _ key: SessionKey, memo: inout RenderMemo, for client: ClientComponents?) -> [UInt8] {
        let rendered = client.map { render(outcome.state, for: $0) } ?? render(outcome.state, key: key, memo: &memo)
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

    /// The decoded state of a stored session, from the cache when the revision matches. A state
    /// that does not fit this version of the app (a flow it lacks, though saved by this
    /// version) is rebuilt and saved: its revision is then the stored one plus one.
    func decodedState(_ session: StoredSession, _ key: SessionKey) throws -> SessionState {
        if let state = cache.state(key, revision: session.revision) { return state }
        let loaded: LoadedSession
        do {
            loaded = try engine.load(session.state, session: session.id, revision: session.revision)
        } catch let ahead as SessionVersionAhead {
            throw APIError.versionAhead(ahead)
        }
        if loaded.changed {
            _ = try save(loaded, over: session, key)
        } else {
            cache.put(key, revision: session.revision, state: loaded.state)
        }
        return loaded.state
    }

    /// The rendered state of a stored session and its revision, from the cache when the revision
    /// matches; rendered apart (and not cached) for a client that does not render everything.
    func renderedBody(_ session: StoredSession, _ key: SessionKey, for client: ClientComponents? = nil) throws -> (body: [UInt8], revision: Int) {
        if client == nil, let body = cache.body(key, revision: session.revision) { return (body, session.revision) }
        let state = try decodedState(session, key)
        return (client.map { render(state, for: $0) } ?? render(state, key: key), state.revision)
    }

    /// `state` for a client that does not render everything, with a memo of its own.
    func render(_ state: SessionState, for client: ClientComponents) -> [UInt8] {
        var memo = RenderMemo()
        return engine.renderJSON(state, memo: &memo, for: client)
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
