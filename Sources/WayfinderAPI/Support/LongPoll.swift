import Synchronization
import WayfinderHTTP

/// One long poll's answer, given once by whichever comes first: a change or the wait's end.
final class LongPoll: Sendable {
    /// The longest wait a client may ask for, in seconds.
    static let maximumWait = 60

    private let state: Mutex<(responder: HTTPResponder?, done: [@Sendable () -> Void])>

    init(responder: HTTPResponder) {
        state = Mutex((responder, []))
    }

    /// The seconds of `Prefer: wait=N` (RFC 7240), at most ``maximumWait``; nil without one.
    static func wait(_ prefer: String?) -> Int? {
        guard let prefer else { return nil }
        for preference in prefer.split(separator: ",") {
            let parts = preference.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces }
            if parts.count == 2, parts[0].lowercased() == "wait", let seconds = Int(parts[1]), seconds > 0 {
                return min(seconds, maximumWait)
            }
        }
        return nil
    }

    /// Sends `response` if nothing was sent yet, then runs the `onDone` callbacks.
    func respond(_ response: HTTPResponse) {
        let (responder, callbacks) = state.withLock { state in
            let taken = (state.responder, state.done)
            state = (nil, [])
            return taken
        }
        guard let responder else { return }
        responder.respond(response)
        for callback in callbacks { callback() }
    }

    /// Runs `callback` once the answer is sent.
    func onDone(_ callback: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard state.responder != nil else { return true }
            state.done.append(callback)
            return false
        }
        if runNow { callback() }
    }
}
