/// A pure, incremental HTTP/1.1 request parser (RFC 9112): bytes in, events out.
///
/// Feed bytes with `append`, then call `next()` until it returns nil (more bytes needed).
/// The parser never touches sockets or clocks, so it can be tested a byte at a time.
///
/// - Important: it rejects everything that enables request smuggling (see
///   `HTTPRequestParser+Head.swift`); after an error it stays failed, and the connection must close.
public struct HTTPRequestParser: Sendable {
    enum State: Sendable {
        case head
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case failed(HTTPError)
    }

    /// Incremental scan of the head; offsets are relative to `start`.
    struct HeadScan: Sendable {
        var scanned = 0
        var lineStart = 0
        var requestLineEnd = -1
        var fieldLines = 0
    }

    /// The limits this parser enforces.
    public let limits: HTTPParserLimits
    /// Copied into every request's `remoteAddress`.
    public var remoteAddress = ""
    var state: State = .head
    var buffer: [UInt8] = []
    /// First unconsumed byte of `buffer`.
    var start = 0
    var scan = HeadScan()
    /// Resume offset (relative to `start`) for line searches in chunked framing.
    var lineScan = 0
    var requestLine: RequestLine?
    var pending: HTTPRequest?
    /// The head of a request whose body was refused as too large (its body is empty), so the
    /// handler can answer a check that comes before the body (see `HTTPHandler.answerWithoutBody`).
    public internal(set) var oversizedHead: HTTPRequest?
    var pendingKeepAlive = true
    var continuePending = false
    var body: [UInt8] = []
    var trailerBytes = 0
    var trailerCount = 0

    /// A parser waiting for a request's first byte.
    public init(limits: HTTPParserLimits = HTTPParserLimits()) {
        self.limits = limits
    }

    /// Whether bytes of an unfinished request are buffered (or the parser failed).
    public var hasPartialRequest: Bool {
        if case .head = state { return buffer.count > start }
        return true
    }

    /// Whether the head of the current request is complete and its body is being read.
    public var isReadingBody: Bool {
        switch state {
        case .fixedBody, .chunkSize, .chunkData, .chunkDataEnd, .trailers: true
        case .head, .failed: false
        }
    }

    /// Bytes buffered but not yet consumed.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Buffers `bytes` (read from a socket into a buffer it owns); ``next()`` parses them.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Buffers `bytes`; ``next()`` parses them.
    public mutating func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Drops consumed bytes; offsets in `scan` and `lineScan` are relative to `start`, so stay valid.
    mutating func compact() {
        if start == 0 { return }
        if start == buffer.count {
            // Keep a small buffer for the next request; give back what a large body needed.
            if buffer.capacity > 64 * 1024 {
                buffer = []
            } else {
                buffer.removeAll(keepingCapacity: true)
            }
            start = 0
        } else if start >= 4096 && start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }

    /// The next event, or nil when more bytes are needed.
    public mutating func next() -> HTTPParserEvent? {
        do throws(HTTPError) {
            return try step()
        } catch {
            state = .failed(error)
            return .error(error)
        }
    }

    mutating func step() throws(HTTPError) -> HTTPParserEvent? {
        while true {
            switch state {
            case .failed(let error):
                return .error(error)
            case .head:
                guard try scanHead() else { return nil }
                if continuePending {
                    continuePending = false
                    return .continueExpected
                }
            case .fixedBody(let remaining):
                let n = min(remaining, buffer.count - start)
                if n > 0 {
                    body.append(contentsOf: buffer[start..<(start + n)])
                    start += n
                }
                if n < remaining {
                    state = .fixedBody(remaining: remaining - n)
                    return nil
                }
                return finishRequest()
            case .chunkSize:
                guard try readChunkSizeLine() else { return nil }
            case .chunkData(let remaining):
                let n = min(remaining, buffer.count - start)
                if n > 0 {
                    body.append(contentsOf: buffer[start..<(start + n)])
                    start += n
                }
                if n < remaining {
                    state = .chunkData(remaining: remaining - n)
                    return nil
                }
                state = .chunkDataEnd
            case .chunkDataEnd:
                if buffer.count - start < 2 { return nil }
                guard buffer[start] == ASCII.cr, buffer[start + 1] == ASCII.lf else {
                    throw .badRequest("Chunk data is not followed by CRLF.")
                }
                start += 2
                state = .chunkSize
            case .trailers:
                guard try readTrailerLine() else { return nil }
                if case .head = state { return finishRequest() }
            }
        }
    }

    mutating func finishRequest() -> HTTPParserEvent {
        // Moved out of `pending` (no copy of its fields), as is the body.
        var taken: HTTPRequest?
        swap(&taken, &pending)
        guard var request = taken else {
            // Unreachable: a body is only read after its head set `pending`.
            let error = HTTPError.badRequest("The request has no head.")
            state = .failed(error)
            return .error(error)
        }
        swap(&request.body, &body)
        state = .head
        return .request(request, keepAlive: pendingKeepAlive)
    }
}
