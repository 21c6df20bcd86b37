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
        let store = self.store, events = self.events, metrics = self.metrics
        return HTTPResponse(status: 200, headers: headers) { [self] writer in
            let lastSent = Locked(resume ? revision : 0)
            // Subscribe before sending the first event so no change can fall in between.
            let subscription = store.changes.subscribe(id) { [self] change in
                switch change {
                case .saved: self.sendState(id, to: writer, lastSent: lastSent, for: client)
                case .deleted: writer.close()
                }
            }
            events.add(writer)
            metrics.eventStreams.add(1, ordering: .relaxed)
            writer.onClose {
                subscription.cancel()
                events.remove(writer)
                metrics.eventStreams.subtract(1, ordering: .relaxed)
            }
            if !resume { sendState(id, to: writer, lastSent: lastSent, for: client) }
        }
    }

    /// Loads and sends the session's state if it is newer than what this stream sent last.
    private func sendState(_ id: String, to writer: HTTPStreamWriter, lastSent: Locked<Int>, for client: ClientComponents?) {
        do {
            guard var session = try store.load(id: id, now: WallClock.nowMillis()) else { return writer.close() }
            let key = SessionKey(id)
            _ = try upgrade(&session, key)
            let (body, revision) = try renderedBody(session, key, for: client)
            lastSent.withLock { last in
                guard revision > last else { return }
                last = revision
                var event = Array("event: state\nid: \(revision)\ndata: ".utf8)
                event.append(contentsOf: body)
                event.append(contentsOf: Array("\n\n".utf8))
                _ = writer.write(event)
            }
        } catch APIError.versionAhead {
            writer.close()  // a newer version saved the session (logged as such): its client reconnects
        } catch {
            logger.log(.warn, "event_stream_failed", [("session", .string(id)), ("error", .string("\(error)"))])
            writer.close()
        }
    }
}

extension String {
    var trimmingSpacesString: String { self[...].trimmingSpaces }
}
