import CSQLite
import Foundation
import Synchronization

/// Moves WAL checkpoints off the request path.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses 1,000 WAL pages, so every
/// thousandth write or so paid for copying the WAL into the database and for its `fsync`s while a
/// client waited (and held the writer lock meanwhile). Here the writer's commit hook only counts
/// pages and wakes this thread, which checkpoints (`PASSIVE`: it never blocks the writer or the
/// readers) on a connection of its own.
///
/// SQLite writes the WAL from its beginning again only when a write transaction begins with every
/// frame already copied. Under a steady stream of commits this thread's pass never ends in that
/// state (commits land while it copies), so after a pass over a long WAL the writer's next commit
/// copies the few frames left: the WAL then starts over and the thread sleeps. Without that step
/// the WAL grew to the backstop while the thread, woken by every commit past `wakePages`,
/// checkpointed back to back (two `fsync`s each).
///
/// A backstop keeps the WAL bounded if this thread cannot keep up: past `inlineLimitPages` the
/// commit itself checkpoints, as SQLite would have.
final class SQLiteCheckpointer: Sendable {
    /// Pages in the WAL after which the thread is woken: about 64 MiB with 4 KiB pages (SQLite's
    /// own threshold is 1,000). A checkpoint copies each page once however often it was rewritten
    /// since the last one, so a longer WAL means far fewer copies (and `fsync`s) per write when
    /// sessions are used again and again: on the trigger benchmark (10,000 sessions) 16,000 gave
    /// about 1.5 times the throughput of 1,000, since the copying competes with requests for the
    /// CPU. The price is disk space and a longer WAL to replay after a crash.
    static let wakePages: Int32 = 16_000
    /// Frames committed during a pass below which the writer copies the rest (see `catchUp`).
    static let catchUpPages: Int32 = 256
    /// Pages after which the writer checkpoints inline (256 MiB with 4 KiB pages).
    static let inlineLimitPages: Int32 = 65_536

    private let path: String
    private let busyTimeoutMillis: Int32
    private let condition = NSCondition()
    private let pending = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Set once the thread has copied a WAL past `wakePages` but for the frames committed during
    /// its last pass: the writer's next commit copies those.
    private let finishDue = Atomic<Bool>(false)
    /// Checkpoints run by the thread (for tests and diagnostics).
    let passes = Atomic<Int>(0)

    init(path: String, busyTimeoutMillis: Int32) {
        self.path = path
        self.busyTimeoutMillis = busyTimeoutMillis
    }

    /// Installs the commit hook on the writer connection and starts the thread.
    func attach(to writer: SQLiteConnection) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        // The hook replaces SQLite's autocheckpoint (which is itself a WAL hook).
        sqlite3_wal_hook(writer.handle, { context, db, _, pages in
            guard let context else { return SQLITE_OK }
            let checkpointer = Unmanaged<SQLiteCheckpointer>.fromOpaque(context).takeUnretainedValue()
            // The thread has copied the bulk of the WAL (unless it started over meanwhile).
            let finish = checkpointer.finishDue.load(ordering: .acquiring)
                && checkpointer.finishDue.exchange(false, ordering: .acquiringAndReleasing) && pages >= SQLiteCheckpointer.wakePages
            if finish || pages >= SQLiteCheckpointer.inlineLimitPages {
                // Checkpoint here, like the autocheckpoint would (errors are retried by the next
                // commit or the thread): only the writer can finish a checkpoint with nothing
                // committed after it, so that its next transaction writes the WAL from the start.
                _ = sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            } else if pages >= SQLiteCheckpointer.wakePages {
                checkpointer.wake()
            }
            return SQLITE_OK
        }, context)
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "wayfinder-sqlite-checkpoint"
        thread.start()
    }

    private func wake() {
        guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        condition.lock()
        condition.signal()
        condition.unlock()
    }

    /// Stops the thread and waits for it (a checkpoint in progress ends first).
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
        finished.wait()
    }

    private func run() {
        // Opened here so that a failure only costs background checkpoints (the inline backstop
        // still bounds the WAL).
        let connection = try? SQLiteConnection(path: path)
        try? connection?.setBusyTimeout(milliseconds: busyTimeoutMillis)
        // A connection learns that the file is in WAL mode when it first reads it; until then a
        // checkpoint is a no-op.
        _ = try? connection?.queryText("PRAGMA journal_mode")
        while true {
            condition.lock()
            while !pending.load(ordering: .acquiring) && !stopping.load(ordering: .acquiring) {
                // Also wakes every second, so a quiet server's WAL is folded in after a burst.
                if !condition.wait(until: Date(timeIntervalSinceNow: 1)) { break }
            }
            condition.unlock()
            if stopping.load(ordering: .acquiring) { return }
            pending.store(false, ordering: .releasing)
            guard let connection else { continue }
            let frames = pass(connection)
            if frames >= Self.wakePages { catchUp(connection, after: frames) }
        }
    }

    /// One `PASSIVE` checkpoint; the WAL's frames when it began (0 if it failed).
    private func pass(_ connection: SQLiteConnection) -> Int32 {
        var logPages: Int32 = 0, checkpointed: Int32 = 0
        let rc = sqlite3_wal_checkpoint_v2(connection.handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logPages, &checkpointed)
        guard rc == SQLITE_OK else { return 0 }
        if logPages > 0 { passes.add(1, ordering: .relaxed) }
        return logPages
    }

    /// After a pass over a long WAL: copies what was committed meanwhile, again as long as
    /// `catchUpPages` frames or more came in during the pass before (at most four passes, each
    /// shorter than the one before), then leaves the rest to the writer's next commit, so the
    /// writer waits for a few frames, not for thousands.
    private func catchUp(_ connection: SQLiteConnection, after first: Int32) {
        var previous = first
        for _ in 0..<4 {
            let frames = pass(connection)
            guard frames > 0 else { return }
            let arrived = frames - previous
            previous = frames
            if arrived < Self.catchUpPages { break }
        }
        finishDue.store(true, ordering: .releasing)
    }
}
