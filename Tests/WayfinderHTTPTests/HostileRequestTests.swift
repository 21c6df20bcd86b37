import Testing
import WayfinderHTTP

/// Every malformed or hostile request from issue 3 over a real socket: exact status line,
/// a problem+json body, the connection closed, and the server still answering afterwards.
@Suite struct HostileRequestTests {
    static let cases: [(name: String, request: String, statusLine: String, code: String)] = [
        ("CL and TE", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("differing CLs", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("CL sign", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +3\r\n\r\nabc", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("CL hex", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0x3\r\n\r\nabc", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("CL list", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3,3\r\n\r\nabc", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("CL overflow", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("TE not chunked last", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, identity\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("TE unknown coding", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", "HTTP/1.1 501 Not Implemented", "not_implemented"),
        ("TE empty beside CL", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: \r\nContent-Length: 3\r\n\r\nabc", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("TE comma beside CL", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: ,\r\nContent-Length: 3\r\n\r\nabc", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("obs-fold", "GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n folded\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("whitespace before colon", "GET / HTTP/1.1\r\nHost: h\r\nX-A : 1\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("bare CR", "GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r2\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("name not a token", "GET / HTTP/1.1\r\nHost: h\r\nX{A}: 1\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("chunk size invalid", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("chunk size overflow", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("control char in target", "GET /a\u{7f}b HTTP/1.1\r\nHost: h\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("space in target", "GET /a b HTTP/1.1\r\nHost: h\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("missing Host", "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("duplicate Host", "GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("malformed Host", "GET / HTTP/1.1\r\nHost: a@b\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("HTTP/0.9", "GET /\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("malformed version", "GET / HTTP/1.x\r\nHost: h\r\n\r\n", "HTTP/1.1 400 Bad Request", "bad_request"),
        ("unsupported version", "GET / HTTP/2.0\r\nHost: h\r\n\r\n", "HTTP/1.1 505 HTTP Version Not Supported", "http_version_not_supported"),
        ("request line too long", "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: h\r\n\r\n", "HTTP/1.1 414 URI Too Long", "uri_too_long"),
        ("headers too large", "GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "a", count: 17000) + "\r\n\r\n", "HTTP/1.1 431 Request Header Fields Too Large", "headers_too_large"),
        ("too many headers", "GET / HTTP/1.1\r\nHost: h\r\n" + (0..<101).map { "X-\($0): 1\r\n" }.joined() + "\r\n", "HTTP/1.1 431 Request Header Fields Too Large", "headers_too_large"),
        ("body too large by Content-Length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1048577\r\n\r\n", "HTTP/1.1 413 Content Too Large", "payload_too_large"),
        ("chunked body too large", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n100001\r\n", "HTTP/1.1 413 Content Too Large", "payload_too_large"),
    ]

    @Test(arguments: cases.indices)
    func hostileRequestIsAnsweredAndTheConnectionClosed(_ index: Int) throws {
        let c = Self.cases[index]
        let handled = Counter()
        try withServer(handler: { request in
            handled.increment()
            return try echoHandler(request)
        }) { _, port in
            let client = try RawClient(port: port)
            client.send(c.request)
            let response = try client.readResponse()
            #expect(response.statusLine == c.statusLine, "\(c.name)")
            #expect(response.header("Content-Type") == "application/problem+json", "\(c.name)")
            #expect(response.header("Connection") == "close", "\(c.name)")
            #expect(response.header("Date") != nil, "\(c.name)")
            #expect(response.text.contains("\"code\":\"\(c.code)\""), "\(c.name)")
            #expect(client.isClosedByPeer(), "\(c.name): connection must be closed")
            #expect(handled.count == 0, "\(c.name): never reaches the handler")

            let good = try RawClient(port: port)
            good.send("GET /after HTTP/1.1\r\nHost: h\r\n\r\n")
            let after = try good.readResponse()
            #expect(after.statusLine == "HTTP/1.1 200 OK", "\(c.name): server still answers")
            #expect(after.text == "GET /after")
        }
    }

    @Test func payloadTooLargeIsAnsweredBeforeTheBodyIsSent() throws {
        try withServer(handler: echoHandler) { _, port in
            let client = try RawClient(port: port)
            client.send("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5000000\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.statusLine == "HTTP/1.1 413 Content Too Large")
            #expect(client.isClosedByPeer())
        }
    }

    @Test func incompleteHeadersFromAHalfClosedClientNeverReachTheHandler() throws {
        let handled = Counter()
        try withServer(handler: { request in
            handled.increment()
            return try echoHandler(request)
        }) { _, port in
            let client = try RawClient(port: port)
            client.send("GET /never HTTP/1.1\r\nHost: h\r\n")
            client.shutdownWrite()
            #expect(client.isClosedByPeer())
            let chunked = try RawClient(port: port)
            chunked.send("POST /never HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabc")
            chunked.shutdownWrite()
            #expect(chunked.isClosedByPeer())
            let good = try RawClient(port: port)
            good.send("GET /ok HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try good.readResponse().status == 200)
            #expect(handled.count == 1)
        }
    }

    @Test func aCompleteRequestFromAHalfClosedClientIsStillAnswered() throws {
        try withServer(handler: echoHandler) { _, port in
            let client = try RawClient(port: port)
            client.send("GET /half HTTP/1.1\r\nHost: h\r\n\r\n")
            client.shutdownWrite()
            let response = try client.readResponse()
            #expect(response.text == "GET /half")
            #expect(client.isClosedByPeer())
        }
    }
}
