import Synchronization
import WayfinderStore

/// A `StoreLoop` whose rounds the test ends by hand (`endRound()`): what a store leaves for the
/// end of the round runs then, on the test's thread. It watches no descriptors (the SQLite
/// store needs none).
final class ManualLoop: StoreLoop, @unchecked Sendable {
    private var roundEnd: [() -> Void] = []

    func watch(_ fd: Int32, writing: Bool, _ handler: @escaping (Bool, Bool) -> Void) -> Bool { false }
    func update(_ fd: Int32, writing: Bool) {}
    func unwatch(_ fd: Int32) {}
    func atEndOfRound(_ body: @escaping () -> Void) { roundEnd.append(body) }
    func schedule(afterMilliseconds milliseconds: Int, _ body: @escaping () -> Void) {}
    func onStop(_ body: @escaping () -> Void) {}

    /// Runs the end-of-round blocks (and those they add).
    func endRound() {
        while !roundEnd.isEmpty {
            let blocks = roundEnd
            roundEnd = []
            for block in blocks { block() }
        }
    }
}

/// The answer of a non-blocking store call, once it is given.
final class Answer<T: Sendable>: Sendable {
    private let result = Mutex<Result<T, any Error>?>(nil)

    /// The completion to pass to the call.
    var done: @Sendable (Result<T, any Error>) -> Void {
        { outcome in self.result.withLock { $0 = outcome } }
    }

    /// Whether the answer was given.
    var isGiven: Bool { result.withLock { $0 != nil } }

    /// The answer's value; throws its error (or if no answer was given).
    func value() throws -> T {
        guard let result = result.withLock({ $0 }) else { throw NotAnswered() }
        return try result.get()
    }

    struct NotAnswered: Error {}
}
