import Foundation
import Synchronization
import WayfinderHTTP

/// The open server-sent event streams: a heartbeat comment for each, and closing them all on
/// shutdown. Changes themselves arrive through the store's change feed, not by polling.
final class EventStreams: Sendable {
    private let open = Mutex<[ObjectIdentifier: HTTPStreamWriter]>([:])
    private let heartbeatSeconds: Double
    private let stopped = Atomic<Bool>(false)

    init(heartbeatSeconds: Double) { self.heartbeatSeconds = heartbeatSeconds }

    var count: Int { open.withLock { $0.count } }

    func add(_ writer: HTTPStreamWriter) { open.withLock { $0[ObjectIdentifier(writer)] = writer } }
    func remove(_ writer: HTTPStreamWriter) { _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(writer)) } }

    /// A comment line on every open stream every `heartbeatSeconds`, so proxies keep them open
    /// and dead peers are noticed.
    func startHeartbeat() {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: heartbeatSeconds)
                let writers = open.withLock { Array($0.values) }
                for writer in writers { _ = writer.write(Array(": keep-alive\n\n".utf8)) }
            }
        }
        thread.name = "wayfinder-heartbeat"
        thread.start()
    }

    func closeAll() {
        stopped.store(true, ordering: .releasing)
        let writers = open.withLock { Array($0.values) }
        for writer in writers { writer.close() }
    }
}
