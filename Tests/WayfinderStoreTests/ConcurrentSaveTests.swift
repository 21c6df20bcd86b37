import Foundation
import Synchronization
import Testing
import WayfinderStore

@Suite("Concurrent compare-and-set")
struct ConcurrentSaveTests {
    /// Eight threads race load-modify-save on one session; every successful save must count.
    @Test(arguments: StoreKind.allCases)
    func racingSavesLoseNoUpdate(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session(revision: 0)
        try store.create(session, maxSessions: 10)
        let successes = Atomic<Int>(0)
        let conflicts = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
        let threads = 8
        let attemptsPerThread = kind == .memory ? 2_000 : 150

        runOnThreads(threads) { thread in
            for attempt in 0..<attemptsPerThread {
                do {
                    guard let current = try store.load(id: session.id, now: Fixture.t0) else {
                        failures.withLock { $0.append("session vanished") }
                        return
                    }
                    var next = current
                    next.revision += 1
                    next.state = Array(#"{"thread":\#(thread),"attempt":\#(attempt)}"#.utf8)
                    try store.save(next, expectedRevision: current.revision, idempotency: nil)
                    successes.add(1, ordering: .relaxed)
                } catch StoreError.conflict {
                    conflicts.add(1, ordering: .relaxed)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }

        #expect(failures.withLock { $0 } == [])
        let final = try #require(try store.load(id: session.id, now: Fixture.t0))
        #expect(final.revision == successes.load(ordering: .relaxed))
        #expect(successes.load(ordering: .relaxed) + conflicts.load(ordering: .relaxed) == threads * attemptsPerThread)
        #expect(successes.load(ordering: .relaxed) > 0)
    }
}

/// Runs `body(index)` on `count` OS threads at once (not the cooperative pool) and waits for all.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            start.wait()
            body(index)
            group.leave()
        }
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    group.wait()
}
