/// Header fields and message framing (RFC 9112 §5, §6).
extension HTTPRequestParser {
    /// Parses the field lines in `fieldsStart..<fieldsEnd` (each ending in CRLF), decides the
    /// framing, and moves `state` to the body.
    mutating func parseFields(headStart: Int, fieldsStart: Int, fieldsEnd: Int, fieldCount: Int) throws(HTTPError) {
        guard let line = requestLine else { throw .badRequest("No request line.") }
        requestLine = nil
        var headers = HTTPHeaders()
        headers.fields.reserveCapacity(fieldCount)
        var contentLength: Int?
        var transferEncoding: [String] = []
        var transferEncodingPresent = false
        var hostCount = 0
        var connectionClose = false
        var connectionKeepAlive = false
        var expectContinue = false
        try buffer.withUnsafeBufferPointer { buf throws(HTTPError) in
            var ls = fieldsStart
            while ls < fieldsEnd {
                // Every field line ends in CRLF before `fieldsEnd` (checked by `scanHead`).
                guard let le = Self.firstLF(in: buf, from: ls, to: fieldsEnd) else {
                    throw .badRequest("A field line does not end in CRLF.")
                }
                let (name, value) = try Self.parseField(buf, ls..<(le - 1))
                ls = le + 1
                switch name.count {
                case 4 where ASCII.equalsLowercase(buf, name, "host"):
                    hostCount += 1
                    for k in value where !Self.isHostByte(buf[k]) {
                        throw .badRequest("The Host header is malformed.")
                    }
                case 6 where ASCII.equalsLowercase(buf, name, "expect"):
                    if ASCII.equalsLowercase(buf, value, "100-continue") { expectContinue = true }
                case 10 where ASCII.equalsLowercase(buf, name, "connection"):
                    Self.forEachListElement(buf, value) { element in
                        if ASCII.equalsLowercase(buf, element, "close") { connectionClose = true }
                        if ASCII.equalsLowercase(buf, element, "keep-alive") { connectionKeepAlive = true }
                    }
                case 14 where ASCII.equalsLowercase(buf, name, "content-length"):
                    let length = try Self.parseContentLength(buf, value)
                    if let previous = contentLength, previous != length {
                        throw .badRequest("Duplicate Content-Length headers differ.")
                    }
                    contentLength = length
                case 17 where ASCII.equalsLowercase(buf, name, "transfer-encoding"):
                    transferEncodingPresent = true
                    var failed = false
                    Self.forEachListElement(buf, value) { element in
                        var s = ""
                        for k in element { s.unicodeScalars.append(Unicode.Scalar(ASCII.lower(buf[k]))) }
                        if s.utf8.contains(where: { !ASCII.isToken($0) }) { failed = true }
                        transferEncoding.append(s)
                    }
                    if failed { throw .badRequest("The Transfer-Encoding header is malformed.") }
                default:
                    break
                }
                headers.fields.append((name: Self.string(buf, name), value: Self.string(buf, value)))
            }
        }
        if hostCount > 1 { throw .badRequest("More than one Host header.") }
        if hostCount == 0 && line.version == .http1_1 { throw .badRequest("HTTP/1.1 requires a Host header.") }

        var chunked = false
        // A Transfer-Encoding field that names no coding (empty, or only commas) is not a list
        // of codings (RFC 9112 §6.1): framing by Content-Length beside it would let a proxy that
        // reads it differently smuggle a request.
        if transferEncodingPresent && transferEncoding.isEmpty {
            throw .badRequest("The Transfer-Encoding header names no transfer coding.")
        }
        if !transferEncoding.isEmpty {
            if line.version == .http1_0 { throw .badRequest("Transfer-Encoding is not allowed in HTTP/1.0.") }
            if contentLength != nil { throw .badRequest("Both Content-Length and Transfer-Encoding are present.") }
            if transferEncoding.last != "chunked" { throw .badRequest("chunked must be the final transfer coding.") }
            if transferEncoding.dropLast().contains("chunked") { throw .badRequest("chunked is applied more than once.") }
            if let unknown = transferEncoding.first(where: { $0 != "chunked" }) {
                throw .notImplemented("The transfer coding \"\(unknown)\" is not implemented.")
            }
            chunked = true
        }
        let head = HTTPRequest(
            method: line.method, target: line.target, path: line.path, query: line.query,
            version: line.version, headers: headers, remoteAddress: remoteAddress)
        if let contentLength, contentLength > limits.maxBodyBytes {
            oversizedHead = head
            throw .payloadTooLarge
        }
        pending = head
        pendingKeepAlive = line.version == .http1_1 ? !connectionClose : (connectionKeepAlive && !connectionClose)
        body = []
        let bodyExpected = chunked || (contentLength ?? 0) > 0
        continuePending = expectContinue && bodyExpected && line.version == .http1_1 && buffer.count == start
        if chunked {
            state = .chunkSize
            lineScan = 0
            trailerBytes = 0
            trailerCount = 0
        } else {
            if let contentLength, contentLength > 0 { body.reserveCapacity(contentLength) }
            state = .fixedBody(remaining: contentLength ?? 0)
        }
    }

    /// field-line = field-name ":" OWS field-value OWS; returns the name and trimmed value ranges.
    static func parseField(_ buf: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) throws(HTTPError) -> (Range<Int>, Range<Int>) {
        let first = buf[r.lowerBound]
        if first == ASCII.sp || first == ASCII.htab {
            throw .badRequest("Obsolete line folding is not accepted.")
        }
        var i = r.lowerBound
        while i < r.upperBound, ASCII.isToken(buf[i]) { i += 1 }
        guard i < r.upperBound, buf[i] == ASCII.colon, i > r.lowerBound else {
            if i < r.upperBound, i > r.lowerBound, buf[i] == ASCII.sp || buf[i] == ASCII.htab {
                throw .badRequest("Whitespace between a field name and the colon.")
            }
            if i < r.upperBound, buf[i] == ASCII.cr { throw .badRequest("A bare CR in a field line.") }
            throw .badRequest("A field name is not a token.")
        }
        var v = i + 1
        while v < r.upperBound, buf[v] == ASCII.sp || buf[v] == ASCII.htab { v += 1 }
        var e = r.upperBound
        while e > v, buf[e - 1] == ASCII.sp || buf[e - 1] == ASCII.htab { e -= 1 }
        for k in v..<e where !ASCII.isFieldValue(buf[k]) {
            throw .badRequest(buf[k] == ASCII.cr ? "A bare CR in a field value." : "A control character in a field value.")
        }
        return (r.lowerBound..<i, v..<e)
    }

    /// Content-Length = 1*DIGIT; signs, hex, lists and values past 63 bits are errors.
    static func parseContentLength(_ buf: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) throws(HTTPError) -> Int {
        guard !r.isEmpty else { throw .badRequest("Content-Length is empty.") }
        var value = 0
        for k in r {
            let b = buf[k]
            guard ASCII.isDigit(b) else { throw .badRequest("Content-Length is not a decimal number.") }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int(b - 48))
            if o1 || o2 { throw .badRequest("Content-Length overflows.") }
            value = s
        }
        return value
    }

    /// Calls `body` with each non-empty, OWS-trimmed element of a comma-separated list.
    static func forEachListElement(
        _ buf: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, _ body: (Range<Int>) -> Void
    ) {
        var s = r.lowerBound
        while s <= r.upperBound {
            var e = s
            while e < r.upperBound, buf[e] != UInt8(ascii: ",") { e += 1 }
            var a = s
            var b = e
            while a < b, buf[a] == ASCII.sp || buf[a] == ASCII.htab { a += 1 }
            while b > a, buf[b - 1] == ASCII.sp || buf[b - 1] == ASCII.htab { b -= 1 }
            if a < b { body(a..<b) }
            s = e + 1
        }
    }

    /// uri-host [":" port] characters (RFC 3986): unreserved, sub-delims, pct, ':' and IP-literal brackets.
    static func isHostByte(_ b: UInt8) -> Bool {
        if ASCII.isDigit(b) || (b | 0x20 >= 97 && b | 0x20 <= 122) { return true }
        switch b {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
            UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: "%"), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"):
            return true
        default:
            return false
        }
    }
}

extension HTTPRequest {
    init(
        method: String, target: String, path: String, query: String?, version: HTTPVersion,
        headers: HTTPHeaders, remoteAddress: String
    ) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = []
        self.remoteAddress = remoteAddress
    }
}
