import Foundation
import Glibc

/// A real TCP proxy on loopback between the client under test and the server, which breaks
/// things the way networks and servers do: it loses an answer after the server acted, cuts open
/// event streams, stalls a request, or rewrites a request head or an answer body.
///
/// Every request is forwarded with `Connection: close`, so each connection carries exactly one
/// request and its answer. A connection belongs to the thread that serves it, which alone
/// closes its sockets; other threads only `shutdown` them (which wakes that thread).
final class TCPProxy: @unchecked Sendable {
    /// What to do with a request that matches a rule.
    enum Action: Sendable {
        /// Forward the request, then drop the server's answer and close the client's connection.
        case loseAnswer
        /// Forward only the first `bytes` bytes of the request, never the rest.
        case stall(bytes: Int)
        /// Forward the request head rewritten.
        case rewriteHead(@Sendable (String) -> String)
        /// Forward the answer with its body rewritten (answers framed by Content-Length).
        case rewriteBody(@Sendable (String) -> String)
    }

    private struct Rule {
        var matches: @Sendable (String) -> Bool
        var action: Action
        var once: Bool
    }

    private struct Live {
        var client: Int32
        var server: Int32
        var head: String
    }

    let port: Int
    private let listener: Int32
    private let lock = NSCondition()
    private var targetPort: Int
    private var rules: [Rule] = []
    private var heads: [String] = []
    private var live: [Int: Live] = [:]
    private var nextID = 0
    private var stopped = false

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// A proxy to `127.0.0.1:target`.
    init(to target: Int) throws {
        targetPort = target
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw ProxyError(description: "cannot listen: errno \(errno)")
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    struct ProxyError: Error, CustomStringConvertible { var description: String }

    // MARK: What the test controls

    /// Sends new connections to another server port.
    func retarget(to port: Int) { lock.withLock { targetPort = port } }

    /// Applies `action` to the next request (or every request if `once` is false) whose head
    /// matches.
    func on(_ matches: @escaping @Sendable (String) -> Bool, once: Bool = true, _ action: Action) {
        lock.withLock { rules.append(Rule(matches: matches, action: action, once: once)) }
    }

    /// The request heads seen so far (as the client sent them), in order.
    var requests: [String] { lock.withLock { heads } }

    /// Waits until `count` requests matching `matches` were seen; false after `seconds`.
    func waitForRequests(_ count: Int, within seconds: Double = 20, matching matches: (String) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return lock.withLock {
            while heads.filter(matches).count < count {
                if !lock.wait(until: deadline) { return heads.filter(matches).count >= count }
            }
            return true
        }
    }

    /// Cuts every open connection whose request matches (both sides, as a dropped network does).
    func cut(where matches: (String) -> Bool) {
        lock.withLock {
            for connection in live.values where matches(connection.head) {
                shutdown(connection.client, Int32(SHUT_RDWR))
                shutdown(connection.server, Int32(SHUT_RDWR))
            }
        }
    }

    /// Stops accepting and cuts every connection.
    func stop() {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        cut { _ in true }
    }

    deinit {
        stop()
        close(listener)
    }

    // MARK: Forwarding

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return  // the listener was shut down
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var buffer: [UInt8] = []
        var headEnd: Int?
        while headEnd == nil {
            guard let bytes = Self.receive(client) else { return }
            buffer += bytes
            headEnd = Self.find([13, 10, 13, 10], in: buffer).map { $0 + 4 }
        }
        let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        let (action, target, id): (Action?, Int, Int) = lock.withLock {
            heads.append(head)
            lock.broadcast()
            var action: Action?
            if let index = rules.firstIndex(where: { $0.matches(head) }) {
                action = rules[index].action
                if rules[index].once { rules.remove(at: index) }
            }
            nextID += 1
            return (action, targetPort, nextID)
        }
        var forwarded = Self.closing(head)
        if case .rewriteHead(let rewrite) = action { forwarded = rewrite(forwarded) }
        // A body is rewritten as text: ask the server for it uncoded (the client's URLSession
        // asks for gzip).
        if case .rewriteBody = action {
            forwarded = forwarded.components(separatedBy: "\r\n").filter { !$0.lowercased().hasPrefix("accept-encoding:") }
                .joined(separator: "\r\n")
        }
        var outgoing = Array(forwarded.utf8) + buffer[headEnd!...]
        var stalled = false
        if case .stall(let bytes) = action {
            outgoing = Array(outgoing.prefix(bytes))
            stalled = true
        }
        let server = Self.connect(port: target)
        guard server >= 0 else { return }
        defer { close(server) }
        let registered = lock.withLock {
            if stopped { return false }
            live[id] = Live(client: client, server: server, head: head)
            return true
        }
        guard registered else { return }
        defer { lock.withLock { live[id] = nil } }
        guard Self.sendAll(server, outgoing) else { return }
        pump(client: client, server: server, action: action, stalled: stalled)
    }

    /// Moves bytes both ways until either side closes.
    private func pump(client: Int32, server: Int32, action: Action?, stalled: Bool) {
        var answer: [UInt8] = []
        var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            if poll(&fds, 2, -1) < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[0].revents != 0 {
                guard let bytes = Self.receive(client) else { return }
                if !stalled, !Self.sendAll(server, bytes) { return }
            }
            if fds[1].revents != 0 {
                guard let bytes = Self.receive(server) else {
                    if case .rewriteBody(let rewrite) = action { _ = Self.sendAll(client, Self.rewritten(answer, rewrite)) }
                    return
                }
                switch action {
                case .loseAnswer: return  // the server acted; the client never hears of it
                case .rewriteBody: answer += bytes
                default: if !Self.sendAll(client, bytes) { return }
                }
            }
        }
    }

    /// `head` with `Connection: close` instead of any `Connection` field.
    private static func closing(_ head: String) -> String {
        var lines = head.components(separatedBy: "\r\n").filter { !$0.lowercased().hasPrefix("connection:") }
        while lines.last == "" { lines.removeLast() }
        return (lines + ["Connection: close", "", ""]).joined(separator: "\r\n")
    }

    /// An answer with its body rewritten and its Content-Length fixed.
    private static func rewritten(_ answer: [UInt8], _ rewrite: (String) -> String) -> [UInt8] {
        guard let end = find([13, 10, 13, 10], in: answer) else { return answer }
        let body = Array(rewrite(String(decoding: answer[(end + 4)...], as: UTF8.self)).utf8)
        let head = String(decoding: answer[..<end], as: UTF8.self).components(separatedBy: "\r\n").map { line in
            line.lowercased().hasPrefix("content-length:") ? "Content-Length: \(body.count)" : line
        }
        return Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
    }

    // MARK: Sockets

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func connect(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected != 0 {
            close(fd)
            return -1
        }
        return fd
    }

    /// Some bytes, or nil at the end of the stream or on an error.
    private static func receive(_ fd: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            return count > 0 ? Array(buffer[..<count]) : nil
        }
    }

    private static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
