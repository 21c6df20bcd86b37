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

    func readiness() -> HTTPResponse {
        do {
            try metrics.timed("ping") { try store.ping() }
            return json(200, Array(#"{"status":"ok"}"#.utf8))
        } catch {
            logger.log(.warn, "not_ready", [("error", .string("\(error)"))])
            var w = JSONWriter()
            w.beginObject()
            w.key("type"); w.string("about:blank")
            w.key("title"); w.string("Service Unavailable")
            w.key("status"); w.int(503)
            w.key("code"); w.string("service_unavailable")
            w.key("detail"); w.string("The session store cannot be reached.")
            w.endObject()
            return HTTPResponse(status: 503, headers: ["Content-Type": "application/problem+json", "Retry-After": "1"], body: w.bytes)
        }
    }

    func metricsResponse() -> HTTPResponse {
        let sessions = try? store.count(now: WallClock.nowMillis())
        let text = metrics.render(openConnections: openConnections(), sessions: sessions)
        return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"], text: text)
    }
}
