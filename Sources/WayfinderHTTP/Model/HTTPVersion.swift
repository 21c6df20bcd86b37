/// The protocol versions this server speaks (RFC 9112 §2.3).
public enum HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    /// HTTP/1.0: the connection closes after the answer unless the request asked to keep it alive.
    case http1_0
    /// HTTP/1.1: connections are kept alive unless the request says `Connection: close`.
    case http1_1

    public var description: String { self == .http1_0 ? "HTTP/1.0" : "HTTP/1.1" }
}
