import Foundation
import Glibc
import Synchronization

/// A `RedisStore`'s own event loop, on a thread of its own (`poll`): it serves callers that have
/// no loop (blocking calls, the change feed's readers), holds the pub/sub subscription, and
/// refreshes the cluster's slot map.
///
/// Other threads hand it work with `execute`; a pipe wakes it. It stops with `stop()`.
final class RedisIOThread: StoreLoop, @unchecked Sendable {
    private struct Watcher {
        var handler: (_ readable: Bool, _ writable: Bool) -> Void
        var writing: Bool
    }

    private struct Timer {
        let deadline: Int64
        let body: () -> Void
    }

    private struct Inbox {
        var blocks: [@Sendable () -> Void] = []
        var stopping = false
    }

    // Loop-thread state (see `@unchecked Sendable`: only the thread touches these).
    private var watchers: [Int32: Watcher] = [:]
    private var roundEnd: [() -> Void] = []
    private var timers: [Timer] = []
    private var stopCallbacks: [() -> Void] = []

    private let inbox = Mutex(Inbox())
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let threadID = Mutex<pthread_t?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)

    init(name: String) {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        let thread = Thread { [self] in
            threadID.withLock { $0 = pthread_self() }
            run()
            finished.signal()
        }
        thread.name = name
        started.store(true, ordering: .releasing)
        thread.start()
    }

    /// Runs `block` on the thread soon (from any thread); false once stopping.
    @discardableResult
    func execute(_ block: @escaping @Sendable () -> Void) -> Bool {
        let accepted = inbox.withLock { inbox -> Bool in
            guard !inbox.stopping else { return false }
            inbox.blocks.append(block)
            return true
        }
        if accepted { wake() }
        return accepted
    }

    /// Whether the caller is this thread.
    var isCurrent: Bool {
        threadID.withLock { id in id.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Stops the thread after the blocks queued so far; waits for it unless called on it.
    func stop() {
        let first = inbox.withLock { inbox -> Bool in
            defer { inbox.stopping = true }
            return !inbox.stopping
        }
        guard first else { return }
        wake()
        if !isCurrent && started.load(ordering: .acquiring) { finished.wait() }
    }

    deinit {
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    // MARK: StoreLoop

    func watch(_ fd: Int32, writing: Bool, _ handler: @escaping (_ readable: Bool, _ writable: Bool) -> Void) -> Bool {
        watchers[fd] = Watcher(handler: handler, writing: writing)
        return true
    }

    func update(_ fd: Int32, writing: Bool) { watchers[fd]?.writing = writing }

    func unwatch(_ fd: Int32) { watchers[fd] = nil }

    func atEndOfRound(_ body: @escaping () -> Void) { roundEnd.append(body) }

    func schedule(afterMilliseconds milliseconds: Int, _ body: @escaping () -> Void) {
        timers.append(Timer(deadline: RedisLink.nowMillis() + Int64(max(0, milliseconds)), body: body))
    }

    func onStop(_ body: @escaping () -> Void) { stopCallbacks.append(body) }

    // MARK: The thread

    private func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    private func run() {
        while true {
            let (blocks, stopping) = inbox.withLock { inbox in
                defer { inbox.blocks = [] }
                return (inbox.blocks, inbox.stopping)
            }
            for block in blocks { block() }
            runTimers()
            while !roundEnd.isEmpty {
                let due = roundEnd
                roundEnd = []
                for block in due { block() }
            }
            if stopping { break }
            poll()
        }
        let callbacks = stopCallbacks
        stopCallbacks = []
        for callback in callbacks { callback() }
        watchers = [:]
        timers = []
    }

    private func runTimers() {
        let now = RedisLink.nowMillis()
        guard timers.contains(where: { $0.deadline <= now }) else { return }
        var due: [() -> Void] = []
        timers.removeAll { timer in
            guard timer.deadline <= now else { return false }
            due.append(timer.body)
            return true
        }
        for body in due { body() }
    }

    /// Waits for a watched descriptor, the wake pipe or the next timer, and handles what is ready.
    private func poll() {
        var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        var order: [Int32] = []
        for (fd, watcher) in watchers {
            fds.append(pollfd(fd: fd, events: Int16(POLLIN) | (watcher.writing ? Int16(POLLOUT) : 0), revents: 0))
            order.append(fd)
        }
        let next = timers.map(\.deadline).min()
        let timeout = next.map { Int32(clamping: max(0, $0 - RedisLink.nowMillis())) } ?? 1_000
        let ready = Glibc.poll(&fds, nfds_t(fds.count), timeout)
        guard ready > 0 else { return }
        if fds[0].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while Glibc.read(wakeRead, &drain, drain.count) > 0 {}
        }
        for (index, fd) in order.enumerated() {
            let events = fds[index + 1].revents
            guard events != 0, let watcher = watchers[fd] else { continue }
            let readable = events & Int16(POLLIN | POLLHUP | POLLERR) != 0
            watcher.handler(readable, events & Int16(POLLOUT) != 0)
        }
    }
}
