import Glibc

/// The parsed request line (RFC 9112 §3).
struct RequestLine: Sendable {
    var method: String
    var target: String
    var path: String
    var query: String?
    var version: HTTPVersion
}

extension HTTPRequestParser {
    /// Scans for the end of the head; returns true once a request head was parsed and `state`
    /// moved on to its body. Limits are checked while the head is still incomplete.
    mutating func scanHead() throws(HTTPError) -> Bool {
        while true {
            let avail = buffer.count - start
            if scan.scanned >= avail { break }
            guard let lf = findLF(from: start + scan.scanned) else {
                scan.scanned = avail
                break
            }
            let lfOffset = lf - start
            if lfOffset == scan.lineStart || buffer[lf - 1] != ASCII.cr {
                throw .badRequest("Line ends in a bare LF; CRLF is required.")
            }
            let contentEnd = lfOffset - 1
            if scan.requestLineEnd < 0 {
                if contentEnd == scan.lineStart {
                    // RFC 9112 §2.2: ignore empty lines received before the request line.
                    start += lfOffset + 1
                    scan = HeadScan()
                    continue
                }
                if contentEnd - scan.lineStart > limits.maxRequestLineBytes { throw .uriTooLong }
                requestLine = try buffer.withUnsafeBufferPointer { buf throws(HTTPError) in
                    try Self.parseRequestLine(buf, start..<(start + contentEnd))
                }
                scan.requestLineEnd = lfOffset + 1
            } else if contentEnd == scan.lineStart {
                let headStart = start
                let headEnd = start + lfOffset + 1
                let requestLineEnd = start + scan.requestLineEnd
                let fieldCount = scan.fieldLines
                start = headEnd
                scan = HeadScan()
                try parseFields(headStart: headStart, fieldsStart: requestLineEnd, fieldsEnd: headEnd - 2, fieldCount: fieldCount)
                return true
            } else {
                scan.fieldLines += 1
                if scan.fieldLines > limits.maxHeaderCount { throw .headersTooLarge }
            }
            scan.lineStart = lfOffset + 1
            scan.scanned = lfOffset + 1
            if scan.lineStart - scan.requestLineEnd > limits.maxHeaderBytes { throw .headersTooLarge }
        }
        let avail = buffer.count - start
        if scan.requestLineEnd < 0 {
            if avail - scan.lineStart > limits.maxRequestLineBytes + 1 { throw .uriTooLong }
        } else if avail - scan.requestLineEnd > limits.maxHeaderBytes + 2 {
            throw .headersTooLarge
        }
        return false
    }

    /// Index of the next LF at or after `from`, or nil (libc's `memchr`: a head is scanned a
    /// vector at a time, not a byte at a time).
    func findLF(from: Int) -> Int? {
        buffer.withUnsafeBufferPointer { Self.firstLF(in: $0, from: from, to: $0.count) }
    }

    /// Index of the first LF in `from..<to` of `buf`, or nil.
    static func firstLF(in buf: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let base = buf.baseAddress else { return nil }
        guard let found = memchr(base + from, Int32(ASCII.lf), to - from) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    static func string(_ buf: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: buf[range]), as: UTF8.self)
    }

    /// method SP request-target SP HTTP-version (RFC 9112 §3), single spaces, no CTLs.
    static func parseRequestLine(_ buf: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) throws(HTTPError) -> RequestLine {
        var i = line.lowerBound
        while i < line.upperBound, ASCII.isToken(buf[i]) { i += 1 }
        guard i > line.lowerBound else { throw .badRequest("The method is not a token.") }
        guard i < line.upperBound else { throw .badRequest("The request line has no target and no HTTP version.") }
        guard buf[i] == ASCII.sp else { throw .badRequest("The method is not a token.") }
        let method = string(buf, line.lowerBound..<i)
        let targetStart = i + 1
        var j = targetStart
        while j < line.upperBound, ASCII.isTargetByte(buf[j]) { j += 1 }
        guard j > targetStart else { throw .badRequest("The request target is empty or starts with whitespace.") }
        guard j < line.upperBound else { throw .badRequest("The request line has no HTTP version.") }
        guard buf[j] == ASCII.sp else { throw .badRequest("The request target contains a control character or non-ASCII byte.") }
        let version = try parseVersion(buf, (j + 1)..<line.upperBound)
        let (target, path, query) = try normaliseTarget(buf, targetStart..<j, method: method)
        return RequestLine(method: method, target: target, path: path, query: query, version: version)
    }

    /// HTTP-version = "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3).
    static func parseVersion(_ buf: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) throws(HTTPError) -> HTTPVersion {
        let b = r.lowerBound
        guard r.count == 8, buf[b] == UInt8(ascii: "H"), buf[b + 1] == UInt8(ascii: "T"), buf[b + 2] == UInt8(ascii: "T"),
            buf[b + 3] == UInt8(ascii: "P"), buf[b + 4] == UInt8(ascii: "/"),
            ASCII.isDigit(buf[r.lowerBound + 5]), buf[r.lowerBound + 6] == UInt8(ascii: "."),
            ASCII.isDigit(buf[r.lowerBound + 7])
        else {
            if r.contains(where: { buf[$0] == ASCII.sp }) {
                throw .badRequest("The request target contains a space.")
            }
            throw .badRequest("The HTTP version is malformed.")
        }
        let major = buf[r.lowerBound + 5] - 48
        let minor = buf[r.lowerBound + 7] - 48
        guard major == 1 else { throw .versionNotSupported }
        return minor == 0 ? .http1_0 : .http1_1
    }

    /// Accepts origin-form, absolute-form (normalised to origin-form) and `*` for OPTIONS.
    static func normaliseTarget(
        _ buf: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, method: String
    ) throws(HTTPError) -> (String, String, String?) {
        var pathStart = r.lowerBound
        if buf[pathStart] == UInt8(ascii: "*") {
            guard r.count == 1, method == "OPTIONS" else { throw .badRequest("Invalid request target.") }
            return ("*", "*", nil)
        }
        if buf[pathStart] != UInt8(ascii: "/") {
            // absolute-form: http[s]://authority[/path][?query]
            var k = r.lowerBound
            while k < r.upperBound, buf[k] != UInt8(ascii: ":") { k += 1 }
            let scheme = r.lowerBound..<k
            guard ASCII.equalsLowercase(buf, scheme, "http") || ASCII.equalsLowercase(buf, scheme, "https"),
                k + 2 < r.upperBound, buf[k + 1] == UInt8(ascii: "/"), buf[k + 2] == UInt8(ascii: "/")
            else { throw .badRequest("Invalid request target.") }
            var a = k + 3
            let authorityStart = a
            while a < r.upperBound, buf[a] != UInt8(ascii: "/"), buf[a] != UInt8(ascii: "?") { a += 1 }
            guard a > authorityStart else { throw .badRequest("The absolute-form target has no authority.") }
            if a == r.upperBound || buf[a] == UInt8(ascii: "?") {
                let rest = string(buf, a..<r.upperBound)
                let target = "/" + rest
                return (target, "/", a == r.upperBound ? nil : String(rest.dropFirst()))
            }
            pathStart = a
        }
        let target = string(buf, pathStart..<r.upperBound)
        var q = pathStart
        while q < r.upperBound, buf[q] != UInt8(ascii: "?") { q += 1 }
        if q == r.upperBound { return (target, target, nil) }
        return (target, string(buf, pathStart..<q), string(buf, (q + 1)..<r.upperBound))
    }
}
