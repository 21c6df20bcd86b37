import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// The endpoints around sessions: the flow catalog, health, readiness and metrics.
extension WayfinderAPI {
    func flows(_ request: HTTPRequest) throws -> HTTPResponse {
        let withTraffic: Bool
        switch QueryString.value("traffic", in: request.query) ?? "0" {
        case "0": withTraffic = false
        case "1": withTraffic = true
        case let other: throw APIError.invalid("traffic", "must be 0 or 1, not '\(other)'")
        }
        switch QueryString.value("format", in: request.query) ?? "json" {
        case "json":
            if withTraffic { throw APIError.invalid("traffic", "is drawn on the graph: use format=dot") }
            return json(200, catalogJSON)
        case "dot":
            let body = withTraffic ? Array(engine.app.catalog.dot(traffic: traffic.graph()).utf8) : catalogDOT
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/vnd.graphviz"], body: body)
        case let other: throw APIError.invalid("format", "must be json or dot, not '\(other)'")
        }
    }

    /// `200` while the store answers; otherwise `503 service_unavailable` with `Retry-After`.
    func readiness(on loop: (any StoreLoop)?, _ reply: @escaping Reply) {
        ping(on: loop) { [self] result in
            switch result {
            case .success:
                reply(.success(json(200, Array(#"{"status":"ok"}"#.utf8))))
            case .failure(let error):
                logger.log(.warn, "not_ready", [("error", .string("\(error)"))])
                reply(.failure(APIError.unavailable("\(error)")))
            }
        }
    }

    /// The Prometheus text; without the session count if the store cannot give it now.
    func metricsResponse(on loop: (any StoreLoop)?, _ reply: @escaping Reply) {
        store.count(now: WallClock.nowMillis(), on: loop) { [self] result in
            let text = metrics.render(openConnections: openConnections(), sessions: try? result.get(), droppedLogLines: logger.droppedLines,
                droppedAnswers: store.idempotencyAnswersDropped)
                + traffic.exposition()
            reply(.success(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"], text: text)))
        }
    }
}
