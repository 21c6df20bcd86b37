import CEpoll
import Glibc
import Synchronization

/// The part of an event loop other threads may touch: a queue of stream writers with work and
/// of answers given later, and the eventfd that wakes the loop.
///
/// What the loop's own thread posts (an answer given in a block the loop runs) does not touch
/// the eventfd: the loop takes it at the end of the round (`hasWork`, `drain(readingEventFD: false)`).
///
/// - Important: the eventfd is written and closed only under `state`'s lock, so a late writer
///   can never write to a closed (and possibly reused) descriptor.
final class LoopMailbox: Sendable {
    struct State {
        var open = true
        var writers: [HTTPStreamWriter] = []
        var responders: [HTTPResponder] = []
        var signalled = false
        /// The loop's thread, once it runs.
        var owner: pthread_t?
    }

    let eventFD: Int32
    let state = Mutex(State())
    /// Something was posted from the loop's own thread since the last drain.
    private let postedByLoop = Atomic<Bool>(false)

    init() throws(SystemError) {
        eventFD = try systemCallBlocking("eventfd") { cepoll_eventfd() }
    }

    /// Called once by the loop's thread before it handles anything.
    func bindToCurrentThread() {
        state.withLock { $0.owner = pthread_self() }
    }

    /// Queues `writer` (nil: just wake the loop); false when the loop has stopped.
    @discardableResult
    func post(_ writer: HTTPStreamWriter?) -> Bool {
        state.withLock { s in
            guard s.open else { return false }
            if let writer { s.writers.append(writer) }
            wake(&s)
            return true
        }
    }

    /// Queues an answered responder; false when the loop has stopped.
    func post(responder: HTTPResponder) -> Bool {
        state.withLock { s in
            guard s.open else { return false }
            s.responders.append(responder)
            wake(&s)
            return true
        }
    }

    /// Signals the eventfd once until the next drain, unless the loop's own thread is posting.
    private func wake(_ s: inout State) {
        if let owner = s.owner, pthread_equal(owner, pthread_self()) != 0 {
            postedByLoop.store(true, ordering: .relaxed)
            return
        }
        if !s.signalled {
            s.signalled = true
            var one: UInt64 = 1
            _ = try? systemCall("write(eventfd)") { Glibc.write(eventFD, &one, 8) }
        }
    }

    /// Loop thread: whether its own thread posted since the last drain.
    var hasWork: Bool { postedByLoop.load(ordering: .relaxed) }

    /// Called by the loop when the eventfd is readable (`readingEventFD`), or at the end of a
    /// round for what its own thread posted: takes everything queued.
    func drain(readingEventFD: Bool) -> (writers: [HTTPStreamWriter], responders: [HTTPResponder]) {
        postedByLoop.store(false, ordering: .relaxed)
        return state.withLock { s in
            if readingEventFD {
                var value: UInt64 = 0
                _ = try? systemCall("read(eventfd)") { Glibc.read(eventFD, &value, 8) }
                s.signalled = false
            }
            let drained = (s.writers, s.responders)
            s.writers = []
            s.responders = []
            return drained
        }
    }

    /// Closes the eventfd once; later posts return false. Returns writers still queued.
    func close() -> [HTTPStreamWriter] {
        state.withLock { s in
            guard s.open else { return [] }
            s.open = false
            closeDescriptor(eventFD)
            let writers = s.writers
            s.writers = []
            return writers
        }
    }
}
