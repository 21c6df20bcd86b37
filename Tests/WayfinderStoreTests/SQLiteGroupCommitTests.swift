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
            // The writer sees its own group; a reader of the file does not yet; nothing is published.
            #expect(try store.load(id: fresh.id, now: Fixture.t0) == fresh)
            #expect(try store.load(id: kept.id, now: Fixture.t0)?.revision == 2)
            #expect(try store.idempotencyRecord(sessionID: kept.id, key: "key-1", now: Fixture.t0) == record)
            #expect(try outside.load(id: fresh.id, now: Fixture.t0) == nil)
            #expect(try outside.load(id: kept.id, now: Fixture.t0)?.revision == 1)
            #expect(recorder.changes.isEmpty)

            #expect(store.commitDeferred(mark: &mark))
            #expect(try outside.load(id: fresh.id, now: Fixture.t0) == fresh)
            #expect(try outside.idempotencyRecord(sessionID: kept.id, key: "key-1", now: Fixture.t0) == record)
            #expect(recorder.changes == [.saved(revision: 2)])
        }
        // The outside store cached kept at revision 1 above: a third one reads the file afresh.
        #expect(try SQLiteStore(path: path).load(id: kept.id, now: Fixture.t0)?.revision == 2)
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
