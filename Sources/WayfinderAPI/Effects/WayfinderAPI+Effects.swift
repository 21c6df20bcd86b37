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
    /// When the request arrived (unix ms): the time of the action and of the results folded into it.
    let time: Int64
}

/// The effects one answer waits for: the deadline (the configured wait), their results by what
/// they do (kept across a re-run after a conflict, or a new id, so no effect runs twice), and
/// those still running.
struct EffectWait: Sendable {
    let deadline: ContinuousClock.Instant
    var results: [String: EffectCompletion] = [:]
    var running: [String: Task<EffectCompletion, Never>] = [:]

    init(_ wait: Duration) { deadline = .now + wait }

    /// `requests` with their tasks, those already started (for ``WayfinderAPI/deliverLater(_:session:)``).
    func tasks(_ requests: [EffectRequest]) -> [(EffectRequest, Task<EffectCompletion, Never>?)] {
        requests.map { ($0, running[Self.identity($0)]) }
    }

    /// An effect by what it does (flow, case and values), to recognise it when an action asks
    /// for it again after a conflict.
    static func identity(_ request: EffectRequest) -> String {
        var writer = JSONWriter()
        writer.value(.object(request.params))
        return request.effect.flow + "." + request.effect.name + String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// A step's outcome with the results of its effects that came in time (see ``WayfinderAPI/fold(_:revision:journal:session:_:)``).
struct Folded: Sendable {
    /// One revision for the step and those results.
    let outcome: Outcome
    /// The journal's record of it: the step, then each result.
    let journal: [JournalAction]
    /// The effects not done by the deadline (running or not yet started), in order: stored pending.
    let leftover: [EffectRequest]
}

/// Effects in the API: a step that asks for some (an action; the launch of a new session) is
/// answered once they are done, or once the configured wait is over, whichever comes first;
/// results that come later are applied to the session as new revisions (and reach its event
/// streams).
///
/// The rule, as the contract states it: effects that finish within the wait are applied in the
/// same revision as the step that asked for them, so the answer is what it would be without
/// effects (one round trip, one revision, both steps' transitions); the step is stored only
/// then. Effects still running are stored with the step (the screen that asked shows as busy)
/// and the answer is `202 Accepted` (`201 Created` for a new session, created either way). A
/// session's effects run one at a time, in order.
///
/// Every path that stores a state with effects pending hands them to the runner: an action and a
/// launch through ``fold(_:revision:journal:session:_:)``, ``claim(_:session:)`` and
/// ``deliverLater(_:session:)``; an upgrade on load (made for a read, an action or a long poll,
/// which wait for no service) and the resume pass through ``runUnclaimed(_:session:)``. A rewind
/// runs no flow and asks for none.
extension WayfinderAPI {
    /// An answer given once `body` is done, on the effect threads (a step that waits for effects).
    func answerLater(_ context: RequestContext, _ body: @escaping @Sendable () async -> HTTPResponse) -> HTTPResponse {
        .later { responder in
            self.effects.detach {
                var response = await body()
                self.finish(&response, context)
                responder.respond(response)
            }
        }
    }

    /// Runs the effects of `first` (the outcome of `pending.action`) for up to the configured
    /// wait, then stores the result and gives the answer.
    func settle(_ pending: PendingAction, _ first: Outcome) async -> HTTPResponse {
        var wait = EffectWait(configuration.effectWait)
        var outcome = first
        var session = pending.session
        var base = pending.state
        do {
            for _ in 0..<16 {
                let folded = try await fold(
                    outcome, revision: base.revision + 1, journal: [.action(pending.action)], at: pending.time, session: pending.id, &wait)
                claim(folded.leftover, session: pending.id)
                let memo = cache.memo(pending.cacheKey) ?? RenderMemo()
                do {
                    let response = try await commit(
                        folded.outcome, status: folded.leftover.isEmpty ? 200 : 202, session: session, cacheKey: pending.cacheKey,
                        idempotencyKey: pending.idempotencyKey, fingerprint: pending.fingerprint, memo: memo, before: base,
                        journal: folded.journal, requestID: pending.context.requestID, at: pending.time, for: pending.client,
                        shape: pending.context.shape)
                    if case .trigger(let route) = pending.action {
                        metrics.routeTriggered(flow: handlingFlow(route, in: base), route: route.name)
                    }
                    deliverLater(wait.tasks(folded.leftover), session: pending.id)
                    return response
                } catch StoreError.conflict(let current) {
                    if pending.ifMatch != nil { throw APIError.revisionMismatch(currentRevision: current) }
                    guard let fresh = try await load(pending.id, key: pending.cacheKey) else { throw APIError.notFound }
                    session = fresh
                    base = try decodedState(fresh, pending.cacheKey)
                    var memo = cache.memo(pending.cacheKey) ?? RenderMemo()
                    outcome = try engine.reduce(base, pending.action, at: Timestamp(millisecondsSince1970: pending.time), memo: &memo)
                } catch StoreError.idempotencyKeyTaken {
                    // A request with the same key was stored first: its answer is this one's.
                    if let key = pending.idempotencyKey, let fingerprint = pending.fingerprint,
                        let replayed = try await replay(pending.id, key: key, fingerprint: fingerprint)
                    {
                        deliverLater(wait.tasks(folded.leftover), session: pending.id)
                        return replayed
                    }
                }
            }
            throw APIError.unavailable("too much contention on one session")
        } catch {
            // Effects already started are not lost: their results still reach the session.
            deliverLater(wait.tasks(outcome.effects).filter { $0.1 != nil }, session: pending.id)
            return problem(error, path: pending.context.path, requestID: pending.context.requestID)
        }
    }

    /// Runs the effects `first` asked for, and those their results ask for, one after another
    /// until `wait`'s deadline, and folds each result that comes in time into `first`'s state:
    /// one revision, `revision`, journaled as `journal` then each result, all at `time` (unix ms).
    func fold(
        _ first: Outcome, revision: Int, journal: [JournalAction], at time: Int64, session id: String, _ wait: inout EffectWait
    ) async throws -> Folded {
        let key = SessionKey(id)
        var state = first.state
        var transitions = first.transitions
        var queue = first.effects
        var journal = journal
        while !queue.isEmpty {
            let request = queue.first!
            let identity = EffectWait.identity(request)
            if wait.results[identity] == nil {
                let task = wait.running[identity] ?? effects.start(request, session: id)
                wait.running[identity] = task
                if let completion = await effects.wait(task, until: wait.deadline) {
                    wait.results[identity] = completion
                    wait.running[identity] = nil
                }
            }
            guard let completion = wait.results[identity] else { break }
            queue.removeFirst()
            var memo = cache.memo(key) ?? RenderMemo()
            let next = try engine.reduce(
                state, .completeEffect(id: request.effect.id, completion), at: Timestamp(millisecondsSince1970: time), memo: &memo)
            journal.append(.action(.completeEffect(id: request.effect.id, completion)))
            state = next.state
            transitions += next.transitions
            queue += next.effects
        }
        state.revision = revision
        return Folded(outcome: Outcome(state: state, transitions: transitions, changed: true), journal: journal, leftover: queue)
    }

    /// Claims the effects left running for the instance storing their revision, before it is
    /// stored, so that no other instance sharing the store resumes them. Blocks on the store: call
    /// it on the effect threads.
    /// Takes `requests` for this process before the state that asks for them is stored, so a
    /// resume pass that reads the stored state meanwhile leaves them alone (it would run them
    /// without the secrets only this request holds). Returns those taken; `release` the rest.
    func reserve(_ requests: [EffectRequest], session id: String) -> [EffectRequest] {
        requests.filter { effects.reserve(id + "/" + $0.effect.id) }
    }

    /// Gives up `requests` reserved by ``reserve(_:session:)`` and not run (the save failed).
    func release(_ requests: [EffectRequest], session id: String) {
        for request in requests { effects.release(id + "/" + request.effect.id) }
    }

    func claim(_ leftover: [EffectRequest], session id: String) {
        for request in leftover {
            _ = try? store.claimEffect(id + "/" + request.effect.id, owner: effects.owner, leaseMillis: effects.lease(for: request.effect.flow))
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
                let time = WallClock.nowMillis()
                do {
                    outcome = try engine.reduce(state, .completeEffect(id: effectID, completion), at: Timestamp(millisecondsSince1970: time), memo: &memo)
                } catch {
                    logger.log(.warn, "effect_abandoned", [("session", .string(id)), ("effect", .string(effectID)), ("error", .string("\(error)"))])
                    outcome = engine.abandonEffect(effectID, in: state)
                    journal = [.abandonEffect(effectID)]
                }
                do {
                    _ = try await commit(
                        outcome, status: 200, session: session, cacheKey: key, idempotencyKey: nil, fingerprint: nil, memo: memo,
                        before: state, journal: journal, requestID: nil, at: time)
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
        at time: Int64? = nil, for client: ClientComponents? = nil, shape: StateShape = .full
    ) async throws -> HTTPResponse {
        try await withCheckedThrowingContinuation { continuation in
            commit(
                outcome, status: status, session: session, cacheKey: cacheKey, idempotencyKey: key, fingerprint: fingerprint,
                memo: memo, before: before, journal: journal, requestID: requestID, at: time, for: client, shape: shape, on: nil
            ) { continuation.resume(with: $0) }
        }
    }

    /// `replay` for async code.
    private func replay(_ id: String, key: String, fingerprint: [UInt8]) async throws -> HTTPResponse? {
        try await withCheckedThrowingContinuation { continuation in
            replay(id, key: key, fingerprint: fingerprint, on: nil) { continuation.resume(with: $0) }
        }
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
            let resumed = runUnclaimed(state.effects.map { EffectRequest(effect: $0, params: $0.params) }, session: id)
            claimed += resumed
            if resumed > 0 { logger.log(.info, "effects_resumed", [("session", .string(id)), ("count", .int(resumed))]) }
        }
    }

    /// Runs those of `requests`, effects pending in session `id`'s stored state, that no one
    /// runs: each is taken for this process (unless it runs here already) and claimed on the
    /// store (so that one of the instances sharing it runs it), then run, its result applied as a
    /// later revision. Returns how many it runs. Blocks on the store: call it on the effect threads.
    /// `reserved`: the caller took them for this process already (``reserve(_:session:)``).
    @discardableResult
    func runUnclaimed(_ requests: [EffectRequest], session id: String, reserved: Bool = false) -> Int {
        let taken = requests.filter { request in
            let key = id + "/" + request.effect.id
            guard reserved || effects.reserve(key) else { return false }
            let leaseMillis = effects.lease(for: request.effect.flow)
            if (try? store.claimEffect(key, owner: effects.owner, leaseMillis: leaseMillis)) == true { return true }
            effects.release(key)
            return false
        }
        deliverLater(taken.map { ($0, nil) }, session: id)
        return taken.count
    }
}
