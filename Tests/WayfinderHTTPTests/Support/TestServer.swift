import Dispatch
import Synchronization
import WayfinderHTTP

/// Starts a server on an ephemeral port for one test and stops it afterwards.
func withServer<T>(
    configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    handler: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse,
    _ body: (HTTPServer, Int) throws -> T
) throws -> T {
    var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
    configuration.shutdownDeadline = .seconds(2)
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, handler: HTTPClosureHandler(handler))
    try server.start()
    defer {
        server.shutdown()
        server.waitUntilStopped()
    }
    return try body(server, server.boundPort)
}

/// Answers 200 with "method path" and echoes the body.
let echoHandler: @Sendable (HTTPRequest) throws -> HTTPResponse = { request in
    if request.body.isEmpty {
        return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], text: "\(request.method) \(request.target)")
    }
    return HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: request.body)
}

/// A counter shared between a handler and a test.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

/// Waits for a signal with a generous safety timeout; false if it never came.
extension DispatchSemaphore {
    func waitSafely(seconds: Double = 10) -> Bool {
        wait(timeout: .now() + seconds) == .success
    }
}
