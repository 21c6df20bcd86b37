import Glibc

/// A failed system call, with errno captured immediately after it.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call that failed ("epoll_wait", "accept4", …).
    public let call: String
    /// `errno` as it was right after the call.
    public let errno: Int32

    /// The failure of `call` with `errno`.
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call) failed with errno \(errno)" }
}

/// The outcome of a non-blocking system call.
enum IOResult<T> {
    case done(T)
    case wouldBlock
}

/// Runs `body` as a system call: retries on EINTR, captures errno at once, and reports
/// EAGAIN/EWOULDBLOCK as `.wouldBlock`. Every syscall in this target goes through here.
@inline(__always)
func systemCall<T: FixedWidthInteger>(_ name: StaticString, _ body: () -> T) throws(SystemError) -> IOResult<T> {
    while true {
        let result = body()
        if result >= 0 { return .done(result) }
        let code = errno
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        throw SystemError(call: "\(name)", errno: code)
    }
}

/// A system call that cannot block: EAGAIN is reported as an error.
@inline(__always)
@discardableResult
func systemCallBlocking<T: FixedWidthInteger>(_ name: StaticString, _ body: () -> T) throws(SystemError) -> T {
    switch try systemCall(name, body) {
    case .done(let value): return value
    case .wouldBlock: throw SystemError(call: "\(name)", errno: EAGAIN)
    }
}

/// Closes a descriptor. EINTR is not retried (on Linux the descriptor is gone either way).
func closeDescriptor(_ fd: Int32) {
    _ = Glibc.close(fd)
}

/// Monotonic nanoseconds, for deadlines.
func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

extension Duration {
    /// Whole nanoseconds, clamped at zero.
    var nanoseconds: UInt64 {
        let (s, a) = components
        let ns = s * 1_000_000_000 + a / 1_000_000_000
        return ns <= 0 ? 0 : UInt64(ns)
    }
}
