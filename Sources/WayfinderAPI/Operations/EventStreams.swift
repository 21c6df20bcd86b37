import Foundation
import Synchronization
import WayfinderHTTP

/// The open server-sent event streams: their caps (per session and per process), the last
/// `state` event of each session with streams (rendered once per revision, the same bytes for
/// every stream), a heartbeat comment for each, and closing them all on shutdown. Changes arrive
/// through the store's change feed, not by polling.
final class EventStreams: Sendable {
    /// One `state` event, framed (`event:`, `id:`, `data:`), shared by every stream of a session.
    struct StateEvent: Sendable {
        let revision: Int
        let bytes: [UInt8]
    }

    private struct SessionStreams {
        var count = 0
        var last: StateEvent?
    }

    private let sessions = Mutex<[String: SessionStreams]>([:])
    /// Open streams per client share (only those with streams have an entry).
    private let clients = Mutex<[IPAddress: Int]>([:])
    private let open = Mutex<[ObjectIdentifier: HTTPStreamWriter]>([:])
    private let total = Atomic<Int>(0)
    private let heartbeatSeconds: Double
    private let maxPerSession: Int
    private let maxTotal: Int
    private let maxPerClient: Int?
    private let stopped = Atomic<Bool>(false)
    private static let heartbeat = Array(": keep-alive\n\n".utf8)

    init(heartbeatSeconds: Double, maxPerSession: Int, maxTotal: Int, maxPerClient: Int?) {
        self.heartbeatSeconds = heartbeatSeconds
        self.maxPerSession = max(1, maxPerSession)
        self.maxTotal = max(1, maxTotal)
        self.maxPerClient = maxPerClient.map { max(1, $0) }
    }

    /// Open streams.
    var count: Int { total.load(ordering: .relaxed) }

    /// Takes a place for one more stream of `sessionID` opened by `client` (its share; nil:
    /// not counted); `release` gives it back.
    /// - Throws: `429 session_stream_limit`, `429 address_stream_limit` or `503 stream_limit`,
    ///   with the heartbeat interval as `Retry-After` (a dead peer's place is freed by then).
    func reserve(_ sessionID: String, client: IPAddress?) throws(APIError) {
        let retryAfter = Int(heartbeatSeconds.rounded(.up))
        let admitted = sessions.withLock { table -> Bool in
            guard table[sessionID, default: SessionStreams()].count < maxPerSession else { return false }
            table[sessionID, default: SessionStreams()].count += 1
            return true
        }
        guard admitted else { throw .sessionStreamLimit(limit: maxPerSession, retryAfter: retryAfter) }
        if let maxPerClient, let client {
            let clientAdmitted = clients.withLock { table -> Bool in
                guard table[client, default: 0] < maxPerClient else { return false }
                table[client, default: 0] += 1
                return true
            }
            guard clientAdmitted else {
                leave(sessionID)
                throw .addressStreamLimit(limit: maxPerClient, retryAfter: retryAfter)
            }
        }
        guard total.add(1, ordering: .relaxed).newValue <= maxTotal else {
            total.subtract(1, ordering: .relaxed)
            leave(sessionID)
            leave(client: client)
            throw .streamLimit(retryAfter: retryAfter)
        }
    }

    /// Gives back a place taken by `reserve`; the session's last event goes with its last stream.
    func release(_ sessionID: String, client: IPAddress?) {
        leave(sessionID)
        leave(client: client)
        total.subtract(1, ordering: .relaxed)
    }

    /// One stream of `client` fewer.
    private func leave(client: IPAddress?) {
        guard maxPerClient != nil, let client else { return }
        clients.withLock { table in
            guard let index = table.index(forKey: client) else { return }
            table.values[index] -= 1
            if table.values[index] <= 0 { table.remove(at: index) }
        }
    }

    /// One stream of `sessionID` fewer; the session's entry goes with its last stream.
    private func leave(_ sessionID: String) {
        sessions.withLock { table in
            guard let index = table.index(forKey: sessionID) else { return }
            table.values[index].count -= 1
            if table.values[index].count <= 0 { table.remove(at: index) }
        }
    }

    /// The session's last `state` event if it is at `revision` or later.
    func lastEvent(_ sessionID: String, atLeast revision: Int) -> StateEvent? {
        guard let last = sessions.withLock({ $0[sessionID]?.last }), last.revision >= revision else { return nil }
        return last
    }

    /// The session's `state` event at `revision` or later: the one kept if it is recent enough,
    /// otherwise `make()`'s, kept for the session's other streams.
    func stateEvent(_ sessionID: String, atLeast revision: Int, make: () throws -> StateEvent) rethrows -> StateEvent {
        if let last = lastEvent(sessionID, atLeast: revision) { return last }
        let event = try make()
        sessions.withLock { table in
            guard let index = table.index(forKey: sessionID) else { return }
            if (table.values[index].last?.revision ?? .min) < event.revision { table.values[index].last = event }
        }
        return event
    }

    func add(_ writer: HTTPStreamWriter) { open.withLock { $0[ObjectIdentifier(writer)] = writer } }
    func remove(_ writer: HTTPStreamWriter) { _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(writer)) } }

    /// A comment line on every open stream every `heartbeatSeconds`, so proxies keep them open
    /// and dead peers are noticed.
    func startHeartbeat() {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: heartbeatSeconds)
                let writers = open.withLock { Array($0.values) }
                for writer in writers { _ = writer.write(Self.heartbeat) }
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
