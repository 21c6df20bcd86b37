import Synchronization

/// What every event loop of one server shares.
final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    let errorResponse: @Sendable (HTTPError) -> HTTPResponse
    let openConnections = Atomic<Int>(0)
    let shuttingDown = Atomic<Bool>(false)
    /// Monotonic nanoseconds by which shutdown must be complete.
    let shutdownDeadline = Atomic<UInt64>(.max)
    let nextStreamID = Atomic<UInt64>(1)

    init(
        configuration: HTTPServerConfiguration, handler: any HTTPHandler,
        errorResponse: @escaping @Sendable (HTTPError) -> HTTPResponse
    ) {
        self.configuration = configuration
        self.handler = handler
        self.errorResponse = errorResponse
    }
}
