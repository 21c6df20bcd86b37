import Foundation
import Synchronization

/// Threads of their own for the effect machinery (running services, waiting for them, saving
/// their results): services may block (a password hash, a file, a slow library), and Swift's
/// shared pool has one thread per core — blocking it would stall every other task of the
/// process. Tasks started with this executor as their preference, and their child tasks, run here.
final class EffectExecutor: TaskExecutor, @unchecked Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    private let available = DispatchSemaphore(value: 0)

    /// - Parameter threads: how many services may block at once.
    init(threads: Int) {
        for index in 0..<max(1, threads) {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "wayfinder-effects-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        available.signal()
    }

    private func work() {
        while true {
            available.wait()
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
