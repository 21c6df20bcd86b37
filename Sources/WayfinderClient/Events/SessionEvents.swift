import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A session's states as they change (`GET /v1/sessions/{id}/events`), as an endless
/// `AsyncSequence`.
///
/// Each element is newer than the one before (a reconnection never repeats a state). When the
/// connection drops or the server closes it, the sequence reconnects after a backoff
/// (``ClientConfiguration/eventReconnect``) with `Last-Event-ID` set to the last revision it
/// delivered, so the server sends only what is newer. A stream silent for longer than
/// ``ClientConfiguration/eventIdleTimeout`` counts as dropped. The sequence ends by throwing
/// ``WayfinderError/problem(_:)`` when the server refuses for good (`not_found`: the session
/// ended or expired; `unauthorized`); for a task that is cancelled while iterating, it ends (the
/// iterator answers nil) and its connection closes.
public struct SessionEvents: AsyncSequence, Sendable {
    /// A state, newer than the last one.
    public typealias Element = WireState
    /// What the sequence throws.
    public typealias Failure = WayfinderError

    let transport: Transport
    let credentials: SessionCredentials
    let since: Int?

    /// Starts following the stream; each iterator has its own connection.
    public func makeAsyncIterator() -> AsyncIterator {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: WireState.self)
        let follower = EventFollower(transport: transport, credentials: credentials, lastRevision: since)
        let task = Task { await follower.run(continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return AsyncIterator(base: stream.makeAsyncIterator())
    }

    /// Delivers the states one by one.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// What the iterator throws.
        public typealias Failure = WayfinderError
        var base: AsyncThrowingStream<WireState, any Error>.AsyncIterator

        /// The next state; nil only once the iterating task is cancelled.
        public mutating func next() async throws(WayfinderError) -> WireState? {
            do {
                return try await base.next()
            } catch let error as WayfinderError {
                throw error
            } catch {
                throw .cancelled
            }
        }
    }
}

/// The reconnecting loop behind ``SessionEvents``.
struct EventFollower: Sendable {
    let transport: Transport
    let credentials: SessionCredentials
    var lastRevision: Int?

    /// How one connection ended.
    private enum Ending {
        /// After a `200`: reconnect soon.
        case dropped
        /// Before any answer, or with a refusal worth retrying (`503`).
        case failed
        /// A refusal that will not change: end the sequence.
        case refused(WayfinderError)
    }

    func run(_ continuation: AsyncThrowingStream<WireState, any Error>.Continuation) async {
        var follower = self
        var failures = 0
        let backoff = transport.configuration.eventReconnect
        while !Task.isCancelled {
            switch await follower.connect(continuation) {
            case .refused(let error):
                continuation.finish(throwing: error)
                return
            case .dropped:
                failures = 0
            case .failed:
                failures += 1
            }
            do {
                try await Transport.sleep(failures == 0 ? backoff.initial : backoff.delay(forRetry: failures))
            } catch {
                break
            }
        }
        continuation.finish()
    }

    private mutating func connect(_ continuation: AsyncThrowingStream<WireState, any Error>.Continuation) async -> Ending {
        var headers = ["Authorization": "Bearer \(credentials.token)", "Accept": "text/event-stream"]
        if let lastRevision { headers["Last-Event-ID"] = String(lastRevision) }
        let call = HTTPCall(method: "GET", path: "/v1/sessions/\(WayfinderSession.escape(credentials.id))/events", headers: headers, repeats: .always)
        guard let request = try? transport.request(call, timeout: transport.configuration.eventIdleTimeout) else {
            return .refused(.invalidRequest("cannot make the events URL"))
        }
        let connection = EventConnection(request)
        var status = 0
        var responseHeaders: [String: String] = [:]
        var body = Data()
        var parser = ServerSentEventParser()
        return await withTaskCancellationHandler {
            for await signal in connection.signals {
                switch signal {
                case .response(let code, let headers):
                    status = code
                    responseHeaders = headers
                case .bytes(let bytes) where status == 200:
                    for event in parser.feed(bytes) where event.event == "state" {
                        // A state that does not decode is skipped: the next event carries the whole state again.
                        guard let state = try? JSONDecoder().decode(WireState.self, from: Data(event.data.utf8)) else { continue }
                        guard lastRevision.map({ state.revision > $0 }) ?? true else { continue }
                        lastRevision = state.revision
                        continuation.yield(state)
                    }
                case .bytes(let bytes):
                    if body.count < 65_536 { body.append(bytes) }
                case .ended:
                    break
                }
            }
            // A 200 that is not an event stream (a captive portal, a misrouted proxy) backs off
            // like a failure instead of reconnecting at once, again and again.
            if status == 200 { return responseHeaders["content-type"]?.hasPrefix("text/event-stream") == true ? .dropped : .failed }
            if status == 0 { return .failed }
            let refusal = Transport.refusal(HTTPAnswer(status: status, headers: responseHeaders, body: body))
            return refusal.code == .serviceUnavailable || status >= 500 ? .failed : .refused(refusal)
        } onCancel: {
            connection.cancel()
        }
    }
}
