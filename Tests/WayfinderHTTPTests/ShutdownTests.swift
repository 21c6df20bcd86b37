import Dispatch
import Foundation
import Synchronization
import Testing
import WayfinderHTTP

/// Graceful shutdown: in-flight requests finish, idle connections close, streams end.
@Suite struct ShutdownTests {
    func startServer(
        deadline: Duration = .seconds(5), handler: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse
    ) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
        configuration.shutdownDeadline = deadline
        let server = HTTPServer(configuration: configuration, handler: HTTPClosureHandler(handler))
        try server.start()
        return server
    }

    @Test(.timeLimit(.minutes(1)))
    func inFlightRequestFinishesIdleClosesStreamsEnd() throws {
        let box = StreamBox()
        let server = try startServer(handler: box.handler)
        let port = server.boundPort

        let idle = try RawClient(port: port)
        idle.send("GET /idle HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try idle.readResponse().status == 200)

        let inFlight = try RawClient(port: port)
        inFlight.send("POST /slow HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 6\r\n\r\n")
        // The interim answer proves the server has read the head: the request is in flight.
        #expect(try inFlight.readResponse().statusLine == "HTTP/1.1 100 Continue")
        inFlight.send("abc")

        let stream = try RawClient(port: port)
        stream.send("GET /events HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(box.opened.waitSafely())

        let stopped = DispatchSemaphore(value: 0)
        server.shutdown()
        Thread {
            server.waitUntilStopped()
            stopped.signal()
        }.start()

        #expect(idle.isClosedByPeer(), "idle connection closed")
        let streamed = try #require(try? stream.readResponse(), "stream response")
        #expect(streamed.status == 200, "stream ended with its terminating chunk")
        #expect(box.closed.waitSafely(), "onClose ran")
        #expect(stream.isClosedByPeer())

        inFlight.send("def")
        let finished = try #require(try? inFlight.readResponse(), "in-flight response")
        #expect(finished.text == "abcdef")
        #expect(finished.header("Connection") == "close")
        #expect(inFlight.isClosedByPeer())

        #expect(stopped.waitSafely())
        #expect(server.openConnections == 0)
        #expect((try? RawClient(port: port)) == nil, "no longer accepting")
    }

    @Test(.timeLimit(.minutes(1)))
    func waitUntilStoppedReturnsAtTheDeadlineDespiteAStuckClient() throws {
        let server = try startServer(deadline: .milliseconds(300), handler: echoHandler)
        let stuck = try RawClient(port: server.boundPort)
        stuck.send("POST /never-finished HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 10\r\n\r\n")
        #expect(try stuck.readResponse().status == 100)  // in flight: its body never comes
        server.shutdown()
        server.waitUntilStopped()
        #expect(stuck.isClosedByPeer())
        #expect(server.openConnections == 0)
    }

    @Test func shutdownBeforeStartAndTwiceIsHarmless() throws {
        let server = HTTPServer(handler: HTTPClosureHandler(echoHandler))
        server.shutdown()
        server.waitUntilStopped()
        let running = try startServer(handler: echoHandler)
        running.shutdown()
        running.shutdown()
        running.waitUntilStopped()
        running.waitUntilStopped()
    }
}
