import Synchronization
import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// `GET /v1/sessions/{id}/events`: the current state at once, then one `state` event per change.
/// Authorised by the session's token, or by a stream ticket (`?ticket=`, ``checkStreamTicket(_:for:)``).
extension WayfinderAPI {
    func openEvents(_ id: String, _ request: HTTPRequest, on loop: (any StoreLoop)?, _ reply: @escaping Reply) throws {
        let client = clientComponents(request.headers["Wayfinder-Components"] ?? QueryString.value("components", in: request.query))
        let shape = Self.shape(request, .events(id))
        if let ticket = QueryString.value("ticket", in: request.query) {
            try checkStreamTicket(ticket, for: id)
            return loadUpgraded(id, key: SessionKey(id), on: loop) { [self] result in
                reply(Result {
                    guard let session = try result.get() else { throw APIError.notFound }
                    return try stream(id, request, session, for: client, shape: shape)
                })
            }
        }
        upgradedSession(id, key: SessionKey(id), request, allowQueryToken: true, on: loop) { [self] result in
            reply(Result { try stream(id, request, try result.get(), for: client, shape: shape) })
        }
    }

    /// The event stream of an authorised request for `session`, rendered for `client` in `shape`.
    private func stream(
        _ id: String, _ request: HTTPRequest, _ session: StoredSession, for client: ClientComponents?, shape: StateShape
    ) throws -> HTTPResponse {
        let headers: HTTPHeaders = ["Content-Type": "text/event-stream", "Cache-Control": "no-store"]
        if request.method == "HEAD" { return HTTPResponse(status: 200, headers: headers) }
        // With Last-Event-ID equal to the current revision the client has this state already.
        let resume = request.headers["Last-Event-ID"].flatMap { Int($0.trimmingSpacesString) } == session.revision
        let share = clientShare(request)
        try events.reserve(id, client: share)
        let store = self.store, events = self.events, metrics = self.metrics
        return HTTPResponse(status: 200, headers: headers) { [self] writer in
            let lastSent = Locked(resume ? session.revision : 0)
            // Subscribe, then read the session again: a change or a delete made after the read
            // that authorised this stream and before the subscription is seen by that second
            // read (a resumed stream would otherwise miss it, or outlive the deleted session).
            let subscription = store.changes.subscribe(id) { [self] change in
                switch change {
                case .saved(let revision): self.sendState(id, atLeast: revision, to: writer, lastSent: lastSent, for: client, shape: shape)
                case .deleted: Self.end(writer)
                }
            }
            events.add(writer)
            metrics.eventStreams.add(1, ordering: .relaxed)
            writer.onClose {
                subscription.cancel()
                events.remove(writer)
                events.release(id, client: share)
                metrics.eventStreams.subtract(1, ordering: .relaxed)
            }
            sendState(id, atLeast: nil, to: writer, lastSent: lastSent, for: client, shape: shape)
        }
    }

    /// Sends the session's state at `revision` or later (nil: at its current revision, read now)
    /// if it is newer than what this stream sent last; closes the stream if the session is gone.
    /// The event's bytes are rendered once per revision and shared by every stream of the session
    /// whose client renders everything in shape 1; another client's are rendered for it alone.
    /// Runs on the thread that published the change; what it reads comes without blocking it.
    private func sendState(
        _ id: String, atLeast revision: Int?, to writer: HTTPStreamWriter, lastSent: Locked<Int>, for client: ClientComponents?,
        shape: StateShape
    ) {
        let shared = client == nil && shape == .full
        if let revision {
            if lastSent.withLock({ $0 >= revision }) { return }
            if shared, let event = events.lastEvent(id, atLeast: revision) { return send(event, to: writer, lastSent: lastSent) }
        }
        loadUpgraded(id, key: SessionKey(id), on: nil) { [self] result in
            do {
                guard let session = try result.get() else { return Self.end(writer) }
                if lastSent.withLock({ $0 >= max(session.revision, revision ?? 0) }) { return }
                let event =
                    try shared
                    ? events.stateEvent(id, atLeast: session.revision) { try stateEvent(session, for: nil, shape: .full) }
                    : stateEvent(session, for: client, shape: shape)
                send(event, to: writer, lastSent: lastSent)
            } catch APIError.versionAhead {
                writer.close()  // a newer version saved the session (logged as such): its client reconnects
            } catch {
                logger.log(.warn, "event_stream_failed", [("session", .string(id)), ("error", .string("\(error)"))])
                writer.close()
            }
        }
    }

    /// The last event of a stream whose session is gone (deleted by its client or an operator,
    /// expired): `event: ended`, so a client stops reconnecting, then the stream closes.
    static func end(_ writer: HTTPStreamWriter) {
        _ = writer.write(Self.endedEvent)
        writer.close()
    }

    static let endedEvent = Array("event: ended\ndata: {}\n\n".utf8)

    private func send(_ event: EventStreams.StateEvent, to writer: HTTPStreamWriter, lastSent: Locked<Int>) {
        lastSent.withLock { last in
            guard event.revision > last else { return }
            last = event.revision
            _ = writer.write(event.bytes)
        }
    }

    /// The framed `state` event of the session as stored (upgraded), for `client` in `shape`.
    private func stateEvent(_ session: StoredSession, for client: ClientComponents?, shape: StateShape) throws -> EventStreams.StateEvent {
        let (body, revision) = try renderedBody(session, SessionKey(session.id), for: client, shape: shape)
        let head = Array("event: state\nid: \(revision)\ndata: ".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(head.count + body.count + 2)
        bytes.append(contentsOf: head)
        bytes.append(contentsOf: body)
        bytes.append(contentsOf: [0x0A, 0x0A])
        return EventStreams.StateEvent(revision: revision, bytes: bytes)
    }
}

extension String {
    var trimmingSpacesString: String { self[...].trimmingSpaces }
}
