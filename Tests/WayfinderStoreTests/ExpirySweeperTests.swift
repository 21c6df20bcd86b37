import Foundation
import Testing
import WayfinderStore

@Suite("ExpirySweeper")
struct ExpirySweeperTests {
    @Test(arguments: StoreKind.allCases)
    func sweeperExpiresIdleSessionsWithItsClock(kind: StoreKind) throws {
        let made = try kind.make(configuration: StoreConfiguration(ttlMillis: 1_000))
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let idle = Fixture.session(lastUsed: Fixture.t0)
        let fresh = Fixture.session(lastUsed: Fixture.t0 + 5_000)
        try store.create(idle, maxSessions: 10)
        try store.create(fresh, maxSessions: 10)
        let recorder = ChangeRecorder()
        let subscription = store.changes.subscribe(idle.id) { recorder.record($0) }
        defer { subscription.cancel() }

        let passed = DispatchSemaphore(value: 0)
        let sweeper = ExpirySweeper(store: store, intervalMillis: 1, now: { Fixture.t0 + 5_000 }) { result in
            if case .success(let expired) = result, expired > 0 { passed.signal() }
        }
        sweeper.start()
        passed.wait()
        sweeper.stop()

        #expect(recorder.changes == [.deleted])
        #expect(try store.count(now: Fixture.t0 + 5_000) == 1)
        #expect(try store.load(id: fresh.id, now: Fixture.t0 + 5_000) == fresh)
    }

    @Test func stopWithoutStartAndTwiceIsHarmless() {
        let sweeper = ExpirySweeper(store: MemoryStore(), intervalMillis: 60_000)
        sweeper.stop()
        sweeper.start()
        sweeper.stop()
        sweeper.stop()
    }

    @Test func defaultIntervalIsAHundredthOfTheTTL() {
        #expect(ExpirySweeper.defaultInterval(for: StoreConfiguration()) == 864_000)
        #expect(ExpirySweeper.defaultInterval(for: StoreConfiguration(ttlMillis: 10_000)) == 1_000)
    }
}
