/// Answers requests. Called synchronously on the connection's event-loop thread, so it
/// must not block for long; a thrown error becomes `500 internal` and the connection lives on.
public protocol HTTPHandler: Sendable {
    func handle(_ request: HTTPRequest) throws -> HTTPResponse
}

/// A handler made from a closure (tests, small servers).
public struct HTTPClosureHandler: HTTPHandler {
    let body: @Sendable (HTTPRequest) throws -> HTTPResponse

    public init(_ body: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) { self.body = body }

    public func handle(_ request: HTTPRequest) throws -> HTTPResponse { try body(request) }
}
