import Dispatch
import Foundation
import Synchronization
import Testing
import WayfinderHTTP
import WayfinderLiveTesting

/// Slow and idle clients are cut off by their deadlines; others are not held up.
@Suite struct TimeoutTests {
    @Test(.timeLimit(.minutes(1)))
    func aClientTricklingHeadersIsCutOffWhileOthersAreServed() throws {
        let handled = Counter()
        try withServer(configure: { $0.headerTimeout = .milliseconds(400); $0.threads = 1 }, handler: { request in
            if request.path == "/slow" { handled.increment() }
            return try echoHandler(request)
        }) { _, port in
            let slow = try RawClient(port: port)
            let request = Array("GET /slow HTTP/1.1\r\nHost: h\r\nX-Padding: \(String(repeating: "x", count: 500))\r\n\r\n".utf8)
            let servedWhileTrickling = Mutex(0)
            let stop = Atomic<Bool>(false)
            let otherDone = DispatchSemaphore(value: 0)
            // Another client keeps being served normally while the slow one trickles (same loop).
            Thread {
                let client = CurlClient()
                while !stop.load(ordering: .relaxed) {
                    if let r = try? client.request("GET", "http://127.0.0.1:\(port)/fast"), r.text == "GET /fast" {
                        servedWhileTrickling.withLock { $0 += 1 }
                    }
                    usleep(20_000)
                }
                otherDone.signal()
            }.start()
            var sent = 0
            // One byte every 20 ms: the whole head would take about 11 s, far past the timeout.
            while sent < request.count - 1 && !slow.hasIncomingData() && slow.send([request[sent]]) {
                sent += 1
                usleep(20_000)
            }
            // The server answers 408 and closes; we may notice during or right after trickling.
            let response = try slow.readResponse()
            #expect(response.statusLine == "HTTP/1.1 408 Request Timeout")
            #expect(response.text.contains("\"code\":\"request_timeout\""))
            #expect(slow.isClosedByPeer())
            stop.store(true, ordering: .relaxed)
            #expect(otherDone.waitSafely())
            #expect(servedWhileTrickling.withLock { $0 } > 0)
            #expect(sent < request.count - 1, "cut off before the head was complete")
            #expect(handled.count == 0, "the slow request never reached the handler")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aStalledBodyTimesOutWith408() throws {
        let handled = Counter()
        try withServer(configure: { $0.bodyTimeout = .milliseconds(300) }, handler: { request in
            handled.increment()
            return try echoHandler(request)
        }) { _, port in
            let client = try RawClient(port: port)
            client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc")
            let response = try client.readResponse()
            #expect(response.statusLine == "HTTP/1.1 408 Request Timeout")
            #expect(client.isClosedByPeer())
            #expect(handled.count == 0)
        }
    }

    /// Every byte used to push the body's deadline forward, so a trickle held its connection for
    /// ever; now the bytes must average the minimum rate once the body timeout has passed.
    @Test(.timeLimit(.minutes(1)))
    func aTricklingBodyIsCutOffAtTheMinimumRate() throws {
        let handled = Counter()
        try withServer(configure: { $0.bodyTimeout = .milliseconds(400); $0.minBodyBytesPerSecond = 1000 }, handler: { request in
            handled.increment()
            return try echoHandler(request)
        }) { _, port in
            let client = try RawClient(port: port)
            client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 100000\r\n\r\n")
            // One byte every 20 ms (50 bytes a second): 150 bytes would take 3 s.
            var sent = 0
            while sent < 150 && !client.hasIncomingData() && client.send([UInt8(ascii: "x")]) {
                sent += 1
                usleep(20_000)
            }
            let response = try client.readResponse()
            #expect(response.statusLine == "HTTP/1.1 408 Request Timeout")
            #expect(response.text.contains("\"code\":\"request_timeout\""))
            #expect(client.isClosedByPeer())
            #expect(sent < 150, "cut off while still trickling")
            #expect(handled.count == 0)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aSlowButSteadyBodyIsAccepted() throws {
        try withServer(configure: { $0.bodyTimeout = .milliseconds(200); $0.minBodyBytesPerSecond = 1000 }, handler: echoHandler) { _, port in
            let client = try RawClient(port: port)
            client.send("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 600\r\n\r\n")
            // 100 bytes every 50 ms (2,000 bytes a second, twice the minimum): 300 ms in all.
            for _ in 0..<6 {
                #expect(client.send(Array(repeating: UInt8(ascii: "y"), count: 100)))
                usleep(50_000)
            }
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.body.count == 600)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func idleKeepAliveConnectionsAreClosed() throws {
        try withServer(configure: { $0.idleTimeout = .milliseconds(300) }, handler: echoHandler) { server, port in
            let client = try RawClient(port: port)
            client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(try client.readResponse().status == 200)
            #expect(client.isClosedByPeer())
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aSilentNewConnectionIsClosedAfterTheHeaderTimeoutWithoutAResponse() throws {
        try withServer(configure: { $0.headerTimeout = .milliseconds(300) }, handler: echoHandler) { _, port in
            let client = try RawClient(port: port)
            #expect(client.isClosedByPeer())
        }
    }
}
