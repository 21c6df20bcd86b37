/// Size limits the parser enforces while bytes arrive (docs/limits.md).
public struct HTTPParserLimits: Sendable, Hashable {
    /// Request line, CRLF excluded; longer gives `414`.
    public var maxRequestLineBytes: Int
    /// The header section after the request line (and separately the trailers); larger gives `431`.
    public var maxHeaderBytes: Int
    /// Header fields (and separately trailer fields); more gives `431`.
    public var maxHeaderCount: Int
    /// Decoded body; larger gives `413`, before reading it when Content-Length says so.
    public var maxBodyBytes: Int

    /// Limits; the defaults are those of docs/limits.md.
    public init(
        maxRequestLineBytes: Int = 8192, maxHeaderBytes: Int = 16384,
        maxHeaderCount: Int = 100, maxBodyBytes: Int = 1 << 20
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }
}

/// What the parser produces from the bytes it has been given.
public enum HTTPParserEvent: Sendable, Equatable {
    /// A complete request. `keepAlive` is false when the request asked for the connection to close
    /// (HTTP/1.1 `Connection: close`, or HTTP/1.0 without `Connection: keep-alive`).
    case request(HTTPRequest, keepAlive: Bool)
    /// The head of a request with `Expect: 100-continue` is complete and its body has not arrived:
    /// send `100 Continue` (RFC 9110 §10.1.1). The request itself follows later.
    case continueExpected
    /// The bytes are not acceptable HTTP; answer the error and close. Sticky: the parser stays failed.
    case error(HTTPError)
}
