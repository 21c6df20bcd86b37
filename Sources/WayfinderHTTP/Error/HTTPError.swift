/// The errors the HTTP layer answers itself; none of them ever reaches a handler.
///
/// The mapping to status codes and RFC 9457 problem bodies is in `HTTPError+Problem.swift`.
public enum HTTPError: Error, Sendable, Hashable {
    /// Malformed or ambiguous HTTP (RFC 9112); `detail` says what.
    case badRequest(String)
    /// The request line exceeds its limit.
    case uriTooLong
    /// The header section (or the trailers) exceed the byte or field-count limit.
    case headersTooLarge
    /// The body (declared or received) exceeds its limit.
    case payloadTooLarge
    /// A transfer coding this server does not implement.
    case notImplemented(String)
    /// An HTTP major version other than 1.
    case versionNotSupported
    /// Headers did not arrive in time, or a body stopped moving.
    case requestTimeout
    /// The handler threw.
    case internalError
    /// The server is overloaded or shutting down.
    case serviceUnavailable
}
