import Foundation
import Synchronization
import Testing
@testable import WayfinderStore

/// Group commit: writes made without blocking on an event loop leave the group open and are
/// answered at the end of the loop's round, after its commit; any other writer commits them
/// with its own. A read that may have seen uncommitted rows is answered after the commit too.
///
/// "Durable" is checked through a second store on the same file: its readers see only what was
/// committed. The loops are `ManualLoop`s whose rounds the tests end.
@Suite("SQLite group commit")
struct SQLiteGroupCommitTests {
    @Test func writesOnALoopAreAnsweredAndPublishedAfterTheCommitAtTheEndOfItsRound() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/group.sqlite"
        let store = try SQLiteStore(path: path)
        let outside = try SQLiteStore(path: path)
        let kept = Fixture.session()
        try store.create(kept, maxSessions: 10)  // committed: no loop
        let recorder = ChangeRecorder()
        let subscription = store.changes.subscribe(kept.id) { recorder.record($0) }
        defer { subscription.cancel() }
        let fresh = Fixture.session()
        let record = Fixture.record(kept.id)
        let loop = ManualLoop()

        let created = Answer<Void>(), saved = Answer<Void>(), savedAgain = Answer<Void>(), stale = Answer<Void>()
        store.create(fresh, maxSessions: 10, now: Fixture.t0, journal: nil, on: loop, created.done)
        store.save(Fixture.next(kept), expectedRevision: 1, idempotency: record, journal: nil, on: loop, saved.done)
        // The new row is cached, so its check passed in memory: the insert waits in the queue.
        // The save carries an idempotency record, whose key is checked against the file: it ran
        // in the group at once (the queue first).
        #expect(store.queuedStatements == 0)
        store.save(Fixture.next(Fixture.next(kept)), expectedRevision: 2, idempotency: nil, journal: nil, on: loop, savedAgain.done)
        #expect(store.queuedStatements == 1)
        // A refused compare-and-set wrote nothing: answered at once.
        store.save(Fixture.next(kept), expectedRevision: 1, idempotency: nil, journal: nil, on: loop, stale.done)
        #expect(throws: StoreError.conflict(currentRevision: 3)) { try stale.value() }
        // Reads on the loop of what is not committed wait for the round's end; other threads
        // read the cached rows (the writer sees its own group).
        let readFresh = Answer<StoredSession?>()
        store.load(id: fresh.id, key: SessionKey(fresh.id), now: Fixture.t0, on: loop, readFresh.done)
        #expect(!readFresh.isGiven)
        #expect(try store.load(id: kept.id, now: Fixture.t0)?.revision == 3)
        #expect(try store.idempotencyRecord(sessionID: kept.id, key: "key-1", now: Fixture.t0) == record)
        // Nothing is answered, committed or published yet.
        #expect(!created.isGiven && !saved.isGiven && !savedAgain.isGiven)
        #expect(try outside.load(id: fresh.id, now: Fixture.t0) == nil)
        #expect(try outside.load(id: kept.id, now: Fixture.t0)?.revision == 1)
        #expect(recorder.changes.isEmpty)

        loop.endRound()
        try created.value()
        try saved.value()
        try savedAgain.value()
        #expect(try readFresh.value() == fresh)
        #expect(try outside.load(id: fresh.id, now: Fixture.t0) == fresh)
        #expect(try outside.idempotencyRecord(sessionID: kept.id, key: "key-1", now: Fixture.t0) == record)
        #expect(recorder.changes == [.saved(revision: 2), .saved(revision: 3)])
        // A committed row is read at once.
        let readKept = Answer<StoredSession?>()
        store.load(id: kept.id, key: SessionKey(kept.id), now: Fixture.t0, on: loop, readKept.done)
        #expect(try readKept.value()?.revision == 3)
        // The outside store cached kept at revision 1 above: a third one reads the file afresh.
        #expect(try SQLiteStore(path: path).load(id: kept.id, now: Fixture.t0)?.revision == 3)
    }

    @Test func aWriterWithoutALoopCommitsTheWholeGroup() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/group.sqlite"
        let store = try SQLiteStore(path: path)
        let outside = try SQLiteStore(path: path)
        let deferred = Fixture.session(), direct = Fixture.session()
        let loop = ManualLoop()
        let created = Answer<Void>()
        store.create(deferred, maxSessions: 10, now: Fixture.t0, journal: nil, on: loop, created.done)
        #expect(try outside.load(id: deferred.id, now: Fixture.t0) == nil)
        try store.create(direct, maxSessions: 10)  // no loop: commits, the loop's insert with it
        #expect(try outside.load(id: deferred.id, now: Fixture.t0) == deferred)
        #expect(try outside.load(id: direct.id, now: Fixture.t0) == direct)
        loop.endRound()
        try created.value()
    }

    @Test func aFailedGroupIsRolledBackForgottenAndItsAnswersAreFailures() throws {
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
        let loop = ManualLoop()

        let created = Answer<Void>(), saved = Answer<Void>()
        store.create(lost, maxSessions: 10, now: Fixture.t0, journal: nil, on: loop, created.done)
        store.save(Fixture.next(kept), expectedRevision: 1, idempotency: Fixture.record(kept.id), journal: nil, on: loop, saved.done)
        #expect(try store.count(now: Fixture.t0) == 3)
        // A statement that fails inside the group (a bulk insert of an id that exists) rolls
        // back everything in it, the loop's writes too.
        #expect(throws: StoreError.duplicateID) {
            try store.insertAll(count: 1) { _ in duplicate }
        }
        loop.endRound()
        #expect(throws: StoreError.self, "the answers must not report lost writes") { try created.value() }
        #expect(throws: StoreError.self) { try saved.value() }
        #expect(try store.load(id: lost.id, now: Fixture.t0) == nil)
        #expect(try store.load(id: kept.id, now: Fixture.t0) == kept)
        #expect(try store.idempotencyRecord(sessionID: kept.id, key: "key-1", now: Fixture.t0) == nil)
        #expect(try store.count(now: Fixture.t0) == 2)
        #expect(recorder.changes.isEmpty)

        // The store goes on: the next group commits.
        let next = Answer<Void>()
        store.save(Fixture.next(kept), expectedRevision: 1, idempotency: nil, journal: nil, on: loop, next.done)
        loop.endRound()
        try next.value()
        #expect(recorder.changes == [.saved(revision: 2)])
        #expect(try SQLiteStore(path: path).load(id: kept.id, now: Fixture.t0) == Fixture.next(kept))
    }

    @Test func closingCommitsAnOpenGroup() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/group.sqlite"
        let store = try SQLiteStore(path: path)
        let session = Fixture.session()
        store.create(session, maxSessions: 10, now: Fixture.t0, journal: nil, on: ManualLoop()) { _ in }
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
        let loop = ManualLoop()
        let answers = sessions.map { _ in Answer<Void>() }
        for (session, answer) in zip(sessions, answers) {
            store.create(session, maxSessions: 1_000, now: Fixture.t0, journal: nil, on: loop, answer.done)
        }
        #expect(store.queuedStatements == 200)
        #expect(store.cachedRows == 200, "a queued row is the only copy of its session")
        for session in sessions { #expect(try store.load(id: session.id, now: Fixture.t0) == session) }
        loop.endRound()
        for answer in answers { try answer.value() }
        #expect(store.queuedStatements == 0)
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
        runOnThreads(2) { thread in
            let loop = ManualLoop()
            for round in 0..<rounds {
                // A round of "requests": read, change, save; on a conflict read again. The saves
                // are answered at the round's end.
                var answers: [(Int, Answer<Void>)] = []
                for offset in 0..<sessions.count {
                    let index = (offset + thread + round) % sessions.count
                    while true {
                        guard let current = try? store.load(id: sessions[index].id, now: Fixture.t0) else {
                            failures.add(1, ordering: .relaxed); break
                        }
                        let answer = Answer<Void>()
                        store.save(Fixture.next(current), expectedRevision: current.revision, idempotency: nil, journal: nil, on: loop, answer.done)
                        if answer.isGiven, case .conflict? = Self.error(answer) { continue }
                        answers.append((index, answer))
                        break
                    }
                }
                loop.endRound()
                for (index, answer) in answers {
                    if (try? answer.value()) != nil { applied.withLock { $0[index] += 1 } } else { failures.add(1, ordering: .relaxed) }
                }
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
        let loop = ManualLoop()
        let saved = Answer<Void>(), deleted = Answer<Bool>()
        store.save(Fixture.next(session), expectedRevision: 1, idempotency: nil, journal: nil, on: loop, saved.done)
        #expect(store.queuedStatements == 1)
        store.delete(id: session.id, expectedRevision: nil, on: loop, deleted.done)
        loop.endRound()
        try saved.value()
        #expect(try deleted.value(), "the save ran before the delete: nothing failed")
        #expect(try store.load(id: session.id, now: Fixture.t0) == nil)
        #expect(try store.count(now: Fixture.t0) == 0)
        #expect(recorder.changes == [.saved(revision: 2), .deleted])
    }

    @Test func aQueuedInsertThatFailsAtTheCommitFailsTheAnswersOfItsGroup() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/insert.sqlite"
        let store = try SQLiteStore(path: path)
        let outside = try SQLiteStore(path: path)
        let taken = Fixture.session()
        try outside.create(taken, maxSessions: 10)  // on the file, not in `store`'s cache
        let bystander = Fixture.session()
        try store.create(bystander, maxSessions: 10)
        let clash = Fixture.session(taken.id, state: #"{"stack":["other"]}"#)
        let loop = ManualLoop()
        let saved = Answer<Void>(), created = Answer<Void>()
        store.save(Fixture.next(bystander), expectedRevision: 1, idempotency: nil, journal: nil, on: loop, saved.done)
        store.create(clash, maxSessions: 10, now: Fixture.t0, journal: nil, on: loop, created.done)  // checked in memory only: queued
        #expect(store.queuedStatements == 2)
        loop.endRound()
        #expect(throws: StoreError.self, "the insert failed at the commit: no answer may report the group") { try saved.value() }
        #expect(throws: StoreError.self) { try created.value() }
        #expect(store.queuedStatements == 0)
        // The whole group is gone, the bystander's save too; what the file has is served.
        #expect(try store.load(id: bystander.id, now: Fixture.t0) == bystander)
        #expect(try store.load(id: taken.id, now: Fixture.t0) == taken)
        #expect(try store.count(now: Fixture.t0) == 2)
        // And the next group commits.
        let next = Answer<Void>()
        store.save(Fixture.next(bystander), expectedRevision: 1, idempotency: nil, journal: nil, on: loop, next.done)
        loop.endRound()
        try next.value()
        #expect(try SQLiteStore(path: path).load(id: bystander.id, now: Fixture.t0)?.revision == 2)
    }

    private static func error<T>(_ answer: Answer<T>) -> StoreError? {
        do {
            _ = try answer.value()
            return nil
        } catch {
            return error as? StoreError
        }
    }
}
