import Dispatch
import Synchronization
import Testing
import WayfinderHTTP

/// Answers given later (`HTTPResponse.later`): the answer comes from another thread, the loop
/// serves everyone else meanwhile, pipelined requests wait their turn, and a client that leaves
/// cancels the responder.
@Suite struct LaterAnswerTests {
    /// `/later/NAME` is answered when the test releases NAME; anything else at once.
    final class LaterHandler: HTTPHandler {
        let responders = Mutex<[String: HTTPResponder]>([:])
        let arrived = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)

        func handle(_ request: HTTPRequest) throws -> HTTPResponse {
            guard request.path.hasPrefix("/later/") else { return HTTPResponse(status: 200, text: "now " + request.path) }
            let name = String(request.path.dropFirst("/later/".count))
            if name == "stream" {
                return .later { $0.respond(HTTPResponse(status: 200, stream: { $0.close() })) }
            }
            return .later { responder in
                responder.onCancel { self.cancelled.signal() }
                self.responders.withLock { $0[name] = responder }
                self.arrived.signal()
            }
        }

        @discardableResult
        func release(_ name: String, _ text: String) -> Bool {
            guard let responder = responders.withLock({ $0.removeValue(forKey: name) }) else { return false }
            return responder.respond(HTTPResponse(status: 201, headers: ["Content-Type": "text/plain"], text: text))
        }
    }

    private func withServer(_ handler: LaterHandler, _ body: (Int) throws -> Void) throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 1)
        configuration.shutdownDeadline = .seconds(2)
        let server = HTTPServer(configuration: configuration, handler: handler)
        try server.start()
        defer {
            server.shutdown()
            server.waitUntilStopped()
        }
        try body(server.boundPort)
    }

    @Test func theLaterAnswerComesFromAnotherThreadAndThePipelinedRequestFollowsIt() throws {
        let handler = LaterHandler()
        try withServer(handler) { port in
            let client = try RawClient(port: port)
            client.send("GET /later/a HTTP/1.1\r\nHost: h\r\n\r\nGET /next HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(handler.arrived.waitSafely())
            #expect(!client.hasIncomingData(), "nothing is answered before the first answer")
            DispatchQueue.global().async { handler.release("a", "later a") }
            let first = try client.readResponse()
            #expect(first.status == 201)
            #expect(first.text == "later a")
            #expect(try client.readResponse().text == "now /next")
        }
    }

    @Test func theLoopServesOtherConnectionsWhileOneWaits() throws {
        let handler = LaterHandler()
        try withServer(handler) { port in
            let waiting = try RawClient(port: port)
            waiting.send("GET /later/b HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(handler.arrived.waitSafely())
            let other = try RawClient(port: port)
            other.send("GET /other HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try other.readResponse().text == "now /other", "the one loop is not blocked")
            #expect(handler.release("b", "later b"))
            #expect(try waiting.readResponse().text == "later b")
        }
    }

    @Test func aClientThatLeavesCancelsTheResponder() throws {
        let handler = LaterHandler()
        try withServer(handler) { port in
            do {
                let client = try RawClient(port: port)  // closed when it goes out of scope
                client.send("GET /later/c HTTP/1.1\r\nHost: h\r\n\r\n")
                #expect(handler.arrived.waitSafely())
            }
            #expect(handler.cancelled.waitSafely(), "the responder learns the client left")
            #expect(!handler.release("c", "too late"))
        }
    }

    @Test func aLaterAnswerToAClosingRequestIsSentBeforeTheConnectionCloses() throws {
        let handler = LaterHandler()
        try withServer(handler) { port in
            let client = try RawClient(port: port)
            client.send("GET /later/d HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            #expect(handler.arrived.waitSafely())
            handler.release("d", "later d")
            let answer = try client.readResponse()
            #expect(answer.text == "later d")
            #expect(answer.header("Connection") == "close")
            #expect(client.isClosedByPeer())
        }
    }

    @Test func aStreamGivenAsALaterAnswerIsA500() throws {
        let handler = LaterHandler()
        try withServer(handler) { port in
            let client = try RawClient(port: port)
            client.send("GET /later/stream HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.readResponse().status == 500)
        }
    }
}
