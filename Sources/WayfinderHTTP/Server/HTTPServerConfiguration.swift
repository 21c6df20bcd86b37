/// Settings of an `HTTPServer`. Durations are `Duration`s; defaults are in docs/limits.md.
public struct HTTPServerConfiguration: Sendable {
    /// Address to bind ("127.0.0.1", "0.0.0.0", "::1", ...).
    public var host: String = "127.0.0.1"
    /// Port to bind; 0 picks an ephemeral port (see `HTTPServer.boundPort`).
    public var port: Int = 0
    /// Event-loop threads; each owns an SO_REUSEPORT listener and its connections.
    public var threads: Int = Threads.processorCount
    /// Longest request line, CRLF excluded (``HTTPParserLimits/maxRequestLineBytes``).
    public var maxRequestLineBytes: Int = 8192
    /// Largest header section (``HTTPParserLimits/maxHeaderBytes``).
    public var maxHeaderBytes: Int = 16384
    /// Most header fields (``HTTPParserLimits/maxHeaderCount``).
    public var maxHeaderCount: Int = 100
    /// Largest decoded body (``HTTPParserLimits/maxBodyBytes``).
    public var maxBodyBytes: Int = 1 << 20
    /// A request's head must be complete this long after its first byte (or after accept).
    public var headerTimeout: Duration = .seconds(10)
    /// A body must be complete this long after its head, plus the time the bytes received so far
    /// take at `minBodyBytesPerSecond` (so a slow but steady upload goes on, and a trickle of a
    /// few bytes a second is cut off with `408`); a response the peer is reading must keep
    /// moving: at most this long without progress.
    public var bodyTimeout: Duration = .seconds(10)
    /// The slowest average rate, in bytes per second, at which a body may arrive once
    /// `bodyTimeout` has passed (see `bodyTimeout`).
    public var minBodyBytesPerSecond: Int = 1024
    /// Idle keep-alive connections are closed after this long.
    public var idleTimeout: Duration = .seconds(60)
    /// Connections beyond this count (all loops together) are closed right after accept.
    public var maxConnections: Int = 10000
    /// Connections one client address (an IPv6 address by its /64) may hold; one more is closed
    /// right after accept, and while more than nine tenths of `maxConnections` are open only
    /// addresses that hold fewer than a quarter of that last tenth are accepted (a new client always gets a place). Peers in
    /// `trustedProxies` carry many clients and are not counted. Nil: no per-address limit.
    public var maxConnectionsPerAddress: Int? = 256
    /// The proxies in front of the server (the API reads the client's address from their
    /// header, see `APIConfiguration.clientAddressHeader`).
    public var trustedProxies: [AddressRange] = []
    /// `shutdown()` closes whatever is still open after this long.
    public var shutdownDeadline: Duration = .seconds(10)
    /// After an error response or `Connection: close`, unread input is drained this long before closing,
    /// so that the peer reads the response instead of a reset.
    public var lingerTimeout: Duration = .seconds(2)
    /// Largest amount of unsent response bytes per connection before its reads pause (pipelining).
    public var maxPendingOutputBytes: Int = 4 << 20
    /// Largest amount of unsent bytes per event stream (queued by its writer or waiting for the
    /// peer) before the stream is ended: a peer that does not read costs at most this much (or
    /// one event, if a single event is larger).
    public var maxStreamBufferBytes: Int = 256 << 10

    /// The defaults.
    public init() {}

    /// The defaults, but for where to listen and how many loops (nil: one per core).
    public init(host: String = "127.0.0.1", port: Int = 0, threads: Int? = nil) {
        self.host = host
        self.port = port
        if let threads { self.threads = threads }
    }

    var parserLimits: HTTPParserLimits {
        HTTPParserLimits(
            maxRequestLineBytes: maxRequestLineBytes, maxHeaderBytes: maxHeaderBytes,
            maxHeaderCount: maxHeaderCount, maxBodyBytes: maxBodyBytes)
    }
}
