/// What a connection does next, decided from parser events and IO facts; performs no IO.
///
/// The event loop feeds it bytes and facts (peer closed, stream ended, timeout, shutdown) and
/// performs the actions it returns. States:
/// `open` (reading and answering requests) → `streaming` (an event stream owns the connection;
/// further requests wait) or `awaiting` (an answer given later; further requests wait) → back to
/// `open`, or → `closing` (no more requests: flush, then close).
struct ConnectionStateMachine {
    enum State: Equatable {
        case open
        case streaming(keepAliveAfter: Bool)
        case awaiting
        case closing
    }

    enum Action: Equatable {
        /// Nothing to do until more bytes arrive.
        case wait
        /// Send `100 Continue` now.
        case sendContinue
        /// Answer this request; `keepAlive` false means the answer carries `Connection: close`.
        case handle(HTTPRequest, keepAlive: Bool)
        /// Answer this error (with `Connection: close`); the connection then closes.
        case sendError(HTTPError)
        /// No more requests on this connection: close once the output is flushed.
        case close
    }

    private(set) var state: State = .open
    var parser: HTTPRequestParser
    private(set) var peerClosed = false
    private(set) var draining = false
    private(set) var requestsHandled = 0

    init(limits: HTTPParserLimits) {
        parser = HTTPRequestParser(limits: limits)
    }

    /// Bytes from the peer; discarded once the connection is closing (they are never parsed).
    mutating func received(_ bytes: UnsafeRawBufferPointer) {
        if state == .closing { return }
        parser.append(bytes)
    }

    /// The next action; call until it returns `.wait` or `.close`.
    mutating func nextAction() -> Action {
        switch state {
        case .closing:
            return .close
        case .streaming, .awaiting:
            return .wait
        case .open:
            if let event = parser.next() {
                switch event {
                case .continueExpected:
                    return peerClosed ? nextAction() : .sendContinue
                case .request(let request, let keepAlive):
                    requestsHandled += 1
                    let keep = keepAlive && !draining
                    if !keep { state = .closing }
                    return .handle(request, keepAlive: keep)
                case .error(let error):
                    state = .closing
                    return .sendError(error)
                }
            }
            // A request that is incomplete when the peer stops sending is never handled.
            if peerClosed || (draining && !parser.hasPartialRequest) {
                state = .closing
                return .close
            }
            return .wait
        }
    }

    /// The peer closed its sending side (read returned 0).
    mutating func peerDidClose() {
        peerClosed = true
    }

    /// The handler's response said `Connection: close`.
    mutating func closeAfterResponse() {
        state = .closing
    }

    /// A streaming response began; `keepAliveAfter` says whether requests may follow its end.
    mutating func streamStarted(keepAliveAfter: Bool) {
        state = .streaming(keepAliveAfter: keepAliveAfter && state != .closing)
    }

    /// The handler will answer later (``HTTPResponder``).
    mutating func awaitResponse() {
        if state == .open { state = .awaiting }
    }

    /// The later answer was written; requests pipelined behind it may follow.
    mutating func responseGiven() {
        if state == .awaiting { state = .open }
    }

    /// The stream ended; `clean` is false when its framing could not be completed.
    mutating func streamEnded(clean: Bool) {
        if case .streaming(let keep) = state, keep, clean, !draining {
            state = .open
        } else {
            state = .closing
        }
    }

    /// The deadline for the current phase passed. Returns the error to answer, if any.
    mutating func timedOut() -> Action {
        let partial = parser.hasPartialRequest
        state = .closing
        return partial ? .sendError(.requestTimeout) : .close
    }

    /// Graceful shutdown: finish the request in progress, accept no new ones.
    mutating func drain() {
        draining = true
    }
}
