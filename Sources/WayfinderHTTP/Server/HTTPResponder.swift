import Synchronization

/// Gives the answer to one request later, from any thread: what a handler returns
/// ``HTTPResponse/later(_:)`` for when its answer waits for work done elsewhere (an effect, a
/// commit, a reply from another server). The connection, and the requests pipelined behind this
/// one, wait; the event loop stays free for every other connection.
///
/// - Important: the answer is sent once: later calls to ``respond(_:)`` do nothing. A streaming
///   answer is not allowed here (it is answered `500`).
public final class HTTPResponder: Sendable {
    struct State {
        var response: HTTPResponse?
        var answered = false
        var cancelled = false
        var callbacks: [@Sendable () -> Void] = []
    }

    let id: UInt64
    let mailbox: LoopMailbox
    let state = Mutex(State())

    init(id: UInt64, mailbox: LoopMailbox) {
        self.id = id
        self.mailbox = mailbox
    }

    /// Sends `response` to the client; false if it was already answered or the client is gone.
    @discardableResult
    public func respond(_ response: HTTPResponse) -> Bool {
        let accepted = state.withLock { s -> Bool in
            guard !s.answered, !s.cancelled else { return false }
            s.answered = true
            s.response = response
            return true
        }
        return accepted && mailbox.post(responder: self)
    }

    /// Whether the connection went away before an answer (nobody will read one).
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Runs `callback` once if the connection goes away unanswered (at once if it has).
    public func onCancel(_ callback: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s -> Bool in
            if s.cancelled { return true }
            s.callbacks.append(callback)
            return false
        }
        if runNow { callback() }
    }

    /// Loop side: the answer, once given.
    func takeResponse() -> HTTPResponse? {
        state.withLock { s in
            let response = s.response
            s.response = nil
            return response
        }
    }

    /// Loop side: the connection closed before the answer was sent.
    func cancel() {
        let callbacks = state.withLock { s -> [@Sendable () -> Void] in
            guard !s.cancelled else { return [] }
            s.cancelled = true
            s.response = nil
            let callbacks = s.callbacks
            s.callbacks = []
            return callbacks
        }
        for callback in callbacks { callback() }
    }
}
