#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WayfinderCore

/// Runs effects off the event loops, with the service, timeout and retries the app registered
/// (``EffectServices``), a session's effects one after another in the order they were asked.
///
/// A service that never returns cannot hold anything up: each attempt races its timeout, and
/// the attempt left behind is cancelled and forgotten.
final class EffectRunner: Sendable {
    let services: EffectServices
    /// Where every task of the effect machinery runs (see ``EffectExecutor``).
    let executor: EffectExecutor
    /// The last effect started for each session: the next one waits for it.
    private let tails = Mutex<[String: Task<EffectCompletion, Never>]>([:])
    /// Effects running in this process (`session/effect`), so a resume pass does not start one again.
    private let running = Mutex<Set<String>>([])
    /// Who this process is when it claims an effect on a shared store (its process id if the
    /// kernel has no random bytes to give, which only a claim's holder name ever sees).
    let owner = (try? Credentials.randomBytes(9)).map(Credentials.base64URL) ?? "pid-\(getpid())"
    /// Set when the server stops: no new resume pass.
    let stopped = Atomic<Bool>(false)

    /// Where each call of a service is counted.
    let metrics: Metrics

    init(services: EffectServices, metrics: Metrics, threads: Int = 8) {
        self.services = services
        self.metrics = metrics
        self.executor = EffectExecutor(threads: threads)
    }

    /// Starts `body` on the effect threads.
    @discardableResult
    func detach<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> Task<T, Never> {
        Task(executorPreference: executor) { await body() }
    }

    /// Takes effect `key` (`session/effect`) for this process, unless it runs here already
    /// (false); then ``start(_:session:)`` it, or ``release(_:)`` it. Two resume passes, or a pass
    /// and an upgrade's hand-off, thus never both run one effect.
    func reserve(_ key: String) -> Bool { running.withLock { $0.insert(key).inserted } }

    /// Gives up effect `key`, reserved and not started.
    func release(_ key: String) { running.withLock { _ = $0.remove(key) } }

    /// How long a claim on a shared store must last: every attempt and pause of the service,
    /// and a margin.
    func lease(for flow: String) -> Int64 {
        guard let service = services.service(for: flow) else { return 30_000 }
        let attempts = Double(service.retries + 1)
        let seconds = Self.seconds(service.timeout) * attempts + Self.seconds(service.retryDelay) * (attempts - 1) + 30
        return Int64(seconds * 1000)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Starts `request` once the session's earlier effects are done.
    func start(_ request: EffectRequest, session: String) -> Task<EffectCompletion, Never> {
        let key = session + "/" + request.effect.id
        running.withLock { _ = $0.insert(key) }
        return tails.withLock { tails in
            let previous = tails[session]
            let task = Task(executorPreference: executor) { [services] in
                _ = await previous?.value
                let completion = await Self.run(request, session: session, services, self.executor, self.metrics)
                self.running.withLock { _ = $0.remove(key) }
                return completion
            }
            tails[session] = task
            // Forget the tail once it is done, unless a later effect took its place.
            Task(executorPreference: executor) { [weak self] in
                _ = await task.value
                self?.tails.withLock { if $0[session] == task { $0[session] = nil } }
            }
            return task
        }
    }

    /// Effects started for a session and not finished (the `tails` still held).
    var busySessions: Int { tails.withLock { $0.count } }

    /// The effect's completion, or nil if it is not done by `deadline` (it goes on running).
    func wait(_ task: Task<EffectCompletion, Never>, until deadline: ContinuousClock.Instant) async -> EffectCompletion? {
        await Self.race(task, timeout: deadline - .now, executor)
    }

    /// `task`'s value, or nil after `timeout`, whichever comes first.
    private static func race<T: Sendable>(_ task: Task<T, Never>, timeout: Duration, _ executor: EffectExecutor) async -> T? {
        guard timeout > .zero else { return nil }
        return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            let first = FirstOf(continuation)
            Task(executorPreference: executor) { first.resume(await task.value) }
            Task(executorPreference: executor) {
                try? await Task.sleep(for: timeout)
                first.resume(nil)
            }
        }
    }

    /// The service's attempts, as the engine takes the result back.
    static func run(
        _ request: EffectRequest, session: String, _ services: EffectServices, _ executor: EffectExecutor, _ metrics: Metrics
    ) async -> EffectCompletion {
        guard let service = services.service(for: request.effect.flow) else {
            return .failure(.unavailable("no service is registered for the effects of flow '\(request.effect.flow)'"))
        }
        if request.effect.secrets.contains(where: { request.params[$0] == nil }) {
            return .failure(.interrupted)  // a secret it needs was never stored, and is gone
        }
        var failure = EffectFailure.timedOut
        for attempt in 1...(service.retries + 1) {
            if attempt > 1 { try? await Task.sleep(for: service.retryDelay) }
            let call = EffectCall(session: session, effect: request.effect.id, attempt: attempt)
            let work = Task(executorPreference: executor) { () -> Result<JSONValue, EffectFailure> in
                do {
                    return .success(try await service.perform(request.effect.name, request.params, call))
                } catch {
                    return .failure(.unavailable("\(error)"))
                }
            }
            guard let result = await race(work, timeout: service.timeout, executor) else {
                work.cancel()
                metrics.effectCalled(flow: request.effect.flow, effect: request.effect.name, outcome: "timed_out")
                failure = .timedOut
                continue
            }
            switch result {
            case .success(let reply):
                metrics.effectCalled(flow: request.effect.flow, effect: request.effect.name, outcome: "success")
                return .success(reply)
            case .failure(let error):
                metrics.effectCalled(flow: request.effect.flow, effect: request.effect.name, outcome: "failure")
                failure = error
            }
        }
        return .failure(failure)
    }
}

/// Resumes a continuation with the first of several values offered from any thread.
private final class FirstOf<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T?, Never>?>

    init(_ continuation: CheckedContinuation<T?, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume(_ value: T?) {
        continuation.withLock { waiting in
            waiting?.resume(returning: value)
            waiting = nil
        }
    }
}
