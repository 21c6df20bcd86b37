import Foundation
import Testing
import WayfinderStore

/// What a server finds when it starts: the sessions whose stored state still has effects to run,
/// and, on a store shared by instances, which instance runs each of them.
@Suite struct PendingEffectStoreTests {
    private static let pending = #"{"revision":2,"effects":[{"id":"e1"}]}"#

    @Test(arguments: StoreKind.allCases)
    func aSessionIsListedWhileItsStateHoldsEffectsAndNotOnceTheyAreDone(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let idle = Fixture.session()
        let waiting = Fixture.session()
        try store.create(idle, maxSessions: 10)
        try store.create(waiting, maxSessions: 10)
        #expect(try store.sessionsWithPendingEffects(limit: 10) == [])

        let asked = Fixture.next(waiting, state: Self.pending)
        try store.save(asked, expectedRevision: 1, idempotency: nil)
        #expect(try store.sessionsWithPendingEffects(limit: 10) == [waiting.id])

        try store.save(Fixture.next(asked), expectedRevision: 2, idempotency: nil)
        #expect(try store.sessionsWithPendingEffects(limit: 10) == [])
    }

    @Test(arguments: StoreKind.allCases)
    func aDeletedSessionIsNotListed(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        let session = Fixture.session(state: Self.pending)
        try store.create(session, maxSessions: 10)
        #expect(try store.sessionsWithPendingEffects(limit: 10) == [session.id])
        #expect(try store.delete(id: session.id))
        #expect(try store.sessionsWithPendingEffects(limit: 10) == [])
    }

    @Test(arguments: StoreKind.allCases)
    func theListIsBounded(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        for _ in 0..<5 { try store.create(Fixture.session(state: Self.pending), maxSessions: 10) }
        #expect(try store.sessionsWithPendingEffects(limit: 3).count == 3)
        #expect(Set(try store.sessionsWithPendingEffects(limit: 10)).count == 5)
    }

    @Test func onRedisOneInstanceClaimsAnEffectUntilItsLeaseEnds() throws {
        let url = try RedisServer.shared.get().url(database: RedisServer.freshDatabase())
        let first = try RedisStore(url: url, configuration: StoreConfiguration())
        let second = try RedisStore(url: url, configuration: StoreConfiguration())
        defer { first.close(); second.close() }
        #expect(first.sharedByInstances && second.sharedByInstances)

        // A lease long enough that the checks below run inside it on a loaded machine.
        #expect(try first.claimEffect("s-1/e1", owner: "a", leaseMillis: 2_000))
        #expect(try !second.claimEffect("s-1/e1", owner: "b", leaseMillis: 300))
        #expect(try !first.claimEffect("s-1/e1", owner: "a", leaseMillis: 300), "a claim is taken once, even by its holder")
        #expect(try second.claimEffect("s-1/e2", owner: "b", leaseMillis: 300), "another effect is another claim")

        // Once the lease has run out (its holder died), another instance may run the effect.
        let deadline = ContinuousClock.now + .seconds(10)
        var taken = false
        while !taken, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            taken = try second.claimEffect("s-1/e1", owner: "b", leaseMillis: 300)
        }
        #expect(taken)
    }

    @Test(arguments: [StoreKind.memory, .sqlite])
    func aStoreOfOneInstanceIsNotShared(kind: StoreKind) throws {
        let made = try kind.make()
        defer { withExtendedLifetime(made) {} }  // its directory stays while the test runs
        let store = made.store
        #expect(!store.sharedByInstances)
        #expect(try store.claimEffect("s-1/e1", owner: "a", leaseMillis: 1_000))
    }
}
