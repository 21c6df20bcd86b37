import Foundation
import Synchronization

/// A background thread that runs a maintenance task at an interval (the expiry pass).
final class Sweeper: Sendable {
    private static let running = Mutex<[Sweeper]>([])
    private let stopped = Atomic<Bool>(false)

    /// Runs `task` every `seconds` until it returns false or ``stopAll()`` is called.
    static func start(every seconds: Double, _ task: @escaping @Sendable () -> Bool) {
        let sweeper = Sweeper()
        running.withLock { $0.append(sweeper) }
        let thread = Thread {
            while !sweeper.stopped.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: seconds)
                if sweeper.stopped.load(ordering: .acquiring) || !task() { break }
            }
        }
        thread.name = "wayfinder-sweeper"
        thread.start()
    }

    static func stopAll() {
        for sweeper in running.withLock({ list in defer { list.removeAll() }; return list }) {
            sweeper.stopped.store(true, ordering: .releasing)
        }
    }
}
