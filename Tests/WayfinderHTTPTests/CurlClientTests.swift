import Dispatch
import Foundation
import Synchronization
import Testing
import WayfinderHTTP
import WayfinderLiveTesting

/// The server through a real HTTP client (libcurl).
@Suite struct CurlClientTests {
    @Test func oneHandleReusesItsConnection() throws {
        try withServer(handler: echoHandler) { _, port in
            let client = CurlClient()
            var ports: Set<Int> = []
            for i in 0..<5 {
                let r = try client.request("GET", "http://127.0.0.1:\(port)/n/\(i)")
                #expect(r.status == 200)
                #expect(r.text == "GET /n/\(i)")
                #expect(r.newConnections == (i == 0 ? 1 : 0))
                ports.insert(r.localPort)
            }
            #expect(ports.count == 1)
        }
    }

    @Test func aSequenceOfMixedRequestsOnOneConnection() throws {
        try withServer(handler: echoHandler) { _, port in
            let client = CurlClient()
            let url = "http://127.0.0.1:\(port)"
            #expect(try client.request("POST", url + "/p", body: Array("one".utf8)).text == "one")
            #expect(try client.request("HEAD", url + "/h").header("Content-Length") == "7")
            #expect(try client.request("PUT", url + "/q", upload: .chunked([Array("a".utf8), Array("bc".utf8)])).text == "abc")
            #expect(try client.request("DELETE", url + "/d").text == "DELETE /d")
            let last = try client.request("GET", url + "/g")
            #expect(last.text == "GET /g")
            #expect(last.newConnections == 0)
        }
    }

    @Test func chunkedUploadsAreDecoded() throws {
        let seen = Mutex<[String?]>([])
        try withServer(handler: { request in
            seen.withLock { $0.append(request.headers["Transfer-Encoding"]) }
            return try echoHandler(request)
        }) { _, port in
            let chunks = (0..<50).map { i in Array(repeating: UInt8(65 + i % 26), count: 1000 + i) }
            let r = try CurlClient().request("POST", "http://127.0.0.1:\(port)/up", upload: .chunked(chunks))
            #expect(r.status == 200)
            #expect(r.body == chunks.flatMap { $0 })
            #expect(seen.withLock { $0 } == ["chunked"])
        }
    }

    @Test func expectContinueGets100BeforeTheBody() throws {
        try withServer(handler: echoHandler) { _, port in
            let body = Array(repeating: UInt8(7), count: 300_000)
            let r = try CurlClient().request("POST", "http://127.0.0.1:\(port)/c", upload: .bytes(body), expectContinue: true)
            #expect(r.statusLines.first == "HTTP/1.1 100 Continue")
            #expect(r.status == 200)
            #expect(r.body == body)
        }
    }

    @Test func headHasTheLengthOfGetAndNoBody() throws {
        let payload = Array(repeating: UInt8(1), count: 12345)
        try withServer(handler: { _ in HTTPResponse(status: 200, body: payload) }) { _, port in
            let client = CurlClient()
            let head = try client.request("HEAD", "http://127.0.0.1:\(port)/")
            #expect(head.header("Content-Length") == "12345")
            #expect(head.body.isEmpty)
            let get = try client.request("GET", "http://127.0.0.1:\(port)/")
            #expect(get.body == payload)
            #expect(get.newConnections == 0)
        }
    }

    @Test func largeResponsesArriveIntact() throws {
        let payload = (0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        try withServer(handler: { _ in HTTPResponse(status: 200, body: payload) }) { _, port in
            let client = CurlClient()
            for _ in 0..<2 {
                let r = try client.request("GET", "http://127.0.0.1:\(port)/big")
                #expect(r.body.count == payload.count)
                #expect(r.body == payload)
            }
        }
    }

    @Test func http10ThroughCurl() throws {
        try withServer(handler: echoHandler) { _, port in
            let r = try CurlClient().request("GET", "http://127.0.0.1:\(port)/ten", http10: true)
            #expect(r.statusLines.first?.hasPrefix("HTTP/1.1 200") == true)
            #expect(r.text == "GET /ten")
        }
    }

    /// Under the whole suite's load on two cores a first request can wait many seconds for its
    /// threads: the clients get 45 s a transfer, and a failed one says why.
    @Test(.timeLimit(.minutes(2)))
    func twoHundredConcurrentConnections() throws {
        let count = 200
        try withServer(handler: echoHandler) { server, port in
            let arrived = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let finished = DispatchGroup()
            let results = Mutex<[Int: (String, String, Int)]>([:])
            for i in 0..<count {
                finished.enter()
                let thread = Thread {
                    defer { finished.leave() }
                    let client = CurlClient(timeoutMilliseconds: 45_000)
                    let first = Result { try client.request("GET", "http://127.0.0.1:\(port)/first/\(i)") }
                    arrived.signal()
                    _ = release.waitSafely(seconds: 30)
                    let second = Result { try client.request("POST", "http://127.0.0.1:\(port)/second", body: Array("\(i)".utf8)) }
                    results.withLock { $0[i] = (Self.text(first), Self.text(second), (try? second.get())?.newConnections ?? -1) }
                }
                thread.stackSize = 1 << 20
                thread.start()
            }
            for _ in 0..<count { #expect(arrived.waitSafely(seconds: 30)) }
            #expect(server.openConnections == count)
            for _ in 0..<count { release.signal() }
            #expect(finished.wait(timeout: .now() + 30) == .success)
            let all = results.withLock { $0 }
            #expect(all.count == count)
            for i in 0..<count {
                #expect(all[i]?.0 == "GET /first/\(i)")
                #expect(all[i]?.1 == "\(i)")
                #expect(all[i]?.2 == 0, "connection \(i) was reused")
            }
        }
    }

    /// The response's text, or the failure's description (so a failed transfer says why).
    private static func text(_ result: Result<CurlClient.Response, any Error>) -> String {
        switch result {
        case .success(let response): response.text
        case .failure(let error): "\(error)"
        }
    }
}
