import Synchronization
import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// `GET /v1/sessions/{id}/events`: the current state at once, then one `state` event per change.
extension WayfinderAPI {
    func openEvents(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        var session = try authorized(id, request, allowQueryToken: true)
        _ = try upgrade(&session, SessionKey(id))
        let client = clientComponents(request.headers["Wayfinder-Components"] ?? QueryString.value("components", in: request.query))
        let headers: HTTPHeaders = ["Content-Type": "text/event-stream", "Cache-Control": "no-store"]
        if request.method == "HEAD" { return HTTPResponse(status: 200, headers: headers) }
        // With Last-Event-ID equal to the current revision the client has this state already.
        let revision = session.revision
        let resume = request.headers["Last-Event-ID"].flatMap { Int($0.trimmingSpacesString) } == revision
        try events.reserve(id)
        let store = self.store, events = self.events, metrics = self.metrics
        return HTTPResponse(status: 200, headers: headers) { [self] writer in
            let lastSent = Locked(resume ? revision : 0)
            // Subscribe, then read the session again: a change or a delete made after the read
            // that authorised this stream and before the subscription is seen by that second
            // read (a resumed stream would otherwise miss it, or outlive the deleted session).
            let subscription = store.changes.subscribe(id) { [self] change in
                switch change {
                case .saved(let revision): self.sendState(id, atLeast: revision, to: writer, lastSent: lastSent, for: client)
                case .deleted: writer.close()
                }
            }
            events.add(writer)
            metrics.eventStreams.add(1, ordering: .relaxed)
            writer.onClose {
                subscription.cancel()
                events.remove(writer)
                events.release(id)
                metrics.eventStreams.subtract(1, ordering: .relaxed)
            }
            sendState(id, atLeast: nil, to: writer, lastSent: lastSent, for: client)
        }
    }

    /// Sends the session's state at `revision` or later (nil: at its current revision, read now)
    /// if it is newer than what this stream sent last; closes the stream if the session is gone.
    /// The event's bytes are rendered once per revision and shared by every stream of the session
    /// whose client renders everything; another client's are rendered for it alone.
    private func sendState(
        _ id: String, atLeast revision: Int?, to writer: HTTPStreamWriter, lastSent: Locked<Int>, for client: ClientComponents?
    ) {
        do {
            var loaded: StoredSession?
            if revision == nil {
                guard let session = try store.load(id: id, now: WallClock.nowMillis()) else { return writer.close() }
                loaded = session
            }
            let minimum = revision ?? loaded?.revision ?? 0
            if lastSent.withLock({ $0 >= minimum }) { return }
            let shared = client == nil
            guard let event = try shared ? events.stateEvent(id, atLeast: minimum, make: { try stateEvent(id, loaded, for: nil) })
                : stateEvent(id, loaded, for: client)
            else {
                return writer.close()
            }
            lastSent.withLock { last in
                guard event.revision > last else { return }
                last = event.revision
                _ = writer.write(event.bytes)
            }
        } catch APIError.versionAhead {
            writer.close()  // a newer version saved the session (logged as such): its client reconnects
        } catch {
            logger.log(.warn, "event_stream_failed", [("session", .string(id)), ("error", .string("\(error)"))])
            writer.close()
        }
    }

    /// The framed `state` event of the session as `loaded`, or as stored now, for `client`; nil
    /// if it is gone.
    private func stateEvent(_ id: String, _ loaded: StoredSession?, for client: ClientComponents?) throws -> EventStreams.StateEvent? {
        guard var session = try loaded ?? store.load(id: id, now: WallClock.nowMillis()) else { return nil }
        let key = SessionKey(id)
        _ = try upgrade(&session, key)
        let (body, revision) = try renderedBody(session, key, for: client)
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
