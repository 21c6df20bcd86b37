import Foundation
import Synchronization
import Testing
@testable import WayfinderStore

/// The SQLite store's row cache: hot rows are served from memory, and no interleaving of readers
/// and the writer can leave an old row in it.
@Suite("SQLite row cache")
struct SQLiteRowCacheTests {
    @Test func aLoadedRowIsServedFromTheCache() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/rows.sqlite"
        let store = try SQLiteStore(path: path)
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        #expect(try store.load(id: session.id, now: Fixture.t0) == session)
        // Behind the store's back (which the store does not support: one process owns the file),
        // so the answer shows where it came from.
        let other = try SQLiteConnection(path: path)
        try other.execute("DELETE FROM sessions")
        #expect(try store.load(id: session.id, now: Fixture.t0) == session)
        // A store without the cache reads SQLite.
        let uncached = try SQLiteStore(path: path, rowCacheCapacity: 0)
        #expect(try uncached.load(id: session.id, now: Fixture.t0) == nil)
    }

    @Test func readersRacingTheWriterNeverSeeAnOlderRevisionOrADeletedSession() throws {
        let directory = TemporaryDirectory()
        // A tiny cache (one row per shard), so fills, evictions and clears all happen.
        let store = try SQLiteStore(path: directory.path + "/race.sqlite", rowCacheCapacity: 32)
        let sessions = (0..<8).map { _ in Fixture.session() }
        for session in sessions { try store.create(session, maxSessions: 100) }
        let shared = Shared(count: sessions.count)
        let finished = DispatchSemaphore(value: 0)
        let readers = 3
        for _ in 0..<readers {
            Thread {
                var seen = [Int](repeating: 0, count: sessions.count)
                while !shared.stop.load(ordering: .acquiring) {
                    for (index, session) in sessions.enumerated() {
                        let wasDeleted = index == 0 && shared.deleted.load(ordering: .acquiring)
                        let floor = shared.acknowledged.withLock { $0[index] }
                        let loaded = try? store.load(id: session.id, now: Fixture.t0)
                        if wasDeleted, loaded != nil {
                            shared.violations.withLock { $0.append("session 0 loaded after its delete returned") }
                        }
                        guard let revision = loaded?.revision else { continue }
                        if revision < floor || revision < seen[index] {
                            shared.violations.withLock { $0.append("session \(index): revision \(revision) after \(max(floor, seen[index]))") }
                        }
                        seen[index] = revision
                    }
                }
                finished.signal()
            }.start()
        }

        var current = sessions
        for round in 0..<2_000 {
            for index in current.indices where !(index == 0 && round >= 1_000) {
                let next = Fixture.next(current[index])
                try store.save(next, expectedRevision: current[index].revision, idempotency: nil)
                current[index] = next
                shared.acknowledged.withLock { $0[index] = next.revision }
            }
            if round == 1_000 {
                #expect(try store.delete(id: sessions[0].id))
                shared.deleted.store(true, ordering: .releasing)
            }
        }
        shared.stop.store(true, ordering: .releasing)
        for _ in 0..<readers { finished.wait() }

        let violations = shared.violations.withLock { $0 }
        #expect(violations.isEmpty, "\(violations.prefix(5))")
        #expect(try store.load(id: sessions[0].id, now: Fixture.t0) == nil)
        for index in 1..<sessions.count {
            #expect(try store.load(id: sessions[index].id, now: Fixture.t0) == current[index])
        }
    }

    /// What the writer and the readers share.
    private final class Shared: Sendable {
        let acknowledged: Mutex<[Int]>
        let deleted = Atomic<Bool>(false)
        let stop = Atomic<Bool>(false)
        let violations = Mutex<[String]>([])
        init(count: Int) { acknowledged = Mutex([Int](repeating: 1, count: count)) }
    }
}
