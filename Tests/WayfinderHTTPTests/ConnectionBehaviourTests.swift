import Dispatch
import Testing
import WayfinderHTTP

/// Persistent connections, pipelining, HTTP/1.0, HEAD, errors from handlers (raw sockets).
@Suite struct ConnectionBehaviourTests {
    @Test func pipelinedRequestsInOneWriteAreAnsweredInOrder() throws {
        try withServer(handler: echoHandler) { _, port in
            let client = try RawClient(port: port)
            client.send("GET /first HTTP/1.1\r\nHost: h\r\n\r\nPOST /second HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nbodyGET /third HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.readResponse().text == "GET /first")
            #expect(try client.readResponse().text == "body")
            #expect(try client.readResponse().text == "GET /third")
        }
    }

    @Test func http10WithoutKeepAliveIsClosedAfterTheResponse() throws {
        try withServer(handler: echoHandler) { _, port in
            let client = try RawClient(port: port)
            client.send("GET /old HTTP/1.0\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.statusLine == "HTTP/1.1 200 OK")
            #expect(response.header("Connection") == "close")
            #expect(response.header("Content-Length") == "8")
            #expect(client.isClosedByPeer())
        }
    }

    @Test func http10WithKeepAliveStaysOpen() throws {
        try withServer(handler: echoHandler) { _, port in
            let client = try RawClient(port: port)
            client.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let first = try client.readResponse()
            #expect(first.header("Connection") == "keep-alive")
            client.send("GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try client.readResponse().text == "GET /b")
        }
    }

    @Test func connectionCloseFromTheClientIsHonoured() throws {
        try withServer(handler: echoHandler) { _, port in
            let client = try RawClient(port: port)
            client.send("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            #expect(try client.readResponse().header("Connection") == "close")
            #expect(client.isClosedByPeer())
        }
    }

    @Test func absoluteFormTargetsAreAccepted() throws {
        try withServer(handler: { request in
            HTTPResponse(status: 200, text: "\(request.target)|\(request.path)|\(request.query ?? "-")")
        }) { _, port in
            let client = try RawClient(port: port)
            client.send("GET http://example.com/abs/path?x=1 HTTP/1.1\r\nHost: example.com\r\n\r\n")
            #expect(try client.readResponse().text == "/abs/path?x=1|/abs/path|x=1")
        }
    }

    @Test func headSendsTheHeadersOfGetWithoutABody() throws {
        try withServer(handler: { _ in HTTPResponse(status: 200, text: "twelve bytes") }) { _, port in
            let client = try RawClient(port: port)
            client.send("HEAD / HTTP/1.1\r\nHost: h\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n")
            let head = try client.readResponse(head: true)
            #expect(head.header("Content-Length") == "12")
            let get = try client.readResponse()
            #expect(get.text == "twelve bytes")
        }
    }

    @Test func aThrowingHandlerGives500AndTheConnectionLivesOn() throws {
        struct Boom: Error {}
        try withServer(handler: { request in
            if request.path == "/boom" { throw Boom() }
            return try echoHandler(request)
        }) { _, port in
            let client = try RawClient(port: port)
            client.send("GET /boom HTTP/1.1\r\nHost: h\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.statusLine == "HTTP/1.1 500 Internal Server Error")
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.text.contains("\"code\":\"internal\""))
            #expect(response.text.contains("\"status\":500"))
            client.send("GET /fine HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.readResponse().text == "GET /fine")
        }
    }

    @Test func everyResponseHasDateAndContentLength() throws {
        try withServer(handler: { _ in HTTPResponse(status: 201, headers: ["Content-Length": "999", "X-A": "b"], text: "abc") }) { _, port in
            let client = try RawClient(port: port)
            client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.statusLine == "HTTP/1.1 201 Created")
            #expect(response.header("Content-Length") == "3")
            #expect(response.header("X-A") == "b")
            let date = try #require(response.header("Date"))
            #expect(HTTPDate.parse(date) != nil)
        }
    }

    @Test func newConnectionsBeyondTheMaximumAreClosedAtOnce() throws {
        try withServer(configure: { $0.maxConnections = 2; $0.maxConnectionsPerAddress = nil; $0.threads = 1 }, handler: echoHandler) { server, port in
            let a = try RawClient(port: port)
            let b = try RawClient(port: port)
            for c in [a, b] {
                c.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                #expect(try c.readResponse().status == 200)
            }
            let third = try RawClient(port: port)
            #expect(third.isClosedByPeer())
            #expect(server.openConnections == 2)
            a.send("GET /still HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try a.readResponse().text == "GET /still")
        }
    }
}
