import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request as the client means it: method, path, headers, body, and whether it is safe to
/// send again when no answer came.
struct HTTPCall: Sendable {
    /// When a request that got no answer may be sent again.
    enum Repeat: Sendable {
        /// Never (nothing the client sends today).
        case never
        /// Only if the connection could not be made (the server cannot have seen it): creation,
        /// which the server does not deduplicate.
        case ifNotConnected
        /// After any failure: reads, deletes, and changes with an `Idempotency-Key`.
        case always
    }

    var method: String
    var path: String
    var headers: [String: String] = [:]
    var body: Data? = nil
    var repeats: Repeat
}

/// An answer with a status below 400.
struct HTTPAnswer: Sendable {
    var status: Int
    /// Header names in lowercase.
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Sends requests through `URLSession` (libcurl underneath on Linux) and turns every outcome into
/// an answer or a ``WayfinderError``; retries what is safe to retry.
final class Transport: Sendable {
    let server: URL
    let configuration: ClientConfiguration
    private let session: URLSession

    init(server: URL, configuration: ClientConfiguration) {
        self.server = server
        self.configuration = configuration
        let settings = URLSessionConfiguration.ephemeral
        settings.requestCachePolicy = .reloadIgnoringLocalCacheData
        settings.urlCache = nil
        settings.timeoutIntervalForRequest = configuration.requestTimeout
        session = URLSession(configuration: settings)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// The server's URL with `path` (which starts with `/`) after its own path.
    func url(_ path: String) throws(WayfinderError) -> URL {
        var base = server.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + path) else { throw .invalidRequest("cannot make a URL of \(base + path)") }
        return url
    }

    /// A request for `call`, with the configured headers and timeout.
    func request(_ call: HTTPCall, timeout: Double? = nil) throws(WayfinderError) -> URLRequest {
        var request = URLRequest(url: try url(call.path))
        request.httpMethod = call.method
        request.timeoutInterval = timeout ?? configuration.requestTimeout
        request.cachePolicy = .reloadIgnoringLocalCacheData
        if let body = call.body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in configuration.headers { request.setValue(value, forHTTPHeaderField: name) }
        for (name, value) in call.headers { request.setValue(value, forHTTPHeaderField: name) }
        // The shape this client reads, unless the configuration or the call names one.
        if request.value(forHTTPHeaderField: WireState.shapeHeader.name) == nil {
            request.setValue(WireState.shapeHeader.value, forHTTPHeaderField: WireState.shapeHeader.name)
        }
        return request
    }

    /// Sends `call`, retrying as its `repeats` and the policy allow. Answers below 400 are
    /// returned; refusals are thrown as ``WayfinderError/problem(_:)``.
    func send(_ call: HTTPCall) async throws(WayfinderError) -> HTTPAnswer {
        let request = try request(call)
        var attempt = 1
        while true {
            let failure: WayfinderError
            var notBefore = 0.0
            switch await once(request) {
            case .answer(let answer) where answer.status < 400:
                return answer
            case .answer(let answer):
                let refusal = Self.refusal(answer)
                // The contract: 503 service_unavailable changed nothing; retry after Retry-After.
                guard call.repeats == .always, refusal.code == .serviceUnavailable else { throw refusal }
                failure = refusal
                notBefore = Double(refusal.problem?.retryAfter ?? 0)
            case .notConnected(let error):
                guard call.repeats != .never else { throw error }
                failure = error
            case .lost(let error):
                guard call.repeats == .always else { throw error }
                failure = error
            case .cancelled:
                throw .cancelled
            }
            guard attempt < configuration.retry.maxAttempts else { throw failure }
            let backoff = configuration.retry.backoff
            try await Self.sleep(max(backoff.delay(forRetry: attempt), min(notBefore, backoff.maximum)))
            attempt += 1
        }
    }

    private enum Outcome {
        case answer(HTTPAnswer)
        /// The connection could not be made: the server saw nothing.
        case notConnected(WayfinderError)
        /// The connection broke or timed out: the server may have acted.
        case lost(WayfinderError)
        case cancelled
    }

    private func once(_ request: URLRequest) async -> Outcome {
        if Task.isCancelled { return .cancelled }
        do {
            let (body, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else {
                return .lost(.invalidResponse(status: 0, detail: "not an HTTP answer"))
            }
            return .answer(HTTPAnswer(status: http.statusCode, headers: Self.headers(of: http), body: body))
        } catch let error as URLError {
            if error.code == .cancelled || Task.isCancelled { return .cancelled }
            let failure = WayfinderError.transport(TransportFailure(code: error.code.rawValue, message: error.localizedDescription))
            return Self.connectFailures.contains(error.code) ? .notConnected(failure) : .lost(failure)
        } catch {
            if error is CancellationError || Task.isCancelled { return .cancelled }
            return .lost(.transport(TransportFailure(code: 0, message: "\(error)")))
        }
    }

    /// Errors that mean no connection was made, so the server cannot have seen the request.
    private static let connectFailures: Set<URLError.Code> = [
        .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
    ]

    /// Waits `seconds`; throws ``WayfinderError/cancelled`` if the task is cancelled meanwhile.
    static func sleep(_ seconds: Double) async throws(WayfinderError) {
        do {
            try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
        } catch {
            throw .cancelled
        }
    }

    static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return headers
    }

    /// The error an answer of 400 or more stands for: its problem details with what the headers
    /// add, or ``WayfinderError/invalidResponse(status:detail:)`` if the body is not a problem.
    static func refusal(_ answer: HTTPAnswer) -> WayfinderError {
        guard var problem = try? JSONDecoder().decode(Problem.self, from: answer.body) else {
            return .invalidResponse(status: answer.status, detail: String(decoding: answer.body.prefix(200), as: UTF8.self))
        }
        problem.retryAfter = answer.header("Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        problem.currentRevision = answer.header("ETag").flatMap(revision(fromETag:))
        problem.allow = (answer.header("Allow") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return .problem(problem)
    }

    /// `"7"` (or `W/"7"`) → 7.
    static func revision(fromETag tag: String) -> Int? {
        var tag = tag.trimmingCharacters(in: .whitespaces)
        if tag.hasPrefix("W/") { tag.removeFirst(2) }
        guard tag.count >= 3, tag.first == "\"", tag.last == "\"" else { return nil }
        return Int(tag.dropFirst().dropLast())
    }

    /// A body as JSON (keys sorted, so a retry sends the very same bytes).
    static func encode<T: Encodable>(_ value: T) throws(WayfinderError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do { return try encoder.encode(value) } catch { throw .invalidRequest("cannot encode the body: \(error)") }
    }

    /// An answer's body as `T`.
    static func decode<T: Decodable>(_ type: T.Type, from answer: HTTPAnswer) throws(WayfinderError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: answer.body)
        } catch {
            throw .invalidResponse(status: answer.status, detail: "not a \(T.self): \(error)")
        }
    }
}
