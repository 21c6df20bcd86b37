import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// The mutations (routes, back, tab, deep links, and the backend's signals): one action each, with
/// idempotency keys, `If-Match`, the session size limit and compare-and-set on the revision.
extension WayfinderAPI {
    /// Runs one action with the contract's order of checks: auth, body (415, 400), the
    /// `Idempotency-Key`'s length and bytes (400), idempotent replay, `If-Match` (412), then the action;
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
    ///
    /// A session this instance read or stored recently is changed without reading it first
    /// (``applyToKnown(_:_:)``): one trip to the store instead of two.
    ///
    /// `byOperator`: the request carries the operator key (checked by the caller), not the
    /// session's token, and the session is read as it is stored; `detachingEffects`: see
    /// ``Mutation/detachingEffects``.
    func mutate(
        _ id: String, _ request: HTTPRequest, _ context: RequestContext, on loop: (any StoreLoop)?, byOperator: Bool = false,
        detachingEffects: Bool = false, _ reply: @escaping Reply, action makeAction: @escaping @Sendable (RequestBody) throws -> Action
    ) throws {
        let cacheKey = SessionKey(id)
        let mutation = { @Sendable (reply: @escaping Reply) throws -> Mutation in
            let body = try RequestBody.read(request)
            let (keyHeader, components) = request.headers.first("Idempotency-Key", "Wayfinder-Components")
            let key = try self.idempotencyKey(keyHeader)
            let fingerprint = try key.map { _ in try self.fingerprint(request, body) }
            return Mutation(
                id: id, cacheKey: cacheKey, body: body, makeAction: makeAction, idempotencyKey: key, fingerprint: fingerprint,
                ifMatch: request.headers["If-Match"], context: context, client: self.clientComponents(components), loop: loop,
                time: WallClock.nowMillis(), detachingEffects: detachingEffects, reply: reply)
        }
        // The session's action rate, once its credential is checked (a stranger's requests take
        // nothing from it), before the body is read. The operator's signals are not limited.
        let known = byOperator ? nil : knownSession(cacheKey, request)
        if let known {
            try checkIdentity(request, of: known)
            try takeRouteToken(id)
            let m = try mutation(reply)
            if applyToKnown(m, known) { return }
        }
        let limited = known != nil || byOperator
        let authorize: (@escaping Then<StoredSession>) -> Void = { [self] then in
            guard byOperator else { return authorized(id, key: cacheKey, request, allowQueryToken: false, on: loop, then) }
            load(id, key: cacheKey, on: loop) { result in
                then(Result {
                    guard let session = try result.get() else { throw APIError.notFound }
                    return session
                })
            }
        }
        authorize { [self] result in
            do {
                let session = try result.get()
                if !limited { try takeRouteToken(id) }
                let m = try mutation(reply)
                upgrade(session, cacheKey, on: loop) { [self] result in
                    switch result {
                    case .success(let upgraded):
                        let from = upgraded.transitions.isEmpty ? nil : session.revision
                        attempt(m, on: upgraded.session, upgrade: upgraded.transitions, upgradedFrom: from, turn: 0)
                    case .failure(let error):
                        m.reply(.failure(error))
                    }
                }
            } catch {
                reply(.failure(error))
            }
        }
    }

    /// Takes a token of the session's action rate.
    /// - Throws: `429 session_rate_limited` with the seconds until the next token.
    private func takeRouteToken(_ id: String) throws(APIError) {
        if let limiter = routeLimiter, let wait = limiter.take(id, now: WallClock.monotonicNanos()) {
            throw .sessionRateLimited(retryAfter: wait)
        }
    }

    /// The session as this instance last read or stored it, if the request's token is the one
    /// verified for it and it was used within the touch interval (so it is not expired, and needs
    /// no touch): a mutation may then skip reading it.
    private func knownSession(_ key: SessionKey, _ request: HTTPRequest) -> StoredSession? {
        guard let known = cache.known(key), WallClock.nowMillis() - known.lastUsed <= touchIntervalMillis,
            let token = try? Credentials.bearerToken(request, allowQuery: false),
            cache.tokenWasVerified(key, token: token, tokenHash: known.tokenHash)
        else { return nil }
        return known
    }

    /// Applies the action to the last known revision and stores it with compare-and-set, without
    /// reading the session first. Returns false, having answered nothing, when that cannot decide
    /// the answer (the state of that revision is not cached, `If-Match` names another revision,
    /// the action is refused or changes nothing, or asks for effects, which run only after the
    /// replay check): then the mutation reads the session as usual. A lost race (another writer
    /// came first) or a taken idempotency key continues as usual too, after reading.
    private func applyToKnown(_ m: Mutation, _ known: StoredSession) -> Bool {
        if let ifMatch = m.ifMatch, !ETag.ifMatch(ifMatch, revision: known.revision) { return false }
        guard let state = cache.state(m.cacheKey, revision: known.revision), let action = try? m.makeAction(m.body) else { return false }
        var memo = cache.memo(m.cacheKey) ?? RenderMemo()
        guard let outcome = try? engine.reduce(state, action, at: Timestamp(millisecondsSince1970: m.time), memo: &memo), outcome.changed,
            outcome.effects.isEmpty
        else { return false }
        commit(
            outcome, status: 200, session: known, cacheKey: m.cacheKey, idempotencyKey: m.idempotencyKey,
            fingerprint: m.fingerprint, memo: memo, before: state, journal: [.action(action)], requestID: m.context.requestID,
            at: m.time, for: m.client, shape: m.context.shape, on: m.loop
        ) { [self] result in
            switch result {
            case .success(let response):
                if case .trigger(let route) = action { metrics.routeTriggered(flow: handlingFlow(route, in: state), route: route.name) }
                m.reply(.success(response))
            case .failure(StoreError.conflict(let current)) where m.ifMatch != nil:
                m.reply(.failure(APIError.revisionMismatch(currentRevision: current)))
            case .failure(StoreError.conflict), .failure(StoreError.idempotencyKeyTaken):
                reload(m, turn: 1)
            case .failure(StoreError.notFound):
                m.reply(.failure(APIError.notFound))
            case .failure(let error):
                m.reply(.failure(error))
            }
        }
        return true
    }

    /// Reads the session again (upgraded) and takes another turn.
    private func reload(_ m: Mutation, turn: Int) {
        load(m.id, key: m.cacheKey, on: m.loop) { [self] result in
            switch result {
            case .success(let fresh?):
                cache.noteKnown(m.cacheKey, fresh)
                upgrade(fresh, m.cacheKey, on: m.loop) { [self] result in
                    switch result {
                    case .success(let upgraded): attempt(m, on: upgraded.session, upgrade: upgraded.transitions, upgradedFrom: nil, turn: turn)
                    case .failure(let error): m.reply(.failure(error))
                    }
                }
            case .success(nil): m.reply(.failure(APIError.notFound))
            case .failure(let error): m.reply(.failure(error))
            }
        }
    }

    /// Turns a mutation may take before it gives up (`503`). Each turn some writer of the session
    /// wins, but with a store that answers later (Redis), writers of one session on one instance
    /// race in every round and one of them may lose many times in a row: eight concurrent
    /// writers of one session on one Redis reached 16 turns in tests.
    static let maxTurns = 64

    /// One turn: the replay check, then the action on `session` (after `upgrade`'s transitions,
    /// if this turn's read upgraded it from revision `upgradedFrom`); a lost race takes another
    /// turn (`maxTurns` at most).
    private func attempt(_ m: Mutation, on session: StoredSession, upgrade: [Transition], upgradedFrom: Int?, turn: Int) {
        guard turn < Self.maxTurns else { return m.reply(.failure(APIError.unavailable("too much contention on one session"))) }
        guard let key = m.idempotencyKey, let fingerprint = m.fingerprint else {
            return apply(m, on: session, upgrade: upgrade, upgradedFrom: upgradedFrom, turn: turn)
        }
        replay(m.id, key: key, fingerprint: fingerprint, on: m.loop) { [self] result in
            switch result {
            case .success(let replayed?): m.reply(.success(replayed))
            case .success(nil): apply(m, on: session, upgrade: upgrade, upgradedFrom: upgradedFrom, turn: turn)
            case .failure(let error): m.reply(.failure(error))
            }
        }
    }

    private func apply(_ m: Mutation, on session: StoredSession, upgrade: [Transition], upgradedFrom: Int?, turn: Int) {
        do {
            if let ifMatch = m.ifMatch, !ETag.ifMatch(ifMatch, revision: session.revision),
                !(upgradedFrom.map { ETag.ifMatch(ifMatch, revision: $0) } ?? false)
            {
                throw APIError.revisionMismatch(currentRevision: session.revision)
            }
            let action = try m.makeAction(m.body)
            let state = try decodedState(session, m.cacheKey)
            // Rebuilt and saved while decoding (a state of this version that no longer fits it).
            if state.revision != session.revision { return reload(m, turn: turn + 1) }
            var memo = cache.memo(m.cacheKey) ?? RenderMemo()
            var reduced = try engine.reduce(state, action, at: Timestamp(millisecondsSince1970: m.time), memo: &memo)
            if !upgrade.isEmpty { reduced.transitions = upgrade + reduced.transitions }
            let outcome = reduced
            if !outcome.effects.isEmpty {
                let pending = PendingAction(
                    id: m.id, cacheKey: m.cacheKey, session: session, state: state, action: action, idempotencyKey: m.idempotencyKey,
                    fingerprint: m.fingerprint, ifMatch: m.ifMatch, context: m.context, client: m.client, time: m.time)
                guard m.detachingEffects else { return m.reply(.success(answerLater(m.context) { await self.settle(pending, outcome) })) }
                effects.detach { _ = await self.settle(pending, outcome) }
                return m.reply(.success(json(202, Array(#"{"effects":"running"}"#.utf8))))
            }
            commit(
                outcome, status: 200, session: session, cacheKey: m.cacheKey, idempotencyKey: m.idempotencyKey,
                fingerprint: m.fingerprint, memo: memo, before: state, journal: [.action(action)], requestID: m.context.requestID,
                at: m.time, for: m.client, shape: m.context.shape, on: m.loop
            ) { [self] result in
                switch result {
                case .success(let response):
                    if case .trigger(let route) = action, outcome.changed {
                        metrics.routeTriggered(flow: handlingFlow(route, in: state), route: route.name)
                    }
                    m.reply(.success(response))
                case .failure(StoreError.conflict(let current)):
                    if m.ifMatch != nil { return m.reply(.failure(APIError.revisionMismatch(currentRevision: current))) }
                    reload(m, turn: turn + 1)
                case .failure(StoreError.idempotencyKeyTaken):
                    // A request with the same key was stored first: replay or refuse it.
                    attempt(m, on: session, upgrade: upgrade, upgradedFrom: upgradedFrom, turn: turn + 1)
                case .failure(let error):
                    m.reply(.failure(error))
                }
            }
        } catch {
            m.reply(.failure(error))
        }
    }

    /// The stored answer for an `Idempotency-Key` already used on this session, replayed; nil if
    /// the key is new. `422 idempotency_key_reused` if it was used for another request, `409
    /// idempotency_answer_dropped` if its answer was dropped by the byte budget (never run twice).
    func replay(_ id: String, key: String, fingerprint: [UInt8], on loop: (any StoreLoop)?, _ then: @escaping Then<HTTPResponse?>) {
        idempotencyRecord(id, key: key, on: loop) { result in
            then(Result {
                guard let record = try result.get() else { return nil }
                guard record.fingerprint == fingerprint else { throw APIError.idempotencyKeyReused }
                guard !record.answerDropped else { throw APIError.idempotencyAnswerDropped(status: record.status) }
                var headers = HTTPHeaders(record.headers.map { ($0.name, $0.value) })
                headers.set("Idempotent-Replayed", "true")
                return HTTPResponse(status: record.status, headers: headers, body: record.body)
            })
        }
    }

    /// Stores an action's outcome (compare-and-set on `session`'s revision, with the
    /// idempotency record, and a journal entry of `journal` if the state changed and the journal
    /// is on) and gives the answer; the rendering is remembered once it is stored (for a client
    /// that renders everything: another's is rendered apart and not remembered). `before` is the
    /// state the action ran on (for the traffic counts); `time` (unix ms) is when the action's
    /// request arrived: the journal entry's time and the session's use (now, if nil).
    /// Fails with `StoreError.conflict` or `.idempotencyKeyTaken` when another writer came
    /// first, `422 session_too_large` when the state or the journal entry alone passes
    /// `maxSessionBytes` (nothing stored).
    func commit(
        _ outcome: Outcome, status: Int, session: StoredSession, cacheKey: SessionKey, idempotencyKey key: String?,
        fingerprint: [UInt8]?, memo: RenderMemo, before: SessionState, journal: [JournalAction], requestID: String?,
        at time: Int64? = nil, for client: ClientComponents? = nil, shape: StateShape = .full, on loop: (any StoreLoop)?,
        _ then: @escaping Then<HTTPResponse>
    ) {
        let headers: HTTPHeaders = ["Content-Type": "application/json", "ETag": ETag.of(outcome.state.revision)]
        let transitions = JournalRecord.transitionsJSON(outcome.transitions)
        guard outcome.changed || key != nil else {
            let (bytes, rendered, renderedMemo) = actionBody(outcome, transitions: transitions, memo: memo, for: client, shape: shape)
            cache.put(cacheKey, revision: outcome.state.revision, state: outcome.state, body: rendered, memo: renderedMemo)
            return then(.success(HTTPResponse(status: status, headers: headers, body: bytes)))
        }
        var next = session
        next.revision = outcome.state.revision
        let now = time ?? WallClock.nowMillis()
        // Like reads, writes move `lastUsed` at most every touch interval: a store can then
        // leave its expiry index alone on most saves.
        if now - session.lastUsed > touchIntervalMillis { next.lastUsed = now }
        var entry: JournalEntry?
        if outcome.changed {
            do {
                var codecMemo = cache.storedMemo(cacheKey) ?? StateCodec.Memo()
                next.state = try SessionCodec.encode(outcome.state, memo: &codecMemo)
                try checkSize(next.state)
                cache.putStoredMemo(cacheKey, codecMemo)
                entry = journalEntry(journal, outcome, stateBytes: next.state, time: now, requestID: requestID)
                // An entry is kept whatever its size (the newest always is): alone it must fit too.
                if let entry { try checkSize(entry.record) }
            } catch {
                return then(.failure(error))
            }
        }
        let (bytes, rendered, renderedMemo) = actionBody(outcome, transitions: transitions, memo: memo, for: client, shape: shape)
        let record = key.map { key in
            IdempotencyRecord(
                sessionID: session.id, key: key, fingerprint: fingerprint ?? [], status: status,
                headers: headers.map { HeaderPair(name: $0.name, value: $0.value) }, body: bytes, createdAt: now)
        }
        save(next, expectedRevision: session.revision, idempotency: record, journal: entry, on: loop) { [self, next] result in
            switch result {
            case .success:
                if outcome.changed { traffic.record(before: before, after: outcome.state, actions: journal) }
                cache.put(cacheKey, revision: outcome.state.revision, state: outcome.state, body: rendered, memo: renderedMemo)
                cache.noteKnown(cacheKey, next)
                then(.success(HTTPResponse(status: status, headers: headers, body: bytes)))
            case .failure(let error):
                then(.failure(error))
            }
        }
    }

    /// The request's `Idempotency-Key` (`header`; an empty one counts as none).
    /// - Throws: `400 idempotency_key_too_long` past `maxIdempotencyKeyBytes`, then `400
    ///   idempotency_key_invalid` for a byte that is not visible ASCII (the HTTP layer reads
    ///   bytes that are not UTF-8 as U+FFFD, so two such keys would be one).
    func idempotencyKey(_ header: String?) throws(APIError) -> String? {
        guard let key = header, !key.isEmpty else { return nil }
        guard key.utf8.count <= configuration.maxIdempotencyKeyBytes else {
            throw .idempotencyKeyTooLong(limit: configuration.maxIdempotencyKeyBytes)
        }
        guard key.isVisibleASCII else { throw .idempotencyKeyInvalid }
        return key
    }

    /// What a request with an `Idempotency-Key` is recognised by: an HMAC-SHA256, under the
    /// store's deployment secret, of its method, path and canonical body without the route params
    /// the app declares secret. Nothing in the store can be checked against a guessed password.
    func fingerprint(_ request: HTTPRequest, _ body: RequestBody) throws -> [UInt8] {
        var value = body.value
        if case .object(var object) = value, let route = object["route"]?.stringValue, case .object(var params)? = object["params"] {
            for name in params.keys where secrets.isSecret(route: route, param: name) { params[name] = nil }
            object["params"] = .object(params)
            value = .object(object)
        }
        return HMACSHA256.authenticate(Array("\(request.method) \(request.path)\n".utf8) + value.canonicalBytes, key: try deploymentSecret())
    }

    /// The store's deployment secret (``SessionStore/deploymentSecret()``), read once.
    func deploymentSecret() throws -> [UInt8] {
        try fingerprintKey.withLock { key in
            if key == nil { key = try store.deploymentSecret() }
            return key ?? []
        }
    }

    /// The flow of the coordinator that owns the top screen (for the routes metric).
    func handlingFlow(_ route: RouteRequest, in state: SessionState) -> String {
        guard let top = state.navigation.topScreen else { return "unknown" }
        return state.coordinators.flow(of: top.coordinator) ?? "unknown"
    }
}
