/// Serialises response heads and chunk framing into a byte buffer (RFC 9112 §4, §6, §7).
///
/// The server owns the framing headers: `Date`, `Content-Length`, `Transfer-Encoding` and
/// `Connection` from the handler are replaced (a handler's `Connection: close` is honoured). It
/// marks every answer `X-Content-Type-Options: nosniff` too: a browser takes its `Content-Type`
/// as given and never guesses script or HTML from JSON.
enum ResponseEncoder {
    /// "HTTP/1.1 NNN Reason\r\n" for every status 100...599, built once.
    static let statusLines: [[UInt8]] = (0..<600).map { status in
        Array("HTTP/1.1 \(status) \(HTTPStatusReason.phrase(status))\r\n".utf8)
    }

    /// Framing of the body that follows the head.
    enum Framing {
        case contentLength(Int)
        case chunked
        /// No length: 1xx, 204 and 304, or a close-delimited stream on HTTP/1.0.
        case none
    }

    /// Appends the head; returns false when the handler asked for `Connection: close`.
    @discardableResult
    static func writeHead(
        into out: inout [UInt8], status: Int, headers: HTTPHeaders, framing: Framing,
        keepAlive: Bool, requestVersion: HTTPVersion, date: [UInt8]
    ) -> Bool {
        let line = status >= 100 && status < 600 ? statusLines[status] : statusLines[500]
        out.append(contentsOf: line)
        var keep = keepAlive
        for field in headers {
            let name = field.name.utf8
            switch name.count {
            case 4 where field.name.asciiCaseInsensitiveEquals("date"):
                continue
            case 10 where field.name.asciiCaseInsensitiveEquals("connection"):
                if field.value.utf8.count == 5 && field.value.asciiCaseInsensitiveEquals("close") { keep = false }
                continue
            case 14 where field.name.asciiCaseInsensitiveEquals("content-length"):
                continue
            case 17 where field.name.asciiCaseInsensitiveEquals("transfer-encoding"):
                continue
            case 22 where field.name.asciiCaseInsensitiveEquals("x-content-type-options"):
                continue
            default:
                appendUTF8(field.name, to: &out)
                out.append(ASCII.colon)
                out.append(ASCII.sp)
                appendUTF8(field.value, to: &out)
                out.append(ASCII.cr)
                out.append(ASCII.lf)
            }
        }
        out.append(contentsOf: dateName)
        out.append(contentsOf: date)
        out.append(ASCII.cr)
        out.append(ASCII.lf)
        out.append(contentsOf: noSniff)
        switch framing {
        case .contentLength(let length):
            out.append(contentsOf: contentLengthName)
            appendDecimal(length, to: &out)
            out.append(ASCII.cr)
            out.append(ASCII.lf)
        case .chunked:
            out.append(contentsOf: chunkedHeader)
        case .none:
            break
        }
        if !keep {
            out.append(contentsOf: connectionClose)
        } else if requestVersion == .http1_0 {
            out.append(contentsOf: connectionKeepAlive)
        }
        out.append(ASCII.cr)
        out.append(ASCII.lf)
        return keep
    }

    static let dateName: [UInt8] = Array("Date: ".utf8)
    static let noSniff: [UInt8] = Array("X-Content-Type-Options: nosniff\r\n".utf8)
    static let contentLengthName: [UInt8] = Array("Content-Length: ".utf8)
    static let chunkedHeader: [UInt8] = Array("Transfer-Encoding: chunked\r\n".utf8)
    static let connectionClose: [UInt8] = Array("Connection: close\r\n".utf8)
    static let connectionKeepAlive: [UInt8] = Array("Connection: keep-alive\r\n".utf8)
    static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// Appends a string's UTF-8 in one copy (a `UTF8View` is appended a byte at a time).
    static func appendUTF8(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { out.append(contentsOf: $0) }
    }

    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(48 + value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = value
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            while n > 0 {
                d[count] = UInt8(48 + n % 10)
                n /= 10
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(d[i]) }
        }
    }

    /// Appends one chunk: size in hex, CRLF, data, CRLF.
    static func appendChunk(_ data: [UInt8], to out: inout [UInt8]) {
        guard !data.isEmpty else { return }
        out.append(contentsOf: String(data.count, radix: 16).utf8)
        out.append(ASCII.cr)
        out.append(ASCII.lf)
        out.append(contentsOf: data)
        out.append(ASCII.cr)
        out.append(ASCII.lf)
    }

    /// Whether a response with this status carries no body and no Content-Length (RFC 9110 §8.6).
    static func hasNoContent(_ status: Int) -> Bool {
        status < 200 || status == 204 || status == 304
    }
}
