import Dispatch
import Glibc
import Synchronization

/// A small pool of blocking Redis connections shared by every thread of the process.
///
/// At most `size` connections exist; a caller takes one exclusively (waiting at most
/// `checkoutTimeoutMillis` for a free slot) and gives it back. Connections are opened lazily; one
/// that failed (IO error, timeout) or that the server closed while idle is discarded, and a new
/// one is opened on the next checkout, so the pool heals by itself when Redis comes back.
///
/// While Redis is unreachable, a failed connect is remembered for `retryAfterFailureMillis`:
/// callers in that window fail at once instead of each waiting for their own connect to fail.
final class RedisPool: Sendable {
    let endpoint: RedisEndpoint
    private let timeoutMillis: Int
    private let checkoutTimeoutMillis: Int
    private let retryAfterFailureMillis: Int64 = 100
    private let idle = Mutex<Idle>(Idle())
    private let slots: DispatchSemaphore

    private struct Idle: ~Copyable {
        var connections: [RedisConnection] = []
        var closed = false
        /// Monotonic milliseconds and message of the last failed connect.
        var lastConnectFailure: (at: Int64, message: String)?
    }

    init(endpoint: RedisEndpoint, size: Int, timeoutMillis: Int) {
        self.endpoint = endpoint
        self.timeoutMillis = timeoutMillis
        self.checkoutTimeoutMillis = 2 * timeoutMillis
        self.slots = DispatchSemaphore(value: max(1, size))
    }

    /// Runs `body` with a connection of its own.
    ///
    /// - Parameter retryOnFreshConnection: for commands that are safe to send twice (reads): if
    ///   the command fails on a reused connection, it is tried once more on a new one.
    /// - Throws: `.unavailable` if no connection can be had or the command fails; what `body` throws.
    func withConnection<T>(
        retryOnFreshConnection: Bool = false, _ body: (RedisConnection) throws -> T
    ) throws -> T {
        guard slots.wait(timeout: .now() + .milliseconds(checkoutTimeoutMillis)) == .success else {
            throw StoreError.unavailable("redis \(endpoint): every pooled connection is busy")
        }
        defer { slots.signal() }
        let (connection, reused) = try checkOut()
        do {
            return try run(body, on: connection)
        } catch {
            guard retryOnFreshConnection, reused, connection.isBroken else { throw error }
            return try run(body, on: try connect())
        }
    }

    /// Closes the idle connections; connections in use are closed when given back.
    func close() {
        let connections = idle.withLock { idle in
            idle.closed = true
            let connections = idle.connections
            idle.connections = []
            return connections
        }
        _ = connections  // released here, outside the lock
    }

    // MARK: Internals

    private func checkOut() throws -> (RedisConnection, reused: Bool) {
        while let connection = idle.withLock({ $0.connections.popLast() }) {
            if !connection.isUnusable { return (connection, true) }
        }
        return (try connect(), false)
    }

    private func checkIn(_ connection: RedisConnection) {
        guard !connection.isBroken else { return }
        idle.withLock { idle in
            if !idle.closed { idle.connections.append(connection) }
        }
    }

    private func connect() throws -> RedisConnection {
        let now = Self.monotonicMillis()
        if let failure = idle.withLock({ $0.lastConnectFailure }), now - failure.at < retryAfterFailureMillis {
            throw StoreError.unavailable(failure.message)
        }
        do {
            let connection = try RedisConnection(endpoint: endpoint, timeoutMillis: timeoutMillis)
            idle.withLock { $0.lastConnectFailure = nil }
            return connection
        } catch {
            let message: String
            if case .unavailable(let detail)? = error as? StoreError { message = detail } else { message = "\(error)" }
            idle.withLock { $0.lastConnectFailure = (Self.monotonicMillis(), message) }
            throw error
        }
    }

    /// Runs `body` and gives the connection back (a broken one is dropped).
    private func run<T>(_ body: (RedisConnection) throws -> T, on connection: RedisConnection) throws -> T {
        defer { checkIn(connection) }
        return try body(connection)
    }

    static func monotonicMillis() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
    }
}
