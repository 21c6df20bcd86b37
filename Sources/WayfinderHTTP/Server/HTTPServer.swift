import Dispatch
import Synchronization

/// An HTTP/1.1 server: one epoll event loop per configured thread, each with its own
/// SO_REUSEPORT listener, answering requests with an `HTTPHandler`.
///
/// Lifecycle: `start()` binds and spawns the loops; `shutdown()` (any thread) stops accepting,
/// lets requests in flight finish, closes idle connections and ends event streams within
/// `configuration.shutdownDeadline`; `waitUntilStopped()` blocks until every loop has exited.
public final class HTTPServer: Sendable {
    /// Errors of `start()` beyond system errors.
    public enum StartError: Error, Sendable {
        /// `start()` was called before.
        case alreadyStarted
    }

    struct State {
        var started = false
        var loops: [EventLoop] = []
    }

    /// The settings the server was made with.
    public let configuration: HTTPServerConfiguration
    let context: ServerContext
    let state = Mutex(State())
    let port = Atomic<Int>(0)
    let stopped = DispatchGroup()

    /// - Parameter errorBody: builds the answer for errors the HTTP layer answers itself (its status
    ///   is always the error's); the default is an RFC 9457 problem body, see `HTTPError.defaultResponse`.
    public init(
        configuration: HTTPServerConfiguration = HTTPServerConfiguration(), handler: any HTTPHandler,
        errorBody: @escaping @Sendable (HTTPError) -> HTTPResponse = HTTPError.defaultResponse
    ) {
        self.configuration = configuration
        context = ServerContext(configuration: configuration, handler: handler, errorResponse: errorBody)
    }

    /// Binds one listener per loop, starts the loop threads, and returns.
    public func start() throws {
        try state.withLock { s throws in
            guard !s.started else { throw StartError.alreadyStarted }
            var listeners: [Int32] = []
            var loops: [EventLoop] = []
            do {
                let first = try Socket.listen(host: configuration.host, port: configuration.port)
                listeners.append(first)
                let bound = try Socket.localPort(first)
                for _ in 1..<max(1, configuration.threads) {
                    listeners.append(try Socket.listen(host: configuration.host, port: bound))
                }
                for fd in listeners {
                    loops.append(try EventLoop(context: context, listenFD: fd))
                }
                port.store(bound, ordering: .releasing)
            } catch {
                for loop in loops { loop.teardown() }
                for fd in listeners.dropFirst(loops.count) { closeDescriptor(fd) }
                throw error
            }
            for loop in loops {
                stopped.enter()
                let group = stopped
                do {
                    try Threads.spawn {
                        loop.run()
                        group.leave()
                    }
                } catch {
                    stopped.leave()
                    loop.teardown()
                }
            }
            s.loops = loops
            s.started = true
        }
    }

    /// The port bound by `start()` (useful with `port: 0`).
    public var boundPort: Int { port.load(ordering: .acquiring) }

    /// Connections open right now, across all loops.
    public var openConnections: Int { context.openConnections.load(ordering: .relaxed) }

    /// Begins a graceful shutdown; returns at once. Safe to call from any thread, more than once.
    public func shutdown() {
        let deadline = monotonicNanoseconds() + configuration.shutdownDeadline.nanoseconds
        guard context.shuttingDown.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        context.shutdownDeadline.store(deadline, ordering: .releasing)
        let loops = state.withLock { $0.loops }
        for loop in loops { loop.mailbox.post(nil) }
    }

    /// Blocks until every event loop has exited (immediately if the server never started).
    public func waitUntilStopped() {
        stopped.wait()
    }
}
