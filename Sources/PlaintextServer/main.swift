import Glibc
import WayfinderHTTP

/// Benchmark server: answers every request with a fixed plain-text 200 body.
///
/// Flags: --port N (default 8080), --host H (127.0.0.1), --threads N (core count), --bytes N (13).
struct PlaintextHandler: HTTPHandler {
    let body: [UInt8]
    func handle(_ request: HTTPRequest) throws -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: body)
    }
}

var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 8080)
// Every connection of a benchmark comes from one address: no per-address share.
configuration.maxConnectionsPerAddress = nil
var size = 13
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else { fatalError("missing value for \(flag)") }
    switch flag {
    case "--port": configuration.port = Int(value) ?? 8080
    case "--host": configuration.host = value
    case "--threads": configuration.threads = Int(value) ?? configuration.threads
    case "--bytes": size = Int(value) ?? 13
    default: fatalError("unknown flag \(flag)")
    }
}
let pattern = Array("Hello, World!".utf8)
let body = (0..<size).map { pattern[$0 % pattern.count] }
let server = HTTPServer(configuration: configuration, handler: PlaintextHandler(body: body))
try server.start()
print("PlaintextServer listening on \(configuration.host):\(server.boundPort) with \(configuration.threads) threads, \(size)-byte body")
fflush(nil)
server.waitUntilStopped()
