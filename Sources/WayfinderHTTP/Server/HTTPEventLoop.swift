import Glibc

/// An event loop of an `HTTPServer` as its handler sees it (``HTTPHandler/handle(_:on:)``): the
/// place to do IO of its own without blocking the loop, and to finish work at the end of a round.
///
/// A *round* is what the loop does after one `epoll_wait`: it handles every ready connection
/// (calling the handler for each request), then runs the blocks given to ``atEndOfRound(_:)``,
/// then sends the answers given on the loop thread meanwhile (``HTTPResponder``), and repeats
/// those two steps until neither has work. A handler can so batch what a round's requests
/// started (one write of a whole round's commands to another server, one commit) and answer
/// them in the same round.
///
/// Descriptors given to ``watch(_:writing:_:)`` are polled by the loop's epoll beside its
/// connections: replies from another server arrive through the same `epoll_wait`.
///
/// - Important: Every method must be called on the loop's thread (from `handle`, or from a block
///   this loop runs), and every block runs there. `@unchecked Sendable` so that a handler can
///   keep it in a `Sendable` value; it is used by its loop thread only.
public final class HTTPEventLoop: @unchecked Sendable {
    /// A block to run at a monotonic time.
    private struct Timer {
        let deadline: UInt64
        let body: () -> Void
    }

    private let epoll: Epoll
    private var watchers: [Int32: (_ readable: Bool, _ writable: Bool) -> Void] = [:]
    private var roundEnd: [() -> Void] = []
    private var timers: [Timer] = []
    private var stopCallbacks: [() -> Void] = []
    /// The earliest timer's deadline (`.max`: none).
    private(set) var nextTimer: UInt64 = .max

    /// The tag of watched descriptors in epoll's data: the high 32 bits (connections' ids never reach it).
    static let watcherMark: UInt64 = 0xFFFF_FFF0

    init(epoll: Epoll) {
        self.epoll = epoll
    }

    /// Calls `handler` on the loop thread whenever `fd` is readable (or hung up, or failed: the
    /// next read says which) and, while `writing` is set, writable. The caller keeps owning `fd`
    /// and calls ``unwatch(_:)`` before closing it.
    /// - Returns: false if epoll refused the descriptor.
    @discardableResult
    public func watch(_ fd: Int32, writing: Bool, _ handler: @escaping (_ readable: Bool, _ writable: Bool) -> Void) -> Bool {
        do {
            try epoll.add(fd, Self.interest(writing: writing), data: Self.watcherMark << 32 | UInt64(UInt32(bitPattern: fd)))
        } catch {
            return false
        }
        watchers[fd] = handler
        return true
    }

    /// Turns the interest in `fd`'s writability on or off.
    public func update(_ fd: Int32, writing: Bool) {
        guard watchers[fd] != nil else { return }
        try? epoll.modify(fd, Self.interest(writing: writing), data: Self.watcherMark << 32 | UInt64(UInt32(bitPattern: fd)))
    }

    /// Stops watching `fd` (before its owner closes it).
    public func unwatch(_ fd: Int32) {
        guard watchers.removeValue(forKey: fd) != nil else { return }
        try? epoll.remove(fd)
    }

    /// Runs `body` once at the end of the current round, after the ready events are handled and
    /// before the answers given meanwhile are sent.
    public func atEndOfRound(_ body: @escaping () -> Void) {
        roundEnd.append(body)
    }

    /// Runs `body` once, in the round after `milliseconds` have passed.
    public func schedule(afterMilliseconds milliseconds: Int, _ body: @escaping () -> Void) {
        let deadline = monotonicNanoseconds() &+ UInt64(max(0, milliseconds)) &* 1_000_000
        timers.append(Timer(deadline: deadline, body: body))
        nextTimer = min(nextTimer, deadline)
    }

    /// Runs `body` when the loop stops (after its connections are closed): the place to close
    /// descriptors watched here. A block given after the loop stopped never runs.
    public func onStop(_ body: @escaping () -> Void) {
        stopCallbacks.append(body)
    }

    // MARK: The loop's side

    private static func interest(writing: Bool) -> EpollEvents {
        writing ? [.input, .readHangup, .output] : [.input, .readHangup]
    }

    /// A ready watched descriptor (`data` carries the watcher mark).
    func handleEvent(_ data: UInt64, _ events: EpollEvents) {
        let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: data))
        guard let handler = watchers[fd] else { return }
        let readable = !events.isDisjoint(with: [.input, .hangup, .error, .readHangup])
        handler(readable, events.contains(.output))
    }

    /// Whether blocks wait for the end of the round.
    var hasRoundEndWork: Bool { !roundEnd.isEmpty }

    /// Runs the blocks given so far for the end of the round (blocks they add wait for the next call).
    func runRoundEnd() {
        let blocks = roundEnd
        roundEnd.removeAll(keepingCapacity: true)
        for block in blocks { block() }
    }

    /// Runs the timers due at `now`.
    func runTimers(now: UInt64) {
        guard nextTimer <= now else { return }
        var due: [() -> Void] = []
        var next = UInt64.max
        timers.removeAll { timer in
            if timer.deadline <= now {
                due.append(timer.body)
                return true
            }
            next = min(next, timer.deadline)
            return false
        }
        nextTimer = next
        for body in due { body() }
    }

    /// The loop stopped: runs the stop callbacks once and forgets every block.
    func stop() {
        let callbacks = stopCallbacks
        stopCallbacks = []
        roundEnd = []
        timers = []
        nextTimer = .max
        for callback in callbacks { callback() }
        for fd in Array(watchers.keys) { unwatch(fd) }
    }
}
