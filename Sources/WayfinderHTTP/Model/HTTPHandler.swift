/// Answers requests. Called synchronously on the connection's event-loop thread, so it
/// must not block for long; a thrown error becomes `500 internal` and the connection lives on.
public protocol HTTPHandler: Sendable {
    /// The answer to `request`; a thrown error becomes `500 internal`.
    func handle(_ request: HTTPRequest) throws -> HTTPResponse

    /// Called instead of answering `413` when a request's body is refused as too large, with the
    /// request's head (and an empty body): a handler whose contract checks other things first
    /// (an unknown path, a wrong method, credentials) answers those here; `nil` keeps the `413`.
    /// The body is never read and the connection closes either way.
    func answerWithoutBody(_ head: HTTPRequest) -> HTTPResponse?

    /// Group commit. Called once on each event-loop thread before it handles anything: true asks
    /// the loop to hold every answer it builds in a round of events (one `epoll_wait`) until
    /// `commitHeldAnswers(mark:)` has run on that thread, so a handler may leave its writes
    /// uncommitted when it returns and commit a whole round's at once. Default false.
    func holdsAnswersUntilCommitted() -> Bool

    /// Called on a loop thread that holds answers, after each round and before any held answer
    /// is sent; `mark` belongs to the loop (it starts at 0; the handler advances it). True sends
    /// the held answers; false means the writes they report were lost: the loop closes those
    /// connections without answering (the clients see the connection end, never a false 2xx).
    func commitHeldAnswers(mark: inout UInt64) -> Bool
}

extension HTTPHandler {
    public func answerWithoutBody(_ head: HTTPRequest) -> HTTPResponse? { nil }
    public func holdsAnswersUntilCommitted() -> Bool { false }
    public func commitHeldAnswers(mark: inout UInt64) -> Bool { true }
}

/// A handler made from a closure (tests, small servers).
public struct HTTPClosureHandler: HTTPHandler {
    let body: @Sendable (HTTPRequest) throws -> HTTPResponse

    /// A handler that answers with `body`.
    public init(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) { self.body = body }

    public func handle(_ request: HTTPRequest) throws -> HTTPResponse { try body(request) }
}
