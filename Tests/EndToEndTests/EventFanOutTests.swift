import Synchronization
import Testing
@testable import WayfinderAPI

/// Issue 21: a change is rendered once per revision for all of a session's streams.
@Suite struct EventFanOutTests {
    @Test func everyStreamOfASessionSharesOneRenderingPerRevision() throws {
        let streams = EventStreams(heartbeatSeconds: 15, maxPerSession: 8, maxTotal: 100, maxPerClient: nil)
        for _ in 0..<5 { try streams.reserve("s", client: nil) }
        let made = Mutex(0)
        func make(_ revision: Int) -> EventStreams.StateEvent {
            made.withLock { $0 += 1 }
            return EventStreams.StateEvent(revision: revision, bytes: Array("event \(revision)".utf8))
        }
        for _ in 0..<5 { #expect(streams.stateEvent("s", atLeast: 2, make: { make(2) }).revision == 2) }
        #expect(made.withLock { $0 } == 1)
        // An older revision is served by the newer event; a newer one is made once more.
        #expect(streams.stateEvent("s", atLeast: 1, make: { make(1) }).revision == 2)
        for _ in 0..<5 { #expect(streams.stateEvent("s", atLeast: 3, make: { make(3) }).bytes == Array("event 3".utf8)) }
        #expect(made.withLock { $0 } == 2)
        // The event goes with the session's last stream.
        for _ in 0..<5 { streams.release("s", client: nil) }
        #expect(streams.count == 0)
        _ = streams.stateEvent("s", atLeast: 3, make: { make(3) })
        #expect(made.withLock { $0 } == 3)
    }
}
