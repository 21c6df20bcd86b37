/// Answers requests. Called synchronously on the connection's event-loop thread, so it
/// must not block for long; a thrown error becomes `500 internal` and the connection lives on.
///
/// An answer that waits for something (another server's reply, a commit at the end of the
/// round, an effect) is given later: return ``HTTPResponse/later(_:)`` and answer through the
/// ``HTTPResponder``. IO of the handler's own can run on the request's loop (``HTTPEventLoop``).
public protocol HTTPHandler: Sendable {
    /// The answer to `request`; a thrown error becomes `500 internal`.
    func handle(_ request: HTTPRequest) throws -> HTTPResponse

    /// `handle(_:)` with the event loop the request arrived on, for a handler that does IO on it
    /// or finishes work at the end of its round. Defaults to `handle(_:)`.
    func handle(_ request: HTTPRequest, on loop: HTTPEventLoop) throws -> HTTPResponse

    /// Called instead of answering `413` when a request's body is refused as too large, with the
    /// request's head (and an empty body): a handler whose contract checks other things first
    /// (an unknown path, a wrong method, credentials) answers those here, possibly later; `nil`
    /// keeps the `413`. The body is never read and the connection closes either way.
    func answerWithoutBody(_ head: HTTPRequest, on loop: HTTPEventLoop) -> HTTPResponse?
}

extension HTTPHandler {
    public func handle(_ request: HTTPRequest, on loop: HTTPEventLoop) throws -> HTTPResponse { try handle(request) }
    public func answerWithoutBody(_ head: HTTPRequest, on loop: HTTPEventLoop) -> HTTPResponse? { nil }
}

/// A handler made from a closure (tests, small servers).
public struct HTTPClosureHandler: HTTPHandler {
    let body: @Sendable (HTTPRequest) throws -> HTTPResponse

    /// A handler that answers with `body`.
    public init(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) { self.body = body }

    public func handle(_ request: HTTPRequest) throws -> HTTPResponse { try body(request) }
}
