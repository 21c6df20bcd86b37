import Synchronization
import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// The v1 API as an HTTP handler: routing, auth, bodies, problems, and the session operations.
///
/// It plugs the pure engine and a session store into the HTTP server; it renders on request and
/// keeps nothing that could drift from the store (the render cache is keyed by revision).
public final class WayfinderAPI: HTTPHandler {
    let engine: Engine
    let store: any SessionStore
    let configuration: APIConfiguration
    let logger: Logger
    /// The counters `/metrics` shows.
    public let metrics: Metrics
    let cache: SessionCache
    let launches = LaunchCache()
    let files: StaticFiles?
    let events: EventStreams
    /// Token buckets of `POST /v1/sessions` per client address (nil: no limit).
    let createLimiter: RateLimiter<IPAddress>?
    /// Token buckets of actions per session (nil: no limit).
    let routeLimiter: RateLimiter<String>?
    let sweeper: ExpirySweeper
    let catalogJSON: [UInt8]
    /// Runs the app's effects off the loops.
    let effects: EffectRunner
    let catalogDOT: [UInt8]
    /// The route params the app declares `Secret`: redacted in the journal and bundles.
    let secrets: SecretParams
    /// Where users go, per variant (`/metrics`, the flow graph with `traffic=1`).
    let traffic: Traffic
    /// The first bytes of every state this version of the app saves (see ``StateCodec/prefix(appVersion:)``).
    let currentStatePrefix: [UInt8]
    /// `/healthz`'s answer: the status and the app's version.
    let healthBody: [UInt8]
    /// SHA-256 of the operator key (nil: the operator endpoints are off).
    let operatorKeyHash: [UInt8]?
    /// The store's deployment secret, the key of idempotency fingerprints and stream tickets (read
    /// at start, or at first use if the store could not be reached then).
    let fingerprintKey = Locked<[UInt8]?>(nil)
    /// Whether the authenticator is asked about requests that name a session (read once: it is
    /// asked on every request otherwise).
    let authenticatesSessionRequests: Bool
    /// Reads the server's open connections for `/metrics` (set after the server exists).
    public let openConnections: @Sendable () -> Int

    /// The API for `engine`'s app over `store`; `services` run the app's effects and
    /// `openConnections` reads the server's connection count for `/metrics`.
    public init(
        engine: Engine, store: any SessionStore, configuration: APIConfiguration, logger: Logger,
        services: EffectServices = EffectServices(), openConnections: @escaping @Sendable () -> Int = { 0 }
    ) {
        let metrics = Metrics()
        self.effects = EffectRunner(services: services, metrics: metrics)
        self.engine = engine
        self.store = store
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
        self.cache = SessionCache(capacity: configuration.cacheCapacity)
        self.files = configuration.publicDirectory.map { StaticFiles(root: $0) }
        self.events = EventStreams(
            heartbeatSeconds: configuration.heartbeatSeconds, maxPerSession: configuration.maxStreamsPerSession,
            maxTotal: configuration.maxStreams, maxPerClient: configuration.maxStreamsPerAddress)
        self.createLimiter = configuration.createRatePerSecond.map {
            RateLimiter(ratePerSecond: $0, burst: configuration.createBurst)
        }
        self.routeLimiter = configuration.routeRatePerSecond.map {
            RateLimiter(ratePerSecond: $0, burst: configuration.routeBurst)
        }
        let catalog = engine.app.catalog
        self.catalogJSON = catalog.json
        self.catalogDOT = Array(catalog.dot.utf8)
        self.secrets = SecretParams(engine.app)
        self.traffic = Traffic(engine.app)
        self.currentStatePrefix = StateCodec.prefix(appVersion: engine.app.version)
        let health: JSONValue = ["status": "ok", "version": .string(engine.app.version)]
        self.healthBody = health.canonicalBytes
        self.operatorKeyHash = configuration.operatorKey.map { Credentials.hash($0) }
        self.authenticatesSessionRequests = configuration.authenticator?.authenticatesSessionRequests ?? false
        self.openConnections = openConnections
        // Expired sessions are deleted every ttl/100 (at least every second), which also ends
        // their event streams.
        let log = logger
        self.sweeper = ExpirySweeper(
            store: store, intervalMillis: max(1000, min(60_000, configuration.sessionTTLMillis / 100)),
            onPass: { result in
            switch result {
            case .success(let expired) where expired > 0: log.log(.info, "sessions_expired", [("count", .int(expired))])
            case .failure(let error): log.log(.warn, "expiry_failed", [("error", .string("\(error)"))])
            default: break
            }
        })
    }

    /// Starts the background work: event-stream heartbeats and the expiry sweeper.
    public func start() {
        if let secret = try? store.deploymentSecret() { fingerprintKey.withLock { $0 = secret } }
        events.startHeartbeat()
        sweeper.start()
        startResumingEffects()
    }

    /// Ends every event stream (graceful shutdown) and stops background work.
    public func shutdown() {
        effects.stopped.store(true, ordering: .relaxed)
        events.closeAll()
        sweeper.stop()
    }

    /// Answers `request` on the calling thread: at once with stores that do not wait on IO, else
    /// later (``HTTPResponse/later(_:)``).
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        answer(request, on: nil) { endpoint, context, reply in try dispatch(endpoint, request, context, on: nil, reply) }
    }

    /// Answers `request` on its event loop, where the store does its IO for it.
    public func handle(_ request: HTTPRequest, on loop: HTTPEventLoop) -> HTTPResponse {
        answer(request, on: loop) { endpoint, context, reply in try dispatch(endpoint, request, context, on: loop, reply) }
    }

    /// A body too large to read: the contract's earlier checks (path, method, credentials, the
    /// session) still come first, then `413`.
    public func answerWithoutBody(_ head: HTTPRequest, on loop: HTTPEventLoop) -> HTTPResponse? {
        answer(head, on: loop) { endpoint, _, reply in
            if endpoint == .unknownAPI { throw APIError.notFound }
            guard endpoint.allowed.contains(head.method) else { throw APIError.methodNotAllowed(allow: endpoint.allowed) }
            guard let id = endpoint.sessionID else { throw APIError.payloadTooLarge }
            authorized(id, key: SessionKey(id), head, allowQueryToken: endpoint == .events(id), on: loop) { result in
                reply(result.flatMap { _ in .failure(APIError.payloadTooLarge) })
            }
        }
    }

    /// Runs one request whose operation answers through `reply` (at once or later): maps every
    /// error to its problem answer, echoes the request id, and records the request in the
    /// metrics and the log.
    private func answer(
        _ request: HTTPRequest, on loop: (any StoreLoop)?,
        _ body: (Endpoint, RequestContext, @escaping Reply) throws -> Void
    ) -> HTTPResponse {
        let started = WallClock.monotonicNanos()
        let (requestIDField, acceptEncoding) = request.headers.first("X-Request-Id", "Accept-Encoding")
        let requestID = RequestID.from(requestIDField)
        let endpoint = Endpoint(path: request.path)
        // The answer that carries a new session's token is never compressed: a body's coded size
        // would tell an eavesdropper of a secret beside text an attacker chose (BREACH).
        let context = RequestContext(
            requestID: requestID, started: started, method: request.method, path: request.path, route: endpoint.template,
            session: endpoint.sessionID, acceptEncoding: AcceptEncoding(endpoint == .createSession ? nil : acceptEncoding),
            shape: Self.shape(request, endpoint))
        let pending = PendingAnswer()
        let reply: Reply = { [self] result in
            guard pending.claim() else { return }
            var response: HTTPResponse
            switch result {
            case .success(let given): response = given
            case .failure(let error): response = problem(error, path: request.path, requestID: requestID)
            }
            // An answer given later is counted and logged when it is given (`finish`).
            if case .later = response.body {} else { finish(&response, context) }
            pending.give(response)
        }
        do {
            try body(endpoint, context, reply)
        } catch {
            reply(.failure(error))
        }
        return pending.response()
    }

    /// The problem answer for `error`: every error of every layer mapped in `APIError`.
    func problem(_ error: any Error, path: String, requestID: String) -> HTTPResponse {
        switch error {
        case let error as APIError: return error.response(path: path, requestID: requestID)
        case let error as NavigationError: return APIError.navigation(error).response(path: path, requestID: requestID)
        case let error as StoreError: return APIError.from(error).response(path: path, requestID: requestID)
        default:
            logger.log(.error, "internal_error", [("path", .string(path)), ("error", .string("\(error)"))])
            return APIError.internalError("\(error)").response(path: path, requestID: requestID)
        }
    }

    /// Echoes the request id, compresses the body if the client asks for gzip, and records the
    /// answer in the metrics and the log (the HTTP layer marks every answer
    /// `X-Content-Type-Options: nosniff`).
    func finish(_ response: inout HTTPResponse, _ context: RequestContext) {
        response.headers.set("X-Request-Id", context.requestID)
        response.applyContentCoding(context.acceptEncoding, minBytes: configuration.gzipMinBytes, level: configuration.gzipLevel)
        let seconds = Double(WallClock.monotonicNanos() - context.started) / 1e9
        metrics.request(route: context.route, method: context.method, status: response.status, seconds: seconds)
        logger.request(
            method: context.method, path: context.path, status: response.status, durationMicros: Int(seconds * 1e6),
            bytes: response.byteCount, requestID: context.requestID, session: context.session)
    }

    /// Routes a request to its operation, which answers through `reply`.
    private func dispatch(
        _ endpoint: Endpoint, _ request: HTTPRequest, _ context: RequestContext, on loop: (any StoreLoop)?, _ reply: @escaping Reply
    ) throws {
        if endpoint == .unknownAPI { throw APIError.notFound }
        let method = request.method
        guard endpoint.allowed.contains(method) else { throw APIError.methodNotAllowed(allow: endpoint.allowed) }
        switch endpoint {
        case .createSession: try createSession(request, context, on: loop, reply)
        case .session(let id):
            if method == "DELETE" { try deleteSession(id, request, on: loop, reply) } else { try readSession(id, request, context, on: loop, reply) }
        case .routes(let id):
            try mutate(id, request, context, on: loop, reply) { body in
                .trigger(RouteRequest(try body.requiredString("route"), params: try body.optionalObject("params") ?? [:]))
            }
        case .back(let id): try mutate(id, request, context, on: loop, reply) { body in .back(screen: try body.optionalString("screen")) }
        case .tab(let id): try mutate(id, request, context, on: loop, reply) { body in .selectTab(try body.requiredString("tab")) }
        case .deepLinks(let id): try mutate(id, request, context, on: loop, reply) { body in .openDeepLink(try body.requiredString("url")) }
        case .events(let id):
            if method == "POST" { issueStreamTicket(id, request, on: loop, reply) } else { try openEvents(id, request, on: loop, reply) }
        case .history(let id): offTheLoop(reply) { try self.history(id, request) }
        case .rewind(let id): offTheLoop(reply) { try self.rewind(id, request, context) }
        case .userSessions(let user): offTheLoop(reply) { try self.userSessions(user, request) }
        case .signals(let id):
            try requireOperator(request)
            try mutate(id, request, context, on: loop, byOperator: true, reply) { body in .signal(try Self.signal(body)) }
        case .userSignals(let user): offTheLoop(reply) { try self.userSignals(user, request, context) }
        case .flows: reply(.success(try flows(request)))
        case .healthz: reply(.success(json(200, healthBody)))
        case .readyz: readiness(on: loop, reply)
        case .metrics: metricsResponse(on: loop, reply)
        case .openAPI:
            reply(.success(HTTPResponse(status: 200, headers: ["Content-Type": "application/yaml"], body: configuration.openAPIDocument)))
        case .file:
            guard var response = files?.response(for: request) else { throw APIError.notFound }
            response.headers.add("Content-Security-Policy", Self.contentSecurityPolicy)
            response.headers.add("Referrer-Policy", "no-referrer")
            reply(.success(response))
        case .unknownAPI:
            throw APIError.notFound
        }
    }

    /// The shape of state a request's client reads: `Wayfinder-Shape`, or on an event stream
    /// (which a browser's `EventSource` opens without headers of its own) `?shape=`.
    static func shape(_ request: HTTPRequest, _ endpoint: Endpoint) -> StateShape {
        if let declared = request.headers["Wayfinder-Shape"] { return StateShape(declared: declared) }
        guard case .events = endpoint else { return .full }
        return StateShape(declared: QueryString.value("shape", in: request.query))
    }

    /// The policy of the web client's files: scripts, styles, images and requests (`fetch`, the
    /// event stream) from the server's own origin only, no inline script or style, no plugins,
    /// no `<base>`, forms posted only here, and the page never framed (clickjacking).
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// A JSON answer: `Content-Type` first, then `fields` (built here, in one array with room
    /// for the request id, `Vary` and `Content-Encoding`, rather than copied from a literal).
    func json(_ status: Int, _ body: [UInt8], _ fields: KeyValuePairs<String, String> = [:]) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.reserveCapacity(fields.count + 4)
        headers.add("Content-Type", "application/json")
        for (name, value) in fields { headers.add(name, value) }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

}

extension HTTPResponse {
    var byteCount: Int {
        if case .bytes(let bytes) = body { return bytes.count }
        return 0
    }
}

/// `X-Request-Id`: a client's value (1–128 visible ASCII characters) or a fresh one.
///
/// Fresh ids are a random per-process prefix and a counter in base 36 ("Xk3_9a-2n"): unique,
/// cheap (no system call per request), and not secret. The first 36⁸ (2.8 trillion) fit in
/// 15 bytes, so they are stored inline in the `String`, with no allocation.
enum RequestID {
    /// 6 characters: 36 random bits, base64url (from the clock if the kernel gave no random bytes:
    /// the prefix only tells processes apart).
    private static let prefix = Array(
        Credentials.base64URL((try? Credentials.randomBytes(4)) ?? withUnsafeBytes(of: WallClock.monotonicNanos()) { Array($0.prefix(4)) })
            .utf8.prefix(6))
    private static let counter = Atomic<UInt64>(0)
    private static let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    static func from(_ header: String?) -> String {
        if let header, !header.isEmpty, header.utf8.count <= 128, header.isVisibleASCII {
            return header
        }
        return fresh(counter.add(1, ordering: .relaxed).newValue)
    }

    /// The prefix, "-", and `n` in base 36.
    static func fresh(_ n: UInt64) -> String {
        var length = 1
        var rest = n / 36
        while rest > 0 { length += 1; rest /= 36 }
        let total = prefix.count + 1 + length
        return String(unsafeUninitializedCapacity: total) { out in
            for index in prefix.indices { out[index] = prefix[index] }
            out[prefix.count] = UInt8(ascii: "-")
            var value = n
            for index in stride(from: total - 1, through: prefix.count + 1, by: -1) {
                out[index] = digits[Int(value % 36)]
                value /= 36
            }
            return total
        }
    }
}

/// How an operation answers: once, with the response or the error its problem answer is made of.
typealias Reply = @Sendable (Result<HTTPResponse, any Error>) -> Void

/// What a request's answer needs when it is given later: its id and start, for the
/// `X-Request-Id` header, the metrics and the log.
struct RequestContext: Sendable {
    let requestID: String
    let started: UInt64
    let method: String
    let path: String
    /// The endpoint's template (the metrics' route label).
    let route: String
    let session: String?
    /// What the request's `Accept-Encoding` accepts (the body is coded in ``WayfinderAPI/finish(_:_:)``).
    let acceptEncoding: AcceptEncoding
    /// The shape of state the client reads (`Wayfinder-Shape`, or `?shape=` on an event stream).
    let shape: StateShape
}
