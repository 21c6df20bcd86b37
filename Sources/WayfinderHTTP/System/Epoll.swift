import CEpoll
import Glibc

/// epoll event bits as a typed option set (epoll(7)).
struct EpollEvents: OptionSet, Hashable {
    let rawValue: UInt32
    static let input = EpollEvents(rawValue: CEPOLL_IN)
    static let output = EpollEvents(rawValue: CEPOLL_OUT)
    static let error = EpollEvents(rawValue: CEPOLL_ERR)
    static let hangup = EpollEvents(rawValue: CEPOLL_HUP)
    static let readHangup = EpollEvents(rawValue: CEPOLL_RDHUP)
    static let exclusive = EpollEvents(rawValue: CEPOLL_EXCLUSIVE)
}

/// An epoll instance and its ready-list buffer. Owned by one event loop, closed once by `close()`.
final class Epoll {
    let fd: Int32
    private let events: UnsafeMutableRawPointer
    let capacity: Int

    init(capacity: Int = 256) throws(SystemError) {
        fd = try systemCallBlocking("epoll_create1") { cepoll_create() }
        self.capacity = capacity
        events = UnsafeMutableRawPointer.allocate(
            byteCount: Int(cepoll_event_size()) * capacity, alignment: 8)
    }

    deinit { events.deallocate() }

    func add(_ target: Int32, _ interest: EpollEvents, data: UInt64) throws(SystemError) {
        try systemCallBlocking("epoll_ctl(ADD)") { cepoll_ctl(fd, Int32(CEPOLL_CTL_ADD), target, interest.rawValue, data) }
    }

    func modify(_ target: Int32, _ interest: EpollEvents, data: UInt64) throws(SystemError) {
        try systemCallBlocking("epoll_ctl(MOD)") { cepoll_ctl(fd, Int32(CEPOLL_CTL_MOD), target, interest.rawValue, data) }
    }

    func remove(_ target: Int32) throws(SystemError) {
        try systemCallBlocking("epoll_ctl(DEL)") { cepoll_ctl(fd, Int32(CEPOLL_CTL_DEL), target, 0, 0) }
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) and returns the number of ready events.
    func wait(timeoutMilliseconds: Int32) throws(SystemError) -> Int {
        let ptr = events.assumingMemoryBound(to: epoll_event.self)
        let n = try systemCallBlocking("epoll_wait") { cepoll_wait(fd, ptr, Int32(capacity), timeoutMilliseconds) }
        return Int(n)
    }

    /// The data and event bits of ready event `i`.
    func event(_ i: Int) -> (data: UInt64, events: EpollEvents) {
        let ptr = UnsafePointer(events.assumingMemoryBound(to: epoll_event.self))
        return (cepoll_event_data(ptr, Int32(i)), EpollEvents(rawValue: cepoll_event_flags(ptr, Int32(i))))
    }

    func close() { closeDescriptor(fd) }
}
