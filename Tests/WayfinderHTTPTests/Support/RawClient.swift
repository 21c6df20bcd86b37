import Glibc

/// A tiny blocking TCP client for hostile-input tests: send exact bytes, read exact bytes.
/// Every read has a receive timeout so a test fails instead of hanging.
final class RawClient {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A parsed response.
    struct Response {
        var statusLine: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]
        var status: Int { Int(statusLine.split(separator: " ")[1]) ?? 0 }
        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    private var closed = false

    /// Connects to `port` on 127.0.0.1 from `source` (another loopback address is another client).
    init(port: Int, source: String = "127.0.0.1", receiveTimeoutSeconds: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket failed") }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            Glibc.close(fd)
            throw Failure(description: "bind to \(source) failed: errno \(errno)")
        }
        var tv = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, 4)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard rc == 0 else {
            Glibc.close(fd)
            throw Failure(description: "connect failed: errno \(errno)")
        }
    }

    deinit { Glibc.close(fd) }

    /// Sends all bytes; false if the peer is gone.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Whether bytes (or EOF) are waiting to be read, without blocking.
    func hasIncomingData() -> Bool {
        if !buffer.isEmpty { return true }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }

    func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more bytes into the buffer: false on EOF, reset or timeout.
    private func fill() -> Bool {
        if closed { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 {
            closed = true
            return false
        }
        buffer.append(contentsOf: chunk[0..<n])
        return true
    }

    private func readLine() throws -> String {
        while true {
            if let i = buffer.firstIndex(of: 10) {
                var line = Array(buffer[..<i])
                buffer.removeFirst(i + 1)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard fill() else { throw Failure(description: "connection ended before a full line") }
        }
    }

    private func readBytes(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard fill() else { throw Failure(description: "connection ended inside a body") }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Reads one response; `head` skips the body (answer to HEAD).
    func readResponse(head: Bool = false) throws -> Response {
        let statusLine = try readLine()
        var headers: [(name: String, value: String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "bad header line \(line)") }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
        }
        var response = Response(statusLine: statusLine, headers: headers, body: [])
        let status = response.status
        if head || status < 200 || status == 204 || status == 304 { return response }
        if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            response.body = try readBytes(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                let sizeLine = try readLine()
                guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else { throw Failure(description: "bad chunk") }
                if size == 0 {
                    while try !readLine().isEmpty {}
                    break
                }
                response.body += try readBytes(size)
                _ = try readLine()
            }
        } else {
            while fill() {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// Waits for the peer to close: true on EOF or reset with no further bytes, false on data or timeout.
    func isClosedByPeer() -> Bool {
        if !buffer.isEmpty { return false }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, 0)
        if n == 0 { return true }
        if n < 0 { return errno == ECONNRESET }
        buffer.append(byte)
        return false
    }
}
