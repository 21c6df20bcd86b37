import Dispatch
import Synchronization
import Testing
import WayfinderHTTP

/// Group commit at the loop: a handler that holds its answers gets them sent only after its
/// `commitHeldAnswers` ran on the loop thread, and a failed commit closes instead of answering.
@Suite struct HeldAnswerTests {
    /// Holds answers; a request to `/fail` makes the commit of its round fail; the commit of the
    /// round that handled `/gated` first signals `entered` and waits for `gate`.
    final class HoldingHandler: HTTPHandler {
        let commits = Atomic<Int>(0)
        let failNextCommit = Atomic<Bool>(false)
        let gated = Atomic<Bool>(false)
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)

        func handle(_ request: HTTPRequest) throws -> HTTPResponse {
            if request.path == "/fail" { failNextCommit.store(true, ordering: .sequentiallyConsistent) }
            if request.path == "/gated" { gated.store(true, ordering: .sequentiallyConsistent) }
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], text: request.target)
        }

        func holdsAnswersUntilCommitted() -> Bool { true }

        func commitHeldAnswers(mark: inout UInt64) -> Bool {
            commits.add(1, ordering: .sequentiallyConsistent)
            if gated.exchange(false, ordering: .sequentiallyConsistent) {
                entered.signal()
                _ = gate.waitSafely()
            }
            return !failNextCommit.exchange(false, ordering: .sequentiallyConsistent)
        }
    }

    private func withHoldingServer(_ handler: HoldingHandler, _ body: (Int) throws -> Void) throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
        configuration.shutdownDeadline = .seconds(2)
        let server = HTTPServer(configuration: configuration, handler: handler)
        try server.start()
        defer {
            handler.gate.signal()
            server.shutdown()
            server.waitUntilStopped()
        }
        try body(server.boundPort)
    }

    @Test func anAnswerIsNotSentBeforeTheCommitOfItsRound() throws {
        let handler = HoldingHandler()
        try withHoldingServer(handler) { port in
            let client = try RawClient(port: port)
            client.send("GET /gated HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(handler.entered.waitSafely(), "the loop commits after handling the request")
            // The loop thread is inside the commit of the round that built the answer: it must
            // not be on the wire yet.
            #expect(!client.hasIncomingData())
            handler.gate.signal()
            #expect(try client.readResponse().text == "/gated")
        }
    }

    @Test func aFailedCommitClosesTheConnectionWithoutAnAnswer() throws {
        let handler = HoldingHandler()
        try withHoldingServer(handler) { port in
            let lost = try RawClient(port: port)
            lost.send("GET /fail HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(lost.isClosedByPeer(), "no answer reports a write that was rolled back")
            // Later rounds commit and answer as usual.
            let next = try RawClient(port: port)
            next.send("GET /after HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try next.readResponse().text == "/after")
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrderAcrossCommits() throws {
        let handler = HoldingHandler()
        try withHoldingServer(handler) { port in
            let client = try RawClient(port: port)
            let targets = (0..<50).map { "/p\($0)" }
            client.send(targets.map { "GET \($0) HTTP/1.1\r\nHost: h\r\n\r\n" }.joined())
            for target in targets {
                #expect(try client.readResponse().text == target)
            }
            #expect(handler.commits.load(ordering: .sequentiallyConsistent) >= 1)
        }
    }
}
