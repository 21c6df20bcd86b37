/// What a handler answers.
///
/// The server adds `Date`, `Content-Length` (non-streaming bodies) or chunked framing
/// (streams on HTTP/1.1), and `Connection`; handler values for those are replaced.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields (the server sets the framing ones, see above).
    public var headers: HTTPHeaders
    /// The body: bytes, a stream, or an answer given later.
    public var body: HTTPBody

    /// A response with a body of bytes.
    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// A UTF-8 text body.
    public init(status: Int, headers: HTTPHeaders = [:], text: String) {
        self.init(status: status, headers: headers, body: Array(text.utf8))
    }

    /// A streaming response (for server-sent events): the server sends the head, then calls
    /// `stream` on the loop thread with a writer that can be used from any thread.
    public init(
        status: Int, headers: HTTPHeaders = [:],
        stream: @escaping @Sendable (HTTPStreamWriter) -> Void
    ) {
        self.status = status
        self.headers = headers
        self.body = .stream(stream)
    }
}

extension HTTPResponse {
    /// An answer given later: the server calls `start` on the loop thread with a responder that
    /// any thread uses once to send the real answer (see ``HTTPResponder``).
    public static func later(_ start: @escaping @Sendable (HTTPResponder) -> Void) -> HTTPResponse {
        var response = HTTPResponse(status: 200)
        response.body = .later(start)
        return response
    }
}

/// A response body: bytes known up front, a stream written later, or the whole answer later.
public enum HTTPBody: Sendable {
    /// A body known up front, sent with `Content-Length`.
    case bytes([UInt8])
    /// An event stream: the server sends the head, then calls the closure with a writer.
    case stream(@Sendable (HTTPStreamWriter) -> Void)
    /// The answer is not known yet (``HTTPResponse/later(_:)``).
    case later(@Sendable (HTTPResponder) -> Void)
}
