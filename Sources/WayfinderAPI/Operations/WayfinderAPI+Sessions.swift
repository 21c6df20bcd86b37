import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// The session operations: create, read and delete (the mutations are in `WayfinderAPI+Mutations`).
extension WayfinderAPI {
    // MARK: Create

    func createSession(_ request: HTTPRequest) throws -> HTTPResponse {
        if let limiter = createLimiter, let wait = limiter.take(clientAddress(request), now: WallClock.monotonicNanos()) {
            throw APIError.rateLimited(retryAfter: wait)
        }
        let body = try RequestBody.read(request)
        _ = try body.object()
        let context = try body.optionalObject("context") ?? [:]
        let deepLink = try body.optionalString("deepLink")
        let now = WallClock.nowMillis()
        for _ in 0..<4 {
            let id: String, token: String
            do {
                id = try Credentials.newSessionID()
                token = try Credentials.newToken()
            } catch {
                logger.log(.error, "random_bytes_failed", [("error", .string("\(error)"))])
                throw APIError.unavailable("no random bytes for a session id: \(error)")
            }
            let (state, encoded, memo) = try launches.start(engine, session: id, context: context, deepLink: deepLink)
            try checkSize(encoded)
            let stored = StoredSession(
                id: id, tokenHash: Credentials.hash(token), revision: state.revision, state: encoded,
                lastUsed: now - unusedSessionHeadStartMillis)
            do {
                try metrics.timed(.create) { try store.create(stored, maxSessions: configuration.maxSessions, now: now) }
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

    func readSession(_ id: String, _ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        let key = SessionKey(id)
        var session = try authorized(id, key: key, request, allowQueryToken: false)
        _ = try upgrade(&session, key)
        let (condition, components) = request.headers.first("If-None-Match", "Wayfinder-Components")
        let client = clientComponents(components)
        if let condition, ETag.ifNoneMatch(condition, revision: session.revision) {
            if let wait = LongPoll.wait(request.headers["Prefer"]) {
                return longPoll(id, key: key, seen: session.revision, wait: wait, client: client, context)
            }
            return HTTPResponse(status: 304, headers: ["ETag": ETag.of(session.revision)])
        }
        let (body, revision) = try renderedBody(session, key, for: client)
        return json(200, body, ["ETag": ETag.of(revision)])
    }

    /// A long poll (`If-None-Match` with the current revision and `Prefer: wait=N`): the answer
    /// waits until the session changes (`200` with the new state: an effect's result, another
    /// client's action) or `N` seconds pass (`304`). `Preference-Applied` says it waited.
    private func longPoll(
        _ id: String, key: SessionKey, seen: Int, wait: Int, client: ClientComponents?, _ context: RequestContext
    ) -> HTTPResponse {
        .later { [self] responder in
            let once = LongPoll(responder: responder)
            let answer: @Sendable () -> Void = { [self] in
                var response: HTTPResponse
                do {
                    if var session = try store.load(id: id, key: key, now: WallClock.nowMillis()) {
                        _ = try upgrade(&session, key)
                        if session.revision == seen {
                            response = HTTPResponse(status: 304, headers: ["ETag": ETag.of(seen)])
                        } else {
                            let (body, revision) = try renderedBody(session, key, for: client)
                            response = json(200, body, ["ETag": ETag.of(revision)])
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

    /// With `If-Match`, the revision it matched is checked by the store in the same step as the
    /// delete, so a change made after this request read the session is never deleted unseen: the
    /// condition is evaluated again against the newer revision (`412` if it no longer matches).
    func deleteSession(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        var revision = try authorized(id, request, allowQueryToken: false).revision
        let condition = request.headers["If-Match"]
        for _ in 0..<16 {
            var expected: Int?
            if let condition {
                guard ETag.ifMatch(condition, revision: revision) else { throw APIError.revisionMismatch(currentRevision: revision) }
                expected = revision
            }
            do {
                guard try metrics.timed(.delete, { try store.delete(id: id, expectedRevision: expected) }) else { throw APIError.notFound }
            } catch StoreError.conflict(let current) {
                revision = current
                continue
            }
            cache.remove(SessionKey(id))
            return HTTPResponse(status: 204)
        }
        throw APIError.unavailable("too much contention on one session")
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

    /// How far in the past a new session's `lastUsed` is set, so that it expires after
    /// `unusedSessionTTLMillis` unless used again (its next request refreshes `lastUsed`: it is
    /// older than the touch interval). 0 when that TTL is not shorter than the session TTL.
    var unusedSessionHeadStartMillis: Int64 {
        max(0, configuration.sessionTTLMillis - configuration.unusedSessionTTLMillis)
    }

    /// `422 session_too_large` unless a stored form of `bytes.count` bytes is allowed.
    func checkSize(_ bytes: [UInt8]) throws(APIError) {
        guard bytes.count <= configuration.maxSessionBytes else {
            throw .sessionTooLarge(bytes: bytes.count, limit: configuration.maxSessionBytes)
        }
    }

    /// The client's address for the create limit: the configured header's value (its last
    /// element) when the server runs behind a proxy that sets it, else the connection's peer.
    func clientAddress(_ request: HTTPRequest) -> String {
        if let name = configuration.clientAddressHeader, let value = request.headers[name],
            let last = value.split(separator: ",").last?.trimmingSpaces, !last.isEmpty
        {
            return last
        }
        return request.remoteAddress
    }

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
        let (bytes, memo) = renderUncached(state, key: key, startingFrom: launchMemo)
        cache.put(key, revision: state.revision, state: state, body: bytes, memo: memo, evicting: launchMemo == nil)
        return bytes
    }

    /// Renders a state without remembering it: for a revision that is not stored yet (the cache
    /// must only ever hold the state a stored revision names).
    func renderUncached(_ state: SessionState, key: SessionKey, startingFrom launchMemo: RenderMemo? = nil) -> ([UInt8], RenderMemo) {
        var memo = launchMemo ?? cache.memo(key) ?? RenderMemo()
        let bytes = engine.renderJSON(state, memo: &memo)
        return (bytes, memo)
    }
}
