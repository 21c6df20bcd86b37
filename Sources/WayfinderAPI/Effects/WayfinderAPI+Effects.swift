import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// An action that asked for effects, waiting for them before its answer.
struct PendingAction: Sendable {
    let id: String
    let cacheKey: SessionKey
    let session: StoredSession
    let state: SessionState
    let action: Action
    let idempotencyKey: String?
    let fingerprint: [UInt8]?
    let ifMatch: String?
    let context: RequestContext
    /// What the client renders (nil: everything).
    let client: ClientComponents?
}

/// Effects in the API: an action that asks for some is answered once they are done, or once the
/// configured wait is over, whichever comes first; results that come later are applied to the
/// session as new revisions (and reach its event streams).
///
/// The rule, as the contract states it: effects that finish within the wait are applied in the
/// same revision as the action that asked for them, so the answer is what it would be without
/// effects (one round trip, one revision, both steps' transitions); the action is stored only
/// then. Effects still running are stored with the action (the screen that asked shows as busy)
/// and the answer is `202 Accepted`. A session's effects run one at a time, in order.
extension WayfinderAPI {
    /// Runs the effects of `first` (the outcome of `pending.action`) for up to the configured
    /// wait, then stores the result and gives the answer.
    func settle(_ pending: PendingAction, _ first: Outcome) async -> HTTPResponse {
        let deadline = ContinuousClock.now + configuration.effectWait
        // Results by effect, kept across a re-run after a conflict so no effect runs twice.
        var results: [String: EffectCompletion] = [:]
        var running: [String: Task<EffectCompletion, Never>] = [:]
        var outcome = first
        var session = pending.session
        var base = pending.state
        do {
            for _ in 0..<16 {
                var state = outcome.state
                var transitions = outcome.transitions
                var queue = outcome.effects
                var leftover: [EffectRequest] = []
                // The journal's record of this revision: the action, then each result folded in.
                var journal: [JournalAction] = [.action(pending.action)]
                while !queue.isEmpty {
                    let request = queue.removeFirst()
                    let identity = Self.identity(request)
                    if results[identity] == nil {
                        let task = running[identity] ?? effects.start(request, session: pending.id)
                        running[identity] = task
                        if let completion = await effects.wait(task, until: deadline) {
                            results[identity] = completion
                            running[identity] = nil
                        }
                    }
                    guard let completion = results[identity] else {
                        leftover = [request] + queue
                        break
                    }
                    var memo = cache.memo(pending.cacheKey) ?? RenderMemo()
                    let next = try engine.reduce(state, .completeEffect(id: request.effect.id, completion), memo: &memo)
                    journal.append(.action(.completeEffect(id: request.effect.id, completion)))
                    state = next.state
                    transitions += next.transitions
                    queue += next.effects
                }
                // One revision for the action and the results it got in time.
                state.revision = base.revision + 1
                let folded = Outcome(state: state, transitions: transitions, changed: true)
                // Effects still running are this instance's: claimed before they are stored, so
                // no other instance sharing the store resumes them.
                for request in leftover {
                    _ = try? store.claimEffect(
                        pending.id + "/" + request.effect.id, owner: effects.owner, leaseMillis: effects.lease(for: request.effect.flow))
                }
                let memo = cache.memo(pending.cacheKey) ?? RenderMemo()
                do {
                    let response = try await commit(
                        folded, status: leftover.isEmpty ? 200 : 202, session: session, cacheKey: pending.cacheKey,
                        idempotencyKey: pending.idempotencyKey, fingerprint: pending.fingerprint, memo: memo, before: base, journal: journal,
                        requestID: pending.context.requestID, for: pending.client)
                    if case .trigger(let route) = pending.action {
                        metrics.routeTriggered(flow: handlingFlow(route, in: base), route: route.name)
                    }
                    deliverLater(leftover.map { ($0, running[Self.identity($0)]) }, session: pending.id)
                    return response
                } catch StoreError.conflict(let current) {
                    if pending.ifMatch != nil { throw APIError.revisionMismatch(currentRevision: current) }
                    guard let fresh = try await load(pending.id, key: pending.cacheKey) else { throw APIError.notFound }
                    session = fresh
                    base = try decodedState(fresh, pending.cacheKey)
                    var memo = cache.memo(pending.cacheKey) ?? RenderMemo()
                    outcome = try engine.reduce(base, pending.action, memo: &memo)
                } catch StoreError.idempotencyKeyTaken {
                    // A request with the same key was stored first: its answer is this one's.
                    if let key = pending.idempotencyKey, let fingerprint = pending.fingerprint,
                        let replayed = try await replay(pending.id, key: key, fingerprint: fingerprint)
                    {
                        deliverLater(leftover.map { ($0, running[Self.identity($0)]) }, session: pending.id)
                        return replayed
                    }
                }
            }
            throw APIError.unavailable("too much contention on one session")
        } catch {
            // Effects already started are not lost: their results still reach the session.
            deliverLater(running.values.isEmpty ? [] : outcome.effects.compactMap { request in
                running[Self.identity(request)].map { (request, $0) }
            }, session: pending.id)
            return problem(error, path: pending.context.path, requestID: pending.context.requestID)
        }
    }

    /// Applies the results of effects that were not done in time, in order, as they come.
    func deliverLater(_ requests: [(EffectRequest, Task<EffectCompletion, Never>?)], session id: String) {
        guard !requests.isEmpty else { return }
        let started = requests.map { request, task in (request, task ?? effects.start(request, session: id)) }
        effects.detach {
            for (request, task) in started {
                await self.deliver(await task.value, of: request.effect.id, session: id)
            }
        }
    }

    /// Feeds an effect's result to its session as a new revision (compare-and-set, retried on
    /// conflict). A result for a session or effect that is gone is dropped; a flow that throws on
    /// it has the effect abandoned, so no screen waits for ever.
    func deliver(_ completion: EffectCompletion, of effectID: String, session id: String) async {
        let key = SessionKey(id)
        for _ in 0..<16 {
            do {
                guard let session = try await load(id, key: key) else { return }
                let state = try decodedState(session, key)
                guard state.effects.contains(where: { $0.id == effectID }) else { return }
                var memo = cache.memo(key) ?? RenderMemo()
                var outcome: Outcome
                var journal: [JournalAction] = [.action(.completeEffect(id: effectID, completion))]
                do {
                    outcome = try engine.reduce(state, .completeEffect(id: effectID, completion), memo: &memo)
                } catch {
                    logger.log(.warn, "effect_abandoned", [("session", .string(id)), ("effect", .string(effectID)), ("error", .string("\(error)"))])
                    outcome = engine.abandonEffect(effectID, in: state)
                    journal = [.abandonEffect(effectID)]
                }
                do {
                    _ = try await commit(
                        outcome, status: 200, session: session, cacheKey: key, idempotencyKey: nil, fingerprint: nil, memo: memo,
                        before: state, journal: journal, requestID: nil)
                } catch APIError.sessionTooLarge {
                    // The result would make the session too large: the flow does not get it, and
                    // its screen stops waiting.
                    logger.log(.warn, "effect_abandoned", [("session", .string(id)), ("effect", .string(effectID)), ("error", .string("session too large"))])
                    outcome = engine.abandonEffect(effectID, in: state)
                    _ = try await commit(
                        outcome, status: 200, session: session, cacheKey: key, idempotencyKey: nil, fingerprint: nil, memo: memo,
                        before: state, journal: [.abandonEffect(effectID)], requestID: nil)
                }
                deliverLater(outcome.effects.map { ($0, nil) }, session: id)
                return
            } catch StoreError.conflict {
                continue
            } catch {
                logger.log(.warn, "effect_result_lost", [("session", .string(id)), ("effect", .string(effectID)), ("error", .string("\(error)"))])
                return
            }
        }
    }

    /// `commit` for async code: stores without blocking a thread.
    private func commit(
        _ outcome: Outcome, status: Int, session: StoredSession, cacheKey: SessionKey, idempotencyKey key: String?,
        fingerprint: [UInt8]?, memo: RenderMemo, before: SessionState, journal: [JournalAction], requestID: String?,
        for client: ClientComponents? = nil
    ) async throws -> HTTPResponse {
        try await withCheckedThrowingContinuation { continuation in
            commit(
                outcome, status: status, session: session, cacheKey: cacheKey, idempotencyKey: key, fingerprint: fingerprint,
                memo: memo, before: before, journal: journal, requestID: requestID, for: client, on: nil
            ) { continuation.resume(with: $0) }
        }
    }

    /// `replay` for async code.
    private func replay(_ id: String, key: String, fingerprint: [UInt8]) async throws -> HTTPResponse? {
        try await withCheckedThrowingContinuation { continuation in
            replay(id, key: key, fingerprint: fingerprint, on: nil) { continuation.resume(with: $0) }
        }
    }

    /// An effect by what it does (flow, case and values), to recognise it when an action asks
    /// for it again after a conflict.
    private static func identity(_ request: EffectRequest) -> String {
        var writer = JSONWriter()
        writer.value(.object(request.params))
        return request.effect.flow + "." + request.effect.name + String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// Effects that were stored pending and that no one runs: the server stopped before their result
/// (`kill -9`, a deploy), or, on a store shared by instances, the instance that ran them died.
extension WayfinderAPI {
    /// Runs a resume pass now, and again every 15 s on a store shared by instances.
    func startResumingEffects() {
        effects.detach { [self] in
            while !effects.stopped.load(ordering: .relaxed) {
                await resumePendingEffects()
                guard store.sharedByInstances else { return }
                try? await Task.sleep(for: .seconds(15))
            }
        }
    }

    /// Claims and runs every stored pending effect not running here. An effect that needs a
    /// ``Secret`` (never stored) completes as `interrupted`, and its flow says so.
    func resumePendingEffects() async {
        let ids: [String]
        do { ids = try store.sessionsWithPendingEffects(limit: 10_000) } catch {
            logger.log(.warn, "effect_resume_failed", [("error", .string("\(error)"))])
            return
        }
        var claimed = 0
        defer { logger.log(.debug, "effects_resume_pass", [("pending", .int(ids.count)), ("claimed", .int(claimed))]) }
        for id in ids {
            guard let session = try? store.load(id: id, now: WallClock.nowMillis()),
                let state = try? decodedState(session, SessionKey(id))
            else { continue }
            var resumed: [(EffectRequest, Task<EffectCompletion, Never>?)] = []
            for effect in state.effects where !effects.isRunning(id + "/" + effect.id) {
                let taken = (try? store.claimEffect(id + "/" + effect.id, owner: effects.owner, leaseMillis: effects.lease(for: effect.flow))) ?? false
                if taken { resumed.append((EffectRequest(effect: effect, params: effect.params), nil)) }
            }
            claimed += resumed.count
            if !resumed.isEmpty {
                logger.log(.info, "effects_resumed", [("session", .string(id)), ("count", .int(resumed.count))])
                deliverLater(resumed, session: id)
            }
        }
    }
}
