import CEpoll
import Glibc
import Synchronization

/// The part of an event loop other threads may touch: a queue of stream writers with work,
/// and the eventfd that wakes the loop.
///
/// - Important: the eventfd is written and closed only under `state`'s lock, so a late writer
///   can never write to a closed (and possibly reused) descriptor.
final class LoopMailbox: Sendable {
    struct State {
        var open = true
        var writers: [HTTPStreamWriter] = []
        var responders: [HTTPResponder] = []
        var signalled = false
    }

    let eventFD: Int32
    let state = Mutex(State())

    init() throws(SystemError) {
        eventFD = try systemCallBlocking("eventfd") { cepoll_eventfd() }
    }

    /// Queues `writer` (nil: just wake the loop); false when the loop has stopped.
    @discardableResult
    func post(_ writer: HTTPStreamWriter?) -> Bool {
        state.withLock { s in
            guard s.open else { return false }
            if let writer { s.writers.append(writer) }
            if !s.signalled {
                s.signalled = true
                var one: UInt64 = 1
                _ = try? systemCall("write(eventfd)") { Glibc.write(eventFD, &one, 8) }
            }
            return true
        }
    }

    /// Queues an answered responder; false when the loop has stopped.
    func post(responder: HTTPResponder) -> Bool {
        state.withLock { s in
            guard s.open else { return false }
            s.responders.append(responder)
            if !s.signalled {
                s.signalled = true
                var one: UInt64 = 1
                _ = try? systemCall("write(eventfd)") { Glibc.write(eventFD, &one, 8) }
            }
            return true
        }
    }

    /// Called by the loop when the eventfd is readable.
    func drain() -> (writers: [HTTPStreamWriter], responders: [HTTPResponder]) {
        state.withLock { s in
            var value: UInt64 = 0
            _ = try? systemCall("read(eventfd)") { Glibc.read(eventFD, &value, 8) }
            s.signalled = false
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
