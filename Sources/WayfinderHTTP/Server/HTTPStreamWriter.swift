import Synchronization

/// Writes a streaming response (server-sent events) from any thread.
///
/// Writes are queued and handed to the connection's event loop through its eventfd; the loop
/// frames them (chunked on HTTP/1.1) and sends them. The arrays written are queued as they are,
/// not copied, so one event written to many streams is held in memory once until each loop
/// frames it for its connection.
/// - Important: `onClose` callbacks run exactly once, on the loop thread, when the peer goes away,
///   the stream is closed, or the server shuts down. Bytes not yet sent are bounded by
///   `HTTPServerConfiguration.maxStreamBufferBytes` (or one write, if it alone is larger); past
///   that the stream is ended.
public final class HTTPStreamWriter: Sendable {
    struct State {
        var pending: [[UInt8]] = []
        var pendingBytes = 0
        var closeRequested = false
        var closed = false
        var scheduled = false
        var callbacks: [@Sendable () -> Void] = []
    }

    let id: UInt64
    let mailbox: LoopMailbox
    let maxPendingBytes: Int
    let state = Mutex(State())

    init(id: UInt64, mailbox: LoopMailbox, maxPendingBytes: Int) {
        self.id = id
        self.mailbox = mailbox
        self.maxPendingBytes = maxPendingBytes
    }

    /// Queues bytes for the peer; false once the stream is closed or the peer is gone.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        let (accepted, schedule) = state.withLock { s -> (Bool, Bool) in
            if s.closed || s.closeRequested { return (false, false) }
            if !s.pending.isEmpty && s.pendingBytes + bytes.count > maxPendingBytes {
                s.closeRequested = true  // the loop ends the stream: the peer does not keep up
                let schedule = !s.scheduled
                s.scheduled = true
                return (false, schedule)
            }
            s.pending.append(bytes)
            s.pendingBytes += bytes.count
            let schedule = !s.scheduled
            s.scheduled = true
            return (true, schedule)
        }
        if schedule && !mailbox.post(self) { return false }
        return accepted
    }

    /// Queues UTF-8 text.
    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Ends the stream after the bytes already queued.
    public func close() {
        let schedule = state.withLock { s -> Bool in
            if s.closed || s.closeRequested { return false }
            s.closeRequested = true
            let schedule = !s.scheduled
            s.scheduled = true
            return schedule
        }
        if schedule { mailbox.post(self) }
    }

    /// Registers a callback run once when the stream ends for any reason (at once if it has ended).
    public func onClose(_ callback: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s -> Bool in
            if s.closed { return true }
            s.callbacks.append(callback)
            return false
        }
        if runNow { callback() }
    }

    /// Whether the stream has ended.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Loop side: takes the queued writes and whether a close was requested.
    func takePending() -> (writes: [[UInt8]], close: Bool) {
        state.withLock { s in
            s.scheduled = false
            let writes = s.pending
            s.pending = []
            s.pendingBytes = 0
            return (writes, s.closeRequested)
        }
    }

    /// Loop side: marks the stream ended and runs the callbacks (once).
    func finish() {
        let callbacks = state.withLock { s -> [@Sendable () -> Void] in
            if s.closed { return [] }
            s.closed = true
            s.pending = []
            s.pendingBytes = 0
            let callbacks = s.callbacks
            s.callbacks = []
            return callbacks
        }
        for callback in callbacks { callback() }
    }
}
