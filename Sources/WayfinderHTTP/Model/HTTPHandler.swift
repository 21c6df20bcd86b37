/// Answers requests. Called synchronously on the connection's event-loop thread, so it
/// must not block for long; a thrown error becomes `500 internal` and the connection lives on.
public protocol HTTPHandler: Sendable {
    func handle(_ request: HTTPRequest) throws -> HTTPResponse

    /// Called instead of answering `413` when a request's body is refused as too large, with the
    /// request's head (and an empty body): a handler whose contract checks other things first
    /// (an unknown path, a wrong method, credentials) answers those here; `nil` keeps the `413`.
    /// The body is never read and the connection closes either way.
    func answerWithoutBody(_ head: HTTPRequest) -> HTTPResponse?
}

extension HTTPHandler {
    public func answerWithoutBody(_ head: HTTPRequest) -> HTTPResponse? { nil }
}

/// A handler made from a closure (tests, small servers).
public struct HTTPClosureHandler: HTTPHandler {
    let body: @Sendable (HTTPRequest) throws -> HTTPResponse

    public init(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) { self.body = body }

    public func handle(_ request: HTTPRequest) throws -> HTTPResponse { try body(request) }
}
