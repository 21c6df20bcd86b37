/// The one place that maps `HTTPError` to a status and an RFC 9457 problem body.
extension HTTPError {
    /// The status code of this error.
    public var status: Int {
        switch self {
        case .badRequest: 400
        case .uriTooLong: 414
        case .headersTooLarge: 431
        case .payloadTooLarge: 413
        case .notImplemented: 501
        case .versionNotSupported: 505
        case .requestTimeout: 408
        case .internalError: 500
        case .serviceUnavailable: 503
        }
    }

    /// The machine-readable `code` (docs/api.md, "Errors").
    public var code: String {
        switch self {
        case .badRequest: "bad_request"
        case .uriTooLong: "uri_too_long"
        case .headersTooLarge: "headers_too_large"
        case .payloadTooLarge: "payload_too_large"
        case .notImplemented: "not_implemented"
        case .versionNotSupported: "http_version_not_supported"
        case .requestTimeout: "request_timeout"
        case .internalError: "internal"
        case .serviceUnavailable: "service_unavailable"
        }
    }

    /// The problem's `title`: the status's reason phrase.
    public var title: String { HTTPStatusReason.phrase(status) }

    /// The problem's `detail`: what was wrong with the request, for a person reading the answer.
    public var detail: String {
        switch self {
        case .badRequest(let detail): detail
        case .uriTooLong: "The request line is longer than the server accepts."
        case .headersTooLarge: "The header section is larger or has more fields than the server accepts."
        case .payloadTooLarge: "The request body is larger than the server accepts."
        case .notImplemented(let detail): detail
        case .versionNotSupported: "Only HTTP/1.0 and HTTP/1.1 are supported."
        case .requestTimeout: "The request did not arrive in time."
        case .internalError: "The server failed to handle the request."
        case .serviceUnavailable: "The server cannot handle the request now."
        }
    }

    /// The default answer: `application/problem+json` with type, title, status, code and detail.
    public static func defaultResponse(_ error: HTTPError) -> HTTPResponse {
        var body = "{\"type\":\"about:blank\",\"title\":"
        body += jsonString(error.title)
        body += ",\"status\":\(error.status),\"code\":"
        body += jsonString(error.code)
        body += ",\"detail\":"
        body += jsonString(error.detail)
        body += "}"
        return HTTPResponse(
            status: error.status, headers: ["Content-Type": "application/problem+json"],
            body: Array(body.utf8))
    }

    static func jsonString(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// Reason phrases for status lines and problem titles (RFC 9110 §15).
public enum HTTPStatusReason {
    /// The reason phrase of `status` ("Not Found"); "Status 599" for a code it does not know.
    public static func phrase(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
