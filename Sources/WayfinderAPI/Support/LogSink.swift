import Foundation
import Glibc
import Synchronization

/// Where log lines go: a bounded buffer that the event loops append to, written out by a thread
/// of its own, so a slow or stalled stdout never holds up a request.
///
/// Appending takes one short lock (a copy of the line). The writer thread, started by the first
/// line, sleeps until a line arrives in an empty buffer, then waits `batchMillis` so that one
/// `write(2)` carries the lines of many requests. Past `capacity` unwritten bytes a line is
/// dropped and counted: under pressure the server keeps answering and says, in `/metrics`, how
/// many lines it lost.
final class LogSink: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        /// The buffer written last, emptied, for the next batch (no allocation per batch).
        var spare: [UInt8] = []
        var lines = 0
        /// The writer thread is waiting for the first line (it is signalled, once, for it).
        var writerWaiting = false
        /// The writer thread has taken a batch and not finished writing it.
        var writing = false
    }

    private let fd: Int32
    private let capacity: Int
    private let batchMillis: UInt32
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let dropped = Atomic<Int>(0)
    private let started = Atomic<Bool>(false)

    /// - Parameters:
    ///   - fd: the descriptor written to (stdout by default); not closed.
    ///   - capacity: unwritten bytes kept at most.
    ///   - batchMillis: how long the writer waits after the first line of a batch.
    init(fd: Int32, capacity: Int = 4 << 20, batchMillis: UInt32 = 10) {
        self.fd = fd
        self.capacity = capacity
        self.batchMillis = batchMillis
    }

    /// Lines dropped so far: the buffer was full, or writing failed.
    var droppedLines: Int { dropped.load(ordering: .relaxed) }

    /// Queues one line (its bytes, ending in a newline); drops it if the buffer is full.
    func append(_ line: UnsafeRawBufferPointer) {
        if !started.load(ordering: .relaxed) { startWriter() }
        let signal = state.withLock { s -> Bool? in
            guard s.bytes.count + line.count <= capacity else { return nil }
            s.bytes.append(contentsOf: line)
            s.lines += 1
            guard s.writerWaiting else { return false }
            s.writerWaiting = false
            return true
        }
        switch signal {
        case nil: dropped.add(1, ordering: .relaxed)
        case true?: wake.signal()
        case false?: break
        }
    }

    /// Waits, at most `timeoutMillis`, until every line queued so far is written (before the
    /// process exits; a stdout that stays stalled costs the wait, not a hang).
    func flush(timeoutMillis: Int = 2_000) {
        let deadline = DispatchTime.now() + .milliseconds(timeoutMillis)
        while DispatchTime.now() < deadline {
            let idle = state.withLock { $0.bytes.isEmpty && !$0.writing }
            if idle { return }
            usleep(1_000)
        }
    }

    private func startWriter() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in run() }
        thread.name = "wayfinder-log"
        thread.start()
    }

    private func run() {
        while true {
            let empty = state.withLock { s -> Bool in
                if s.bytes.isEmpty { s.writerWaiting = true }
                return s.bytes.isEmpty
            }
            if empty { wake.wait() }
            usleep(batchMillis * 1000)
            writeBatch()
        }
    }

    /// Takes what is queued and writes it; a batch that cannot be written counts as dropped.
    private func writeBatch() {
        var batch: [UInt8] = []
        let lines = state.withLock { s -> Int in
            swap(&batch, &s.bytes)
            swap(&s.bytes, &s.spare)
            s.writing = true
            defer { s.lines = 0 }
            return s.lines
        }
        let complete = batch.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
        if !complete { dropped.add(lines, ordering: .relaxed) }
        batch.removeAll(keepingCapacity: true)
        state.withLock { s in
            s.spare = batch
            s.writing = false
        }
    }
}
