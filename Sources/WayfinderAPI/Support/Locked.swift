import Synchronization

/// A value behind a mutex, as a class so it can be shared and kept in arrays and closures
/// (`Mutex` itself is non-copyable).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<T>(_ body: (inout sending Value) throws -> sending T) rethrows -> sending T { try mutex.withLock(body) }
}
