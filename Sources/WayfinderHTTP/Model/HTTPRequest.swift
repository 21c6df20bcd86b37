/// A complete request as the handler sees it: head plus a fully read (de-chunked) body.
///
/// - Important: a request only exists once its head parsed without error and its body
///   arrived completely; malformed or incomplete requests never reach a handler.
public struct HTTPRequest: Sendable, Equatable {
    /// The method token as sent ("GET", "POST", ...; case-sensitive per RFC 9110 §9.1).
    public var method: String
    /// The request-target in origin-form; absolute-form targets are normalised to origin-form.
    public var target: String
    /// `target` without the query, still percent-encoded.
    public var path: String
    /// The part after the first '?', or nil when there is none.
    public var query: String?
    /// The version from the request line.
    public var version: HTTPVersion
    /// The header fields as received (trailers of a chunked body are not among them).
    public var headers: HTTPHeaders
    /// The body, de-chunked; empty when there is none.
    public var body: [UInt8]
    /// The peer's address, "ip:port".
    public var remoteAddress: String

    /// A request; `path` and `query` are split from `target` (tests build requests this way).
    public init(
        method: String, target: String, version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = [:], body: [UInt8] = [], remoteAddress: String = ""
    ) {
        self.method = method
        self.target = target
        if let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) {
            path = String(target[..<q])
            query = String(target[target.utf8.index(after: q)...])
        } else {
            path = target
            query = nil
        }
        self.version = version
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }
}
