/// One accepted socket, owned by one event loop for its whole life.
///
/// - Important: only its loop thread touches it; `fd` is closed exactly once, by
///   `EventLoop.close(_:)`, which sets `isClosed`. Its mutable properties are
///   `@exclusivity(unchecked)`: the loop never holds two accesses to one of them at once, and the
///   run-time checks cost about 5 % of a GET's instructions
///   (Benchmarks/results/by-version-exclusivity.txt).
final class Connection {
    /// Which deadline currently applies.
    enum Phase: Equatable {
        /// Waiting for a request's head (from accept, or from the first byte of a later request).
        case header
        /// Receiving a body; extended as bytes arrive, by their time at the minimum body rate.
        case body
        /// Keep-alive between requests.
        case idle
        /// Output is waiting for the peer to read; extended on every write progress.
        case write
        /// Streaming with nothing pending: no deadline.
        case streaming
        /// Draining input after the last response, before closing.
        case linger
    }

    let fd: Int32
    let id: UInt64
    let remoteAddress: String
    @exclusivity(unchecked) var machine: ConnectionStateMachine
    @exclusivity(unchecked) var output: [UInt8] = []
    @exclusivity(unchecked) var outputOffset = 0
    @exclusivity(unchecked) var interest: EpollEvents
    @exclusivity(unchecked) var phase: Phase = .header
    @exclusivity(unchecked) var deadline: UInt64
    @exclusivity(unchecked) var stream: HTTPStreamWriter?
    /// The responder of a request answered later, and how its answer is to be framed.
    @exclusivity(unchecked) var responder: HTTPResponder?
    @exclusivity(unchecked) var awaited: (keepAlive: Bool, version: HTTPVersion, isHead: Bool) = (true, .http1_1, false)
    @exclusivity(unchecked) var streamChunked = false
    @exclusivity(unchecked) var isLingering = false
    @exclusivity(unchecked) var isClosed = false
    @exclusivity(unchecked) var lingerBytes = 0
    /// Bytes read from the peer so far.
    @exclusivity(unchecked) var bytesReceived = 0
    /// When the current body began (monotonic nanoseconds), and `bytesReceived` then.
    @exclusivity(unchecked) var bodyStarted: UInt64 = 0
    @exclusivity(unchecked) var bodyStartBytes = 0
    /// The client-address share this connection holds (`ConnectionShares`), if it is counted.
    @exclusivity(unchecked) var share: IPAddress?

    init(fd: Int32, id: UInt64, remoteAddress: String, limits: HTTPParserLimits, interest: EpollEvents, deadline: UInt64) {
        self.fd = fd
        self.id = id
        self.remoteAddress = remoteAddress
        self.machine = ConnectionStateMachine(limits: limits)
        self.machine.parser.remoteAddress = remoteAddress
        self.interest = interest
        self.deadline = deadline
    }

    var pendingOutput: Int { output.count - outputOffset }
}
