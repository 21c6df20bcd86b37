import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// The endpoints around sessions: the flow catalog, health, readiness and metrics.
extension WayfinderAPI {
    func flows(_ request: HTTPRequest) throws -> HTTPResponse {
        switch QueryString.value("format", in: request.query) ?? "json" {
        case "json": return json(200, catalogJSON)
        case "dot": return HTTPResponse(status: 200, headers: ["Content-Type": "text/vnd.graphviz"], body: catalogDOT)
        case let other: throw APIError.invalid("format", "must be json or dot, not '\(other)'")
        }
    }

    /// `200` while the store answers; otherwise `503 service_unavailable` with `Retry-After`.
    func readiness() throws -> HTTPResponse {
        do {
            try metrics.timed(.ping) { try store.ping() }
        } catch {
            logger.log(.warn, "not_ready", [("error", .string("\(error)"))])
            throw APIError.unavailable("\(error)")
        }
        return json(200, Array(#"{"status":"ok"}"#.utf8))
    }

    func metricsResponse() -> HTTPResponse {
        let sessions = try? store.count(now: WallClock.nowMillis())
        let text = metrics.render(openConnections: openConnections(), sessions: sessions, droppedLogLines: logger.droppedLines)
        return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"], text: text)
    }
}
