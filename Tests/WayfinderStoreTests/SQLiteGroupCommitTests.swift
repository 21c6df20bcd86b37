import Foundation
import Synchronization
import Testing
@testable import WayfinderStore

/// Group commit: a thread that defers its commits (an event loop) leaves its writes in one open
/// transaction until `commitDeferred(mark:)`; any other writer commits them with its own.
///
/// "Durable" is checked through a second store on the same file: its readers see only what was
/// committed. Deferring threads are dedicated `Thread`s (the mark is thread-specific, and the test
/// runner's threads are shared with other tests).
@Suite("SQLite group commit")
struct SQLiteGroupCommitTests {
    @Test func aDeferringThreadsWritesWaitForTheCommitAndArePublishedAfterIt() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/group.sqlite"
        let store = try SQLiteStore(path: path)
        let outside = try SQLiteStore(path: path)
        let kept = Fixture.session()
        try store.create(kept, maxSessions: 10)  // committed: this thread does not defer
        let recorder = ChangeRecorder()
        let subscription = store.changes.subscribe(kept.id) { recorder.record($0) }
        defer { subscription.cancel() }
        let fresh = Fixture.session()
        let record = Fixture.record(kept.id)

        try onOwnThread {
            #expect(store.deferCommitsOnCurrentThread())
            var mark: UInt64 = 0
            try store.create(fresh, maxSessions: 10)
            try store.save(Fixture.next(kept), expectedRevision: 1, idempotency: record)
            // The new row is cached, so its check passed in memory: the insert waits in the queue.
            // The save carries an idempotency record, whose key is checked against the file: it
            // ran in the group at once (the queue first). The cached rows answer loads.
            #expect(store.queuedStatements == 0)
            try store.save(Fixture.next(Fixture.next(kept)), expectedRevision: 2, idempotency: nil)
            #expect(store.queuedStatements == 1)
            #expect(try store.load(id: fresh.id, now: Fixture.t0) == fresh)
            #expect(try store.load(id: kept.id, now: Fixture.t0)?.revision == 3)
            #expect(throws: StoreError.conflict(currentRevision: 3)) {
                try store.save(Fixture.next(kept), expectedRevision: 1, idempotency: nil)
            }
            #expect(store.queuedStatements == 1)
            // The writer sees its own group (reading the record runs the queue first); a reader of
            // the file does not yet; nothing is published.
            #expect(try store.idempotencyRecord(sessionID: kept.id, key: "key-1", now: Fixture.t0) == record)
            #expect(try outside.load(id: fresh.id, now: Fixture.t0) == nil)
            #expect(try outside.load(id: kept.id, now: Fixture.t0)?.revision == 1)
            #expect(recorder.changes.isEmpty)

            #expect(store.commitDeferred(mark: &mark))
            #expect(try outside.load(id: fresh.id, now: Fixture.t0) == fresh)
            #expect(try outside.idempotencyRecord(sessionID: kept.id, key: "key-1", now: Fixture.t0) == record)
            #expect(recorder.changes == [.saved(revision: 2), .saved(revision: 3)])
        }
        // The outside store cached kept at revision 1 above: a third one reads the file afresh.
        #expect(try SQLiteStore(path: path).load(id: kept.id, now: Fixture.t0)?.revision == 3)
    }

    @Test func aWriterThatDoesNotDeferCommitsTheWholeGroup() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/group.sqlite"
        let store = try SQLiteStore(path: path)
        let outside = try SQLiteStore(path: path)
        let deferred = Fixture.session(), direct = Fixture.session()
        let saved = DispatchSemaphore(value: 0), checked = DispatchSemaphore(value: 0)
        let loop = Thread {
            _ = store.deferCommitsOnCurrentThread()
            try? store.create(deferred, maxSessions: 10)
            saved.signal()
            _ = checked.wait(timeout: .now() + 10)
        }
        loop.start()
        #expect(saved.wait(timeout: .now() + 10) == .success)
        #expect(try outside.load(id: deferred.id, now: Fixture.t0) == nil)
        try store.create(direct, maxSessions: 10)  // this thread commits: the loop's insert goes with it
        #expect(try outside.load(id: deferred.id, now: Fixture.t0) == deferred)
        #expect(try outside.load(id: direct.id, now: Fixture.t0) == direct)
        checked.signal()
    }

    @Test func aFailedGroupIsRolledBackForgottenAndReported() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/group.sqlite"
        let store = try SQLiteStore(path: path)
        let kept = Fixture.session(), duplicate = Fixture.session()
        try store.create(kept, maxSessions: 10)
        try store.create(duplicate, maxSessions: 10)
        let recorder = ChangeRecorder()
        let subscription = store.changes.subscribe(kept.id) { recorder.record($0) }
        defer { subscription.cancel() }
        let lost = Fixture.session()

        try onOwnThread {
            _ = store.deferCommitsOnCurrentThread()
            var mark: UInt64 = 0
            #expect(store.commitDeferred(mark: &mark), "nothing has failed yet")
            try store.create(lost, maxSessions: 10)
            try store.save(Fixture.next(kept), expectedRevision: 1, idempotency: Fixture.record(kept.id))
            #expect(try store.count(now: Fixture.t0) == 3)
            // A statement that fails inside the group (a bulk insert of an id that exists) rolls
            // back everything in it, the loop's writes too.
            #expect(throws: StoreError.duplicateID) {
                try store.insertAll(count: 1) { _ in duplicate }
            }
            #expect(!store.commitDeferred(mark: &mark), "the held answers must be dropped")
            #expect(try store.load(id: lost.id, now: Fixture.t0) == nil)
            #expect(try store.load(id: kept.id, now: Fixture.t0) == kept)
            #expect(try store.idempotencyRecord(sessionID: kept.id, key: "key-1", now: Fixture.t0) == nil)
            #expect(try store.count(now: Fixture.t0) == 2)
            #expect(recorder.changes.isEmpty)

            // The store goes on: the next group commits, and the mark has moved past the failure.
            try store.save(Fixture.next(kept), expectedRevision: 1, idempotency: nil)
            #expect(store.commitDeferred(mark: &mark))
            #expect(recorder.changes == [.saved(revision: 2)])
        }
        #expect(try SQLiteStore(path: path).load(id: kept.id, now: Fixture.t0) == Fixture.next(kept))
    }

    @Test func closingCommitsAnOpenGroup() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/group.sqlite"
        let store = try SQLiteStore(path: path)
        let session = Fixture.session()
        try onOwnThread {
            _ = store.deferCommitsOnCurrentThread()
            try store.create(session, maxSessions: 10)
        }
        try store.close()
        #expect(try SQLiteStore(path: path).load(id: session.id, now: Fixture.t0) == session)
    }

    // MARK: Deferred statements

    @Test func queuedRowsStayCachedThroughEvictionsUntilTheyAreCommitted() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/pinned.sqlite"
        // One row per shard: every new row clears its shard, except the rows still queued.
        let store = try SQLiteStore(path: path, rowCacheCapacity: 32)
        let sessions = (0..<200).map { _ in Fixture.session() }
        try onOwnThread {
            _ = store.deferCommitsOnCurrentThread()
            var mark: UInt64 = 0
            for session in sessions { try store.create(session, maxSessions: 1_000) }
            #expect(store.queuedStatements == 200)
            #expect(store.cachedRows == 200, "a queued row is the only copy of its session")
            for session in sessions { #expect(try store.load(id: session.id, now: Fixture.t0) == session) }
            #expect(store.commitDeferred(mark: &mark))
            #expect(store.queuedStatements == 0)
        }
        // Committed: the rows may go again, and the cache is back within its bound once every
        // shard has taken a new row (640 random ids miss one of 32 shards with odds of 1e-9).
        let others = (0..<640).map { _ in Fixture.session() }
        for session in others { try store.create(session, maxSessions: 1_000) }
        #expect(store.cachedRows <= 32)
        let reopened = try SQLiteStore(path: path)
        for session in sessions + others { #expect(try reopened.load(id: session.id, now: Fixture.t0) == session) }
        #expect(try reopened.count(now: Fixture.t0) == 840)
    }

    @Test func twoLoopsRacingSavesLoseNoUpdate() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/race.sqlite"
        let store = try SQLiteStore(path: path, rowCacheCapacity: 64)
        let sessions = (0..<6).map { _ in Fixture.session() }
        for session in sessions { try store.create(session, maxSessions: 100) }
        let rounds = 300
        let applied = Mutex([Int](repeating: 0, count: sessions.count))
        let failures = Atomic<Int>(0)
        runOnThreads(2) { loop in
            _ = store.deferCommitsOnCurrentThread()
            var mark: UInt64 = 0
            for round in 0..<rounds {
                // A round of "requests": read, change, save; on a conflict read again.
                for offset in 0..<sessions.count {
                    let index = (offset + loop + round) % sessions.count
                    while true {
                        guard let current = try? store.load(id: sessions[index].id, now: Fixture.t0) else {
                            failures.add(1, ordering: .relaxed); break
                        }
                        do {
                            try store.save(Fixture.next(current), expectedRevision: current.revision, idempotency: nil)
                            applied.withLock { $0[index] += 1 }
                            break
                        } catch StoreError.conflict {
                            continue
                        } catch {
                            failures.add(1, ordering: .relaxed); break
                        }
                    }
                }
                if !store.commitDeferred(mark: &mark) { failures.add(1, ordering: .relaxed) }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(store.queuedStatements == 0)
        let reopened = try SQLiteStore(path: path)
        let counts = applied.withLock { $0 }
        for (index, session) in sessions.enumerated() {
            #expect(counts[index] == 2 * rounds)
            #expect(try reopened.load(id: session.id, now: Fixture.t0)?.revision == 1 + counts[index])
        }
    }

    @Test func aDeleteRunsTheQueuedSaveOfItsSessionFirst() throws {
        let directory = TemporaryDirectory()
        let store = try SQLiteStore(path: directory.path + "/delete.sqlite")
        let session = Fixture.session()
        try store.create(session, maxSessions: 10)
        let recorder = ChangeRecorder()
        let subscription = store.changes.subscribe(session.id) { recorder.record($0) }
        defer { subscription.cancel() }
        try onOwnThread {
            _ = store.deferCommitsOnCurrentThread()
            var mark: UInt64 = 0
            try store.save(Fixture.next(session), expectedRevision: 1, idempotency: nil)
            #expect(store.queuedStatements == 1)
            #expect(try store.delete(id: session.id))
            #expect(store.commitDeferred(mark: &mark), "the save ran before the delete: nothing failed")
        }
        #expect(try store.load(id: session.id, now: Fixture.t0) == nil)
        #expect(try store.count(now: Fixture.t0) == 0)
        #expect(recorder.changes == [.saved(revision: 2), .deleted])
    }

    @Test func aQueuedInsertThatFailsAtTheCommitFailsTheGroupAndTheLoopIsTold() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/insert.sqlite"
        let store = try SQLiteStore(path: path)
        let outside = try SQLiteStore(path: path)
        let taken = Fixture.session()
        try outside.create(taken, maxSessions: 10)  // on the file, not in `store`'s cache
        let bystander = Fixture.session()
        try store.create(bystander, maxSessions: 10)
        let clash = Fixture.session(taken.id, state: #"{"stack":["other"]}"#)
        try onOwnThread {
            _ = store.deferCommitsOnCurrentThread()
            var mark: UInt64 = 0
            try store.save(Fixture.next(bystander), expectedRevision: 1, idempotency: nil)
            try store.create(clash, maxSessions: 10)  // checked in memory only: queued
            #expect(store.queuedStatements == 2)
            #expect(!store.commitDeferred(mark: &mark), "the insert failed at the commit: the held answers must go")
            #expect(store.queuedStatements == 0)
            // The whole group is gone, the bystander's save too; what the file has is served.
            #expect(try store.load(id: bystander.id, now: Fixture.t0) == bystander)
            #expect(try store.load(id: taken.id, now: Fixture.t0) == taken)
            #expect(try store.count(now: Fixture.t0) == 2)
            // And the next group commits.
            try store.save(Fixture.next(bystander), expectedRevision: 1, idempotency: nil)
            #expect(store.commitDeferred(mark: &mark))
        }
        #expect(try SQLiteStore(path: path).load(id: bystander.id, now: Fixture.t0)?.revision == 2)
    }

    /// Runs `body` on a new thread and waits for it.
    private func onOwnThread(_ body: @escaping @Sendable () throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        let thread = Thread {
            do { try body() } catch { failure.withLock { $0 = error } }
            done.signal()
        }
        thread.start()
        #expect(done.wait(timeout: .now() + 30) == .success)
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
