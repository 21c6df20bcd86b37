import Dispatch
import WayfinderHTTP
import WayfinderStore

/// The HTTP server's loops are where the store does its IO for the requests they handle (a
/// Redis reply arrives through the loop's epoll; SQLite commits a round's writes at its end).
extension HTTPEventLoop: StoreLoop {}

/// A store call's outcome, handed to the rest of an operation.
typealias Then<T> = @Sendable (Result<T, any Error>) -> Void

/// The store's non-blocking calls as the operations make them: on the request's loop (nil: any
/// thread), timed in the metrics.
extension WayfinderAPI {
    func load(_ id: String, key: SessionKey, on loop: (any StoreLoop)?, _ then: @escaping Then<StoredSession?>) {
        let started = WallClock.monotonicNanos()
        store.load(id: id, key: key, now: WallClock.nowMillis(), on: loop) { [metrics] result in
            metrics.storeOperation(.load, since: started)
            then(result)
        }
    }

    func save(
        _ session: StoredSession, expectedRevision: Int, idempotency: IdempotencyRecord?, journal: JournalEntry? = nil,
        on loop: (any StoreLoop)?, _ then: @escaping Then<Void>
    ) {
        let started = WallClock.monotonicNanos()
        store.save(session, expectedRevision: expectedRevision, idempotency: idempotency, journal: journal, on: loop) { [metrics] result in
            metrics.storeOperation(.save, since: started)
            then(result)
        }
    }

    func create(_ session: StoredSession, now: Int64, journal: JournalEntry?, on loop: (any StoreLoop)?, _ then: @escaping Then<Void>) {
        let started = WallClock.monotonicNanos()
        store.create(session, maxSessions: configuration.maxSessions, now: now, journal: journal, on: loop) { [metrics] result in
            metrics.storeOperation(.create, since: started)
            then(result)
        }
    }

    func delete(_ id: String, expectedRevision: Int?, on loop: (any StoreLoop)?, _ then: @escaping Then<Bool>) {
        let started = WallClock.monotonicNanos()
        store.delete(id: id, expectedRevision: expectedRevision, on: loop) { [metrics] result in
            metrics.storeOperation(.delete, since: started)
            then(result)
        }
    }

    func idempotencyRecord(_ id: String, key: String, on loop: (any StoreLoop)?, _ then: @escaping Then<IdempotencyRecord?>) {
        let started = WallClock.monotonicNanos()
        store.idempotencyRecord(sessionID: id, key: key, now: WallClock.nowMillis(), on: loop) { [metrics] result in
            metrics.storeOperation(.idempotency, since: started)
            then(result)
        }
    }

    func ping(on loop: (any StoreLoop)?, _ then: @escaping Then<Void>) {
        let started = WallClock.monotonicNanos()
        store.ping(on: loop) { [metrics] result in
            metrics.storeOperation(.ping, since: started)
            then(result)
        }
    }

    /// `load` for async code (effects): on any thread, without blocking one.
    func load(_ id: String, key: SessionKey) async throws -> StoredSession? {
        try await withCheckedThrowingContinuation { continuation in
            load(id, key: key, on: nil) { continuation.resume(with: $0) }
        }
    }

    /// Runs `body` on a thread that may block (an operation written with the blocking store
    /// calls: the journal's history and rewind), and answers `reply` with its outcome.
    func offTheLoop(_ reply: @escaping Reply, _ body: @escaping @Sendable () throws -> HTTPResponse) {
        DispatchQueue.global().async { reply(Result { try body() }) }
    }

    /// Waits for an operation written with a completion (for code that may block).
    func waiting<T: Sendable>(_ start: (@escaping Then<T>) -> Void) throws -> T {
        let outcome = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        start { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}
