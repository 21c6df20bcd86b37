import Dispatch
import Foundation
import Synchronization
import Testing
import WayfinderHTTP
import WayfinderLiveTesting

/// Holds the writer of the one stream a test opens.
final class StreamBox: Sendable {
    let writer = Mutex<HTTPStreamWriter?>(nil)
    let opened = DispatchSemaphore(value: 0)
    let closed = DispatchSemaphore(value: 0)

    var handler: @Sendable (HTTPRequest) throws -> HTTPResponse {
        { request in
            if request.path != "/events" { return try echoHandler(request) }
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"]) { writer in
                self.writer.withLock { $0 = writer }
                writer.onClose { self.closed.signal() }
                self.opened.signal()
            }
        }
    }
}

@Suite struct EventStreamTests {
    @Test(.timeLimit(.minutes(1)))
    func eventsWrittenFromAnotherThreadArriveIncrementally() throws {
        let box = StreamBox()
        try withServer(handler: box.handler) { _, port in
            let received = DispatchSemaphore(value: 0)
            let writerDone = DispatchSemaphore(value: 0)
            let writeResults = Mutex<[Bool]>([])
            // The producer writes event n only after the client has seen event n-1: delivery
            // must be incremental, or this test stalls and fails.
            Thread {
                guard box.opened.waitSafely() else { return }
                let writer = box.writer.withLock { $0 }!
                for n in 1...3 {
                    let ok = writer.write("id: \(n)\ndata: event \(n)\n\n")
                    writeResults.withLock { $0.append(ok) }
                    if !received.waitSafely() { break }
                }
                writerDone.signal()
            }.start()
            var text = ""
            var events = 0
            let client = CurlClient()
            let response = try client.stream("http://127.0.0.1:\(port)/events") { bytes in
                text += String(decoding: bytes, as: UTF8.self)
                while events < text.components(separatedBy: "\n\n").count - 1 {
                    events += 1
                    received.signal()
                }
                return events < 3
            }
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "text/event-stream")
            #expect(response.header("Transfer-Encoding") == "chunked")
            #expect(response.aborted)
            #expect(text == "id: 1\ndata: event 1\n\nid: 2\ndata: event 2\n\nid: 3\ndata: event 3\n\n")
            #expect(writerDone.waitSafely())
            #expect(writeResults.withLock { $0 } == [true, true, true])
            // The client went away: the server notices and runs onClose; later writes fail.
            #expect(box.closed.waitSafely())
            let writer = box.writer.withLock { $0 }!
            #expect(writer.write("data: late\n\n") == false)
            #expect(writer.isClosed)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func closingTheStreamEndsTheResponseAndKeepsTheConnection() throws {
        let box = StreamBox()
        try withServer(handler: box.handler) { _, port in
            Thread {
                guard box.opened.waitSafely() else { return }
                let writer = box.writer.withLock { $0 }!
                writer.write("data: only\n\n")
                writer.close()
            }.start()
            let client = CurlClient()
            var text = ""
            let response = try client.stream("http://127.0.0.1:\(port)/events") { bytes in
                text += String(decoding: bytes, as: UTF8.self)
                return true
            }
            #expect(!response.aborted)
            #expect(text == "data: only\n\n")
            #expect(box.closed.waitSafely())
            let next = try client.request("GET", "http://127.0.0.1:\(port)/after")
            #expect(next.text == "GET /after")
            #expect(next.newConnections == 0)
        }
    }

    /// A client leaves a stream that has gone quiet without waiting for more data: the transfer
    /// ends as aborted, and the server sees the client go.
    @Test(.timeLimit(.minutes(1)))
    func aQuietStreamIsLeftWhenTheClientCancels() throws {
        let box = StreamBox()
        try withServer(handler: box.handler) { _, port in
            Thread {
                guard box.opened.waitSafely() else { return }
                box.writer.withLock { $0 }!.write("data: first\n\n")  // then nothing more
            }.start()
            let received = Atomic<Bool>(false)
            let response = try CurlClient().stream(
                "http://127.0.0.1:\(port)/events", isCancelled: { received.load(ordering: .relaxed) }
            ) { bytes in
                received.store(true, ordering: .relaxed)
                return true
            }
            #expect(response.status == 200)
            #expect(response.aborted)
            #expect(box.closed.waitSafely())
        }
    }

    /// A peer that never reads costs its stream's buffer, not more: writes past the bound end the
    /// stream, and the writer learns it (false) instead of queueing for ever.
    @Test(.timeLimit(.minutes(1)))
    func aPeerThatDoesNotReadHasItsStreamEndedAtTheBufferBound() throws {
        let box = StreamBox()
        try withServer(configure: { $0.maxStreamBufferBytes = 64 << 10 }, handler: box.handler) { _, port in
            let client = try RawClient(port: port)
            client.send("GET /events HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(box.opened.waitSafely())
            let writer = try #require(box.writer.withLock { $0 })
            let event = Array(repeating: UInt8(ascii: "e"), count: 16 << 10)
            var accepted = 0
            // Loopback socket buffers take a few MiB; the bound then ends the stream.
            while accepted < 4096, writer.write(event) {
                accepted += 1
                if accepted % 64 == 0 { usleep(1_000) }
            }
            #expect(accepted < 4096, "64 MiB queued for a peer that reads nothing")
            #expect(box.closed.waitSafely())
            #expect(writer.isClosed)
        }
    }

    @Test func onCloseRegisteredAfterTheEndRunsAtOnce() throws {
        let box = StreamBox()
        try withServer(handler: box.handler) { _, port in
            let client = try RawClient(port: port)
            client.send("GET /events HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(box.opened.waitSafely())
            let writer = box.writer.withLock { $0 }!
            writer.close()
            let response = try client.readResponse()
            #expect(response.body.isEmpty)
            #expect(box.closed.waitSafely())
            let late = DispatchSemaphore(value: 0)
            writer.onClose { late.signal() }
            #expect(late.waitSafely(seconds: 1))
        }
    }
}
