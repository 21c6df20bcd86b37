import Foundation
import Glibc
import Synchronization

/// Where log lines go: a bounded buffer that the event loops append to, written out by a thread
/// of its own, so a slow or stalled stdout never holds up a request.
///
/// Appending takes one short lock (a copy of the line). The writer thread sleeps until a line
/// arrives in an empty buffer, then waits `batchMillis` so that one `write(2)` carries the lines
/// of many requests. Past `capacity` unwritten bytes a line is dropped and counted: under
/// pressure the server keeps answering and says, in `/metrics`, how many lines it lost.
final class LogSink: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        /// The buffer written last, emptied, for the next batch (no allocation per batch).
        var spare: [UInt8] = []
        var lines = 0
        /// The writer thread is waiting for the first line (it is signalled, once, for it).
        var writerWaiting = false
    }

    private let fd: Int32
    private let capacity: Int
    private let batchMillis: UInt32
    private let state = Mutex(State())
    /// Held while a batch is taken and written, so batches reach the descriptor in order.
    private let writing = Mutex(())
    private let wake = DispatchSemaphore(value: 0)
    private let dropped = Atomic<Int>(0)

    /// - Parameters:
    ///   - fd: the descriptor written to (stdout by default); not closed.
    ///   - capacity: unwritten bytes kept at most.
    ///   - batchMillis: how long the writer waits after the first line of a batch.
    init(fd: Int32, capacity: Int = 4 << 20, batchMillis: UInt32 = 10) {
        self.fd = fd
        self.capacity = capacity
        self.batchMillis = batchMillis
        let thread = Thread { [self] in run() }
        thread.name = "wayfinder-log"
        thread.start()
    }

    /// Lines dropped so far: the buffer was full, or writing failed.
    var droppedLines: Int { dropped.load(ordering: .relaxed) }

    /// Queues one line (its bytes, ending in a newline); drops it if the buffer is full.
    func append(_ line: UnsafeRawBufferPointer) {
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

    /// Writes every line queued so far before returning (at exit).
    func flush() {
        writeBatch()
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
        writing.withLock { _ in
            var batch: [UInt8] = []
            let lines = state.withLock { s -> Int in
                swap(&batch, &s.bytes)
                swap(&s.bytes, &s.spare)
                defer { s.lines = 0 }
                return s.lines
            }
            defer {
                batch.removeAll(keepingCapacity: true)
                state.withLock { s in s.spare = batch }
            }
            guard !batch.isEmpty else { return }
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
        }
    }
}
