import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// The session operations: create, read and delete (the mutations are in `WayfinderAPI+Mutations`).
extension WayfinderAPI {
    // MARK: Create

    func createSession(_ request: HTTPRequest, _ context: RequestContext, on loop: (any StoreLoop)?, _ reply: @escaping Reply) throws {
        if let limiter = createLimiter, let client = clientShare(request), let wait = limiter.take(client, now: WallClock.monotonicNanos()) {
            throw APIError.rateLimited(retryAfter: wait)
        }
        let identity = try identity(of: request, purpose: .createSession)
        let body = try RequestBody.read(request)
        _ = try body.object()
        let clientContext = try body.optionalObject("context") ?? [:]
        let refused = engine.app.refusedContextMembers(clientContext)
        guard refused.isEmpty else { throw APIError.contextNotSettable(refused) }
        let launch = LaunchRequest(
            context: clientContext, deepLink: try body.optionalString("deepLink"), identity: identity,
            client: clientComponents(request.headers["Wayfinder-Components"]), request: context, time: WallClock.nowMillis())
        try createSession(launch, attempt: 0, on: loop, reply)
    }

    /// One try at a fresh id; a collision (128 random bits: astronomically unlikely, but cheap to
    /// handle) tries again, four times at most. A launch that asks for effects is answered once
    /// they are done or the effect wait is over (``settle(_:_:)``).
    private func createSession(_ launch: LaunchRequest, attempt: Int, on loop: (any StoreLoop)?, _ reply: @escaping Reply) throws {
        guard attempt < Self.maxCreateAttempts else { throw APIError.internalError("could not allocate a session id") }
        let new = try newSession(launch)
        guard new.effects.isEmpty else { return reply(.success(answerLater(launch.request) { await self.settle(new, launch) })) }
        let outcome = Outcome(state: new.state, transitions: [], changed: true)
        insert(new, outcome, stored: new.stored, journal: [new.start], launch, on: loop) { [self] result in
            guard case .failure(StoreError.duplicateID) = result else { return reply(result) }
            do {
                try createSession(launch, attempt: attempt + 1, on: loop, reply)
            } catch {
                reply(.failure(error))
            }
        }
    }

    /// Tries at a fresh session id before giving up.
    static let maxCreateAttempts = 4

    /// A new session's id, token and first state (`422` for a context or deep link the app
    /// refuses, or a state past `maxSessionBytes`: nothing is stored, no effect runs).
    private func newSession(_ launch: LaunchRequest) throws -> NewSession {
        let id: String, token: String
        do {
            id = try Credentials.newSessionID()
            token = try Credentials.newToken()
        } catch {
            logger.log(.error, "random_bytes_failed", [("error", .string("\(error)"))])
            throw APIError.unavailable("no random bytes for a session id: \(error)")
        }
        let (state, stored, memo, effects) = try launches.start(
            engine, session: id, context: launch.context, deepLink: launch.deepLink, identity: launch.identity,
            at: Timestamp(millisecondsSince1970: launch.time))
        try checkSize(stored)
        return NewSession(
            id: id, token: token, state: state, stored: stored, memo: memo, effects: effects,
            start: .start(context: state.context, deepLink: launch.deepLink, identity: launch.identity))
    }

    /// The launch's effects run for up to the effect wait, their results folded into revision 1
    /// as a route's are; the session is stored then, with the effects still running pending (they
    /// are claimed first, and their results are later revisions). `201` either way.
    func settle(_ first: NewSession, _ launch: LaunchRequest) async -> HTTPResponse {
        var wait = EffectWait(configuration.effectWait)
        var new = first
        do {
            for _ in 0..<Self.maxCreateAttempts {
                let launched = Outcome(state: new.state, transitions: [], changed: true, effects: new.effects)
                let folded = try await fold(launched, revision: 1, journal: [new.start], at: launch.time, session: new.id, &wait)
                let stored = StateCodec.encode(folded.outcome.state)
                try checkSize(stored)
                claim(folded.leftover, session: new.id)
                do {
                    let response = try await insert(new, folded.outcome, stored: stored, journal: folded.journal, launch)
                    deliverLater(wait.tasks(folded.leftover), session: new.id)
                    return response
                } catch StoreError.duplicateID {
                    // Launched again under a fresh id: the results already in are reused (by
                    // what the effects do), so no effect runs twice.
                    new = try newSession(launch)
                }
            }
            throw APIError.internalError("could not allocate a session id")
        } catch {
            return problem(error, path: launch.request.path, requestID: launch.request.requestID)
        }
    }

    /// Stores a new session in the state of `outcome` (`stored` its stored form; journaled as
    /// `journal`) and gives the `201` answer. Fails with `StoreError.duplicateID` if the id is
    /// taken, `503` when the store holds `maxSessions`.
    private func insert(
        _ new: NewSession, _ outcome: Outcome, stored: [UInt8], journal: [JournalAction], _ launch: LaunchRequest,
        on loop: (any StoreLoop)?, _ then: @escaping Then<HTTPResponse>
    ) {
        let now = WallClock.nowMillis()
        let state = outcome.state
        let session = StoredSession(
            id: new.id, tokenHash: Credentials.hash(new.token), revision: state.revision, state: stored,
            lastUsed: now - unusedSessionHeadStartMillis, user: state.identity?.subject)
        let entry = journalEntry(journal, outcome, stateBytes: stored, time: launch.time, requestID: launch.request.requestID)
        create(session, now: now, journal: entry, on: loop) { [self] result in
            then(result.map {
                traffic.record(before: nil, after: state, actions: journal)
                let response = created(
                    id: new.id, token: new.token, state: state, memo: new.memo, for: launch.client, shape: launch.request.shape)
                cache.noteKnown(SessionKey(new.id), session)
                return response
            })
        }
    }

    /// `insert` for async code.
    private func insert(
        _ new: NewSession, _ outcome: Outcome, stored: [UInt8], journal: [JournalAction], _ launch: LaunchRequest
    ) async throws -> HTTPResponse {
        try await withCheckedThrowingContinuation { continuation in
            insert(new, outcome, stored: stored, journal: journal, launch, on: nil) { continuation.resume(with: $0) }
        }
    }

    /// The `201` answer for a stored session, rendered for `client` (nil: everything).
    private func created(
        id: String, token: String, state: SessionState, memo: RenderMemo, for client: ClientComponents?, shape: StateShape
    ) -> HTTPResponse {
        let rendered =
            client.map { render(state, for: $0, shape: shape) } ?? render(state, key: SessionKey(id), shape: shape, startingFrom: memo)
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

    // MARK: Read and delete

    func readSession(_ id: String, _ request: HTTPRequest, _ context: RequestContext, on loop: (any StoreLoop)?, _ reply: @escaping Reply) throws {
        let key = SessionKey(id)
        upgradedSession(id, key: key, request, allowQueryToken: false, on: loop) { [self] result in
            reply(Result {
                let session = try result.get()
                let (condition, components) = request.headers.first("If-None-Match", "Wayfinder-Components")
                let client = clientComponents(components)
                if let condition, ETag.ifNoneMatch(condition, revision: session.revision) {
                    if let wait = LongPoll.wait(request.headers["Prefer"]) {
                        return longPoll(id, key: key, seen: session.revision, wait: wait, client: client, context)
                    }
                    return HTTPResponse(status: 304, headers: ["ETag": ETag.of(session.revision)])
                }
                let (body, revision) = try renderedBody(session, key, for: client, shape: context.shape)
                return json(200, body, ["ETag": ETag.of(revision)])
            })
        }
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
                loadUpgraded(id, key: key, on: nil) { [self] result in
                    var response: HTTPResponse
                    do {
                        if let session = try result.get() {
                            if session.revision == seen {
                                response = HTTPResponse(status: 304, headers: ["ETag": ETag.of(seen)])
                            } else {
                                let (body, revision) = try renderedBody(session, key, for: client, shape: context.shape)
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
            }
            // Subscribed before the state is read again, so no change falls in between.
            let subscription = store.changes.subscribe(id) { _ in answer() }
            once.onDone { subscription.cancel() }
            responder.onCancel { subscription.cancel() }
            load(id, key: key, on: nil) { [self] result in
                if case .success(let current?) = result, current.revision != seen { return answer() }
                effects.detach {
                    try? await Task.sleep(for: .seconds(wait))
                    answer()
                }
            }
        }
    }

    /// With `If-Match`, the revision it matched is checked by the store in the same step as the
    /// delete, so a change made after this request read the session is never deleted unseen: the
    /// condition is evaluated again against the newer revision (`412` if it no longer matches).
    /// The operator key deletes any session.
    func deleteSession(_ id: String, _ request: HTTPRequest, on loop: (any StoreLoop)?, _ reply: @escaping Reply) throws {
        if isOperator(request) {
            return offTheLoop(reply) { [self] in
                let session = try sessionForOwnerOrOperator(id, request)
                return try waiting { done in delete(id, revision: session.revision, request.headers["If-Match"], attempt: 0, on: nil, done) }
            }
        }
        authorized(id, key: SessionKey(id), request, allowQueryToken: false, on: loop) { [self] result in
            switch result {
            case .success(let session): delete(id, revision: session.revision, request.headers["If-Match"], attempt: 0, on: loop, reply)
            case .failure(let error): reply(.failure(error))
            }
        }
    }

    private func delete(
        _ id: String, revision: Int, _ condition: String?, attempt: Int, on loop: (any StoreLoop)?, _ reply: @escaping Reply
    ) {
        guard attempt < 16 else { return reply(.failure(APIError.unavailable("too much contention on one session"))) }
        var expected: Int?
        if let condition {
            guard ETag.ifMatch(condition, revision: revision) else {
                return reply(.failure(APIError.revisionMismatch(currentRevision: revision)))
            }
            expected = revision
        }
        delete(id, expectedRevision: expected, on: loop) { [self] result in
            switch result {
            case .success(true):
                cache.remove(SessionKey(id))
                reply(.success(HTTPResponse(status: 204)))
            case .success(false):
                reply(.failure(APIError.notFound))
            case .failure(StoreError.conflict(let current)):
                delete(id, revision: current, condition, attempt: attempt + 1, on: loop, reply)
            case .failure(let error):
                reply(.failure(error))
            }
        }
    }

    // MARK: Shared

    /// The session named by the path if the bearer token matches: `401` without a usable token
    /// (or with a credential the authenticator refuses), `404` alike for an unknown id and a
    /// wrong token (`key == SessionKey(id)`), `403` when the request proves another user than
    /// the session's. A session whose
    /// `lastUsed` is older than the touch interval is touched (without waiting: a failed touch only
    /// shortens its idle window).
    func authorized(
        _ id: String, key: SessionKey, _ request: HTTPRequest, allowQueryToken: Bool, on loop: (any StoreLoop)?,
        _ then: @escaping Then<StoredSession>
    ) {
        let token: Substring
        do {
            token = try Credentials.bearerToken(request, allowQuery: allowQueryToken)
        } catch {
            return then(.failure(error))
        }
        load(id, key: key, on: loop) { [self] result in
            then(Result {
                guard let session = try result.get() else { throw APIError.notFound }
                cache.noteKnown(key, session)
                if !cache.tokenWasVerified(key, token: token, tokenHash: session.tokenHash) {
                    guard Credentials.constantTimeEqual(session.tokenHash, Credentials.hash(token)) else { throw APIError.notFound }
                    cache.noteVerified(key, token: token, tokenHash: session.tokenHash)
                }
                // Checked after the token: a stranger learns nothing of whose session it is.
                try checkIdentity(request, of: session)
                let now = WallClock.nowMillis()
                if now - session.lastUsed > touchIntervalMillis {
                    store.touch(id: id, now: now, on: loop) { [logger] result in
                        if case .failure(let error) = result {
                            logger.log(.warn, "touch_failed", [("session", .string(id)), ("error", .string("\(error)"))])
                        }
                    }
                }
                return session
            })
        }
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

    /// What the per-address limits count the client as: its address's share (an IPv6 address by
    /// its /64). The address is the configured header's (its last element) when the peer is a
    /// trusted proxy and the header names one, else the connection's peer; nil if there is none
    /// (a request made in-process).
    func clientShare(_ request: HTTPRequest) -> IPAddress? {
        let peer = IPAddress(request.remoteAddress)
        if let name = configuration.clientAddressHeader, let peer, configuration.trustedProxies.contains(peer),
            let value = request.headers[name], let last = value.split(separator: ",").last, let named = IPAddress(last.trimmingSpaces)
        {
            return named.share
        }
        return peer?.share
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

    /// The rendered state of a stored session in `shape` and its revision, from the cache when
    /// the revision matches; rendered apart (and not cached) for a client that does not render
    /// everything.
    func renderedBody(
        _ session: StoredSession, _ key: SessionKey, for client: ClientComponents? = nil, shape: StateShape = .full
    ) throws -> (body: [UInt8], revision: Int) {
        if client == nil, shape == .full, let body = cache.body(key, revision: session.revision) { return (body, session.revision) }
        let state = try decodedState(session, key)
        return (client.map { render(state, for: $0, shape: shape) } ?? render(state, key: key, shape: shape), state.revision)
    }

    /// `state` for a client that does not render everything, with a memo of its own.
    func render(_ state: SessionState, for client: ClientComponents, shape: StateShape = .full) -> [UInt8] {
        var memo = RenderMemo()
        return engine.renderJSON(state, memo: &memo, for: client, shape: shape)
    }

    /// Renders a state (reusing the screens of the session's last rendering that still hold) and
    /// remembers the state, the body and the screens for its revision; gives it in `shape`.
    /// A new session (`launchMemo` given) is cached only if there is room: it is not yet in use.
    ///
    /// The cache holds shape 1 alone: another shape is written from the memo of a shape-1
    /// rendering of the same state (its screens are reused, only the document is written again),
    /// rendered first if the cache has none.
    func render(_ state: SessionState, key: SessionKey, shape: StateShape = .full, startingFrom launchMemo: RenderMemo? = nil) -> [UInt8] {
        if shape != .full, launchMemo == nil, cache.body(key, revision: state.revision) != nil, let memo = cache.memo(key) {
            return reshaped(state, memo: memo, shape)
        }
        let (bytes, memo) = renderUncached(state, key: key, startingFrom: launchMemo)
        cache.put(key, revision: state.revision, state: state, body: bytes, memo: memo, evicting: launchMemo == nil)
        return shape == .full ? bytes : reshaped(state, memo: memo, shape)
    }

    /// `state` in `shape`, written from `memo`, the memo of its own shape-1 rendering (which stays
    /// as it is).
    func reshaped(_ state: SessionState, memo: RenderMemo, _ shape: StateShape) -> [UInt8] {
        var memo = memo
        return engine.renderJSON(state, memo: &memo, shape: shape)
    }

    /// Renders a state without remembering it: for a revision that is not stored yet (the cache
    /// must only ever hold the state a stored revision names).
    func renderUncached(_ state: SessionState, key: SessionKey, startingFrom launchMemo: RenderMemo? = nil) -> ([UInt8], RenderMemo) {
        var memo = launchMemo ?? cache.memo(key) ?? RenderMemo()
        let bytes = engine.renderJSON(state, memo: &memo)
        return (bytes, memo)
    }
}

/// What `POST /v1/sessions` asked for.
struct LaunchRequest: Sendable {
    let context: JSONObject
    let deepLink: String?
    /// The user the request proved (nil: none).
    let identity: Identity?
    /// What the client renders (nil: everything).
    let client: ClientComponents?
    let request: RequestContext
    /// When the request arrived (unix ms): the launch's ``FlowContext/now`` and its journal time.
    let time: Int64
}

/// A session launched and not stored yet.
struct NewSession: Sendable {
    let id: String
    let token: String
    /// The first state, before the results of its effects.
    let state: SessionState
    /// `state`'s stored form.
    let stored: [UInt8]
    /// The screens of its first rendering.
    let memo: RenderMemo
    /// The effects the launch asked for.
    let effects: [EffectRequest]
    /// The journal's record of the launch.
    let start: JournalAction
}
