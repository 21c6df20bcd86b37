/// One accepted socket, owned by one event loop for its whole life.
///
/// - Important: only its loop thread touches it; `fd` is closed exactly once, by
///   `EventLoop.close(_:)`, which sets `isClosed`.
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
    var machine: ConnectionStateMachine
    var output: [UInt8] = []
    var outputOffset = 0
    var interest: EpollEvents
    var phase: Phase = .header
    var deadline: UInt64
    var stream: HTTPStreamWriter?
    /// The responder of a request answered later, and how its answer is to be framed.
    var responder: HTTPResponder?
    var awaited: (keepAlive: Bool, version: HTTPVersion, isHead: Bool) = (true, .http1_1, false)
    var streamChunked = false
    var isLingering = false
    var isClosed = false
    var lingerBytes = 0
    /// Bytes read from the peer so far.
    var bytesReceived = 0
    /// When the current body began (monotonic nanoseconds), and `bytesReceived` then.
    var bodyStarted: UInt64 = 0
    var bodyStartBytes = 0
    /// Its answers wait for the round's commit (`EventLoop.releaseHeld`); `heldProgressed`
    /// remembers whether the held service call had read new input.
    var isHeld = false
    var heldProgressed = false

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
