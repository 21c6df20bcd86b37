import CEpoll
import Glibc

/// Socket system calls used by the server, all through `systemCall`.
enum Socket {
    /// A non-blocking listening socket on `host:port` with SO_REUSEADDR and SO_REUSEPORT, so each
    /// event loop can own one listener on the same port and the kernel spreads new connections.
    static func listen(host: String, port: Int, backlog: Int32 = 1024) throws(SystemError) -> Int32 {
        var addr6 = sockaddr_in6()
        var addr4 = sockaddr_in()
        let isV6 = host.contains(":")
        if isV6 {
            addr6.sin6_family = sa_family_t(AF_INET6)
            addr6.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, host, &addr6.sin6_addr) == 1 else {
                throw SystemError(call: "inet_pton(\(host))", errno: EINVAL)
            }
        } else {
            addr4.sin_family = sa_family_t(AF_INET)
            addr4.sin_port = in_port_t(UInt16(port).bigEndian)
            let h = host == "localhost" ? "127.0.0.1" : host
            guard inet_pton(AF_INET, h, &addr4.sin_addr) == 1 else {
                throw SystemError(call: "inet_pton(\(host))", errno: EINVAL)
            }
        }
        let fd = try systemCallBlocking("socket") { cepoll_socket_stream(isV6 ? AF_INET6 : AF_INET) }
        do throws(SystemError) {
            try setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
            try setOption(fd, SOL_SOCKET, SO_REUSEPORT, 1)
            if isV6 {
                try systemCallBlocking("bind") {
                    withUnsafePointer(to: &addr6) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                        }
                    }
                }
            } else {
                try systemCallBlocking("bind") {
                    withUnsafePointer(to: &addr4) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                        }
                    }
                }
            }
            try systemCallBlocking("listen") { Glibc.listen(fd, backlog) }
            return fd
        } catch {
            closeDescriptor(fd)
            throw error
        }
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) throws(SystemError) {
        var v = value
        try systemCallBlocking("setsockopt") {
            setsockopt(fd, level, name, &v, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// The local port a socket is bound to.
    static func localPort(_ fd: Int32) throws(SystemError) -> Int {
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        try systemCallBlocking("getsockname") {
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
            }
        }
        return address(of: storage).port
    }

    /// Accepts one connection (non-blocking, close-on-exec); nil when none is pending.
    static func accept(_ fd: Int32) throws(SystemError) -> (fd: Int32, address: String)? {
        var storage = sockaddr_storage()
        var len = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = try systemCall("accept4") {
            withUnsafeMutablePointer(to: &storage) {
                cepoll_accept(fd, $0, &len)
            }
        }
        switch result {
        case .wouldBlock: return nil
        case .done(let client):
            let a = address(of: storage)
            return (client, a.host.contains(":") ? "[\(a.host)]:\(a.port)" : "\(a.host):\(a.port)")
        }
    }

    static func address(of storage: sockaddr_storage) -> (host: String, port: Int) {
        var storage = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        if Int32(storage.ss_family) == AF_INET6 {
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { p in
                    var a = p.pointee.sin6_addr
                    inet_ntop(AF_INET6, &a, &buffer, socklen_t(buffer.count))
                    return (cString(buffer), Int(UInt16(bigEndian: p.pointee.sin6_port)))
                }
            }
        }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { p in
                var a = p.pointee.sin_addr
                inet_ntop(AF_INET, &a, &buffer, socklen_t(buffer.count))
                return (cString(buffer), Int(UInt16(bigEndian: p.pointee.sin_port)))
            }
        }
    }

    /// Reads into `buffer`: nil = would block, 0 = end of stream.
    @inline(__always)
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        switch try systemCall("read", { Glibc.read(fd, buffer.baseAddress, buffer.count) }) {
        case .done(let n): return n
        case .wouldBlock: return nil
        }
    }

    /// Writes from `buffer`: nil = would block, else the bytes written.
    @inline(__always)
    static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(SystemError) -> Int? {
        switch try systemCall("send", { Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }) {
        case .done(let n): return n
        case .wouldBlock: return nil
        }
    }

    static func cString(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func shutdownWrite(_ fd: Int32) {
        _ = try? systemCall("shutdown") { Glibc.shutdown(fd, Int32(SHUT_WR)) }
    }
}
