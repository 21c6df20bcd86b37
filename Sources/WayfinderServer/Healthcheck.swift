import Glibc

/// `NAME healthcheck`: the container's HEALTHCHECK, so the runtime image needs no curl.
///
/// Connects to 127.0.0.1 on `--port` (else `WAYFINDER_PORT`, else 8080), sends `GET /healthz`,
/// and exits 0 when a `200` status line arrives within about two seconds, 1 otherwise (one line
/// on stderr, named for the executable). `--help` prints its usage; a bad argument exits 2.
enum Healthcheck {
    static let timeoutMillis: Int64 = 2000

    static func run(_ arguments: [String], environment: [String: String], name: String) -> Never {
        let usage = """
            Usage: \(name) healthcheck [--port PORT]
            Sends GET /healthz to 127.0.0.1:PORT (default: WAYFINDER_PORT, else 8080) and exits 0 on a 200
            within \(timeoutMillis / 1000) s, 1 otherwise.

            """
        var portText = environment["WAYFINDER_PORT"] ?? "8080"
        var source = environment["WAYFINDER_PORT"] == nil ? "the default port" : "WAYFINDER_PORT"
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h":
                print(usage, terminator: "")
                exit(0)
            case "--port":
                guard let value = rest.popFirst() else { usageError("--port needs a value", name: name, usage: usage) }
                portText = value
                source = "--port"
            default:
                usageError("unknown argument '\(argument)'", name: name, usage: usage)
            }
        }
        guard let port = UInt16(portText), port > 0 else {
            failed("\(source) '\(portText)' is not a port", name: name)
        }
        switch check(port: port) {
        case .success: exit(0)
        case .failure(let failure): failed(failure.reason, name: name)
        }
    }

    struct Failure: Error { var reason: String }

    /// One `GET /healthz` to 127.0.0.1:`port` with an overall deadline.
    static func check(port: UInt16) -> Result<Void, Failure> {
        let deadline = monotonicMillis() + timeoutMillis
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(Failure(reason: "socket: \(errorText())")) }
        defer { close(fd) }

        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if connected != 0 {
            guard errno == EINPROGRESS else { return .failure(Failure(reason: "connect 127.0.0.1:\(port): \(errorText())")) }
            guard wait(fd, for: Int16(POLLOUT), until: deadline) else {
                return .failure(Failure(reason: "connect 127.0.0.1:\(port): timed out"))
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else { return .failure(Failure(reason: "connect 127.0.0.1:\(port): \(String(cString: strerror(error)))")) }
        }

        let request = Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: wayfinder-healthcheck\r\nConnection: close\r\n\r\n".utf8)
        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, request.count - sent, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n; continue }
            if n < 0 && errno == EINTR { continue }
            guard n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK), wait(fd, for: Int16(POLLOUT), until: deadline) else {
                return .failure(Failure(reason: "send: \(n < 0 ? errorText() : "timed out")"))
            }
        }

        // Read until the status line is complete.
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !received.contains(0x0A) && received.count < 4096 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n > 0 { received.append(contentsOf: buffer[0..<n]); continue }
            if n == 0 { break }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK, wait(fd, for: Int16(POLLIN), until: deadline) else {
                return .failure(Failure(reason: "no answer from 127.0.0.1:\(port) within \(timeoutMillis) ms"))
            }
        }
        let statusLine = String(decoding: received.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1] == "200" else {
            return .failure(Failure(reason: "/healthz answered '\(statusLine.isEmpty ? "nothing" : statusLine)'"))
        }
        return .success(())
    }

    /// Polls `fd` for `events` until the deadline; false on timeout or error.
    private static func wait(_ fd: Int32, for events: Int16, until deadline: Int64) -> Bool {
        while true {
            let left = deadline - monotonicMillis()
            if left <= 0 { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(left))
            if ready > 0 { return entry.revents & (events | Int16(POLLHUP) | Int16(POLLERR)) != 0 }
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { return false }
            return false
        }
    }

    private static func monotonicMillis() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }

    private static func failed(_ reason: String, name: String, status: Int32 = 1) -> Never {
        let line = "\(name) healthcheck: \(reason)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        exit(status)
    }

    private static func usageError(_ reason: String, name: String, usage: String) -> Never {
        failed("\(reason)\n\(usage)", name: name, status: 2)
    }
}
