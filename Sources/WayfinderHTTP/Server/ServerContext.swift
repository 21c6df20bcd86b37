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
    /// Open connections per client address (nil: no per-address limit).
    let shares: ConnectionShares?

    init(
        configuration: HTTPServerConfiguration, handler: any HTTPHandler,
        errorResponse: @escaping @Sendable (HTTPError) -> HTTPResponse
    ) {
        self.configuration = configuration
        self.handler = handler
        self.errorResponse = errorResponse
        self.shares = configuration.maxConnectionsPerAddress.map {
            ConnectionShares(perAddress: $0, maxConnections: configuration.maxConnections)
        }
    }
}
