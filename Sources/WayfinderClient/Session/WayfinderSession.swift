import Foundation

/// One session on a Wayfinder server: the user's coordinator tree, driven by what the user does.
///
/// Create one with ``create(on:context:deepLink:configuration:)`` and keep its ``credentials``;
/// come back to it with ``resume(on:credentials:configuration:)``. Every change (``trigger(_:ifMatch:idempotencyKey:)``,
/// ``back(from:ifMatch:idempotencyKey:)``, ``selectTab(_:ifMatch:idempotencyKey:)``,
/// ``openDeepLink(_:ifMatch:idempotencyKey:)``) carries an `Idempotency-Key` and is sent again
/// with the same key when no answer came, so it is applied at most once. Pass `ifMatch` to act
/// only on the revision the user saw (`412 revision_mismatch` otherwise). Follow changes made
/// elsewhere with ``events(since:)``.
public actor WayfinderSession {
    /// The server's base URL.
    public nonisolated let server: URL
    /// The session's id and token: what the app stores to resume.
    public nonisolated let credentials: SessionCredentials
    /// The newest state this object has seen (from creation, ``refresh()`` or an action), if any.
    public private(set) var state: WireState?
    let transport: Transport

    /// A session the app already has credentials for; nothing is sent until the first call.
    public init(on server: URL, credentials: SessionCredentials, configuration: ClientConfiguration = ClientConfiguration()) {
        self.init(credentials: credentials, transport: Transport(server: server, configuration: configuration))
    }

    private init(credentials: SessionCredentials, transport: Transport) {
        server = transport.server
        self.credentials = credentials
        self.transport = transport
    }

    /// Starts a new session (`POST /v1/sessions`).
    ///
    /// - Parameters:
    ///   - context: the context members a client may set (the sample app: `onboarded`,
    ///     `platform`, `variant`); absent ones take the server's defaults. Who is signed in is
    ///     not a client's to say: the server refuses such members (`context_not_settable`).
    ///   - deepLink: a link to open at once (kept pending until sign-in if it leads into main).
    ///   - identity: a bearer JWT of the app's identity provider: the session is that user's
    ///     (`token_*` problems when it does not verify). Nil: no identity.
    public static func create(
        on server: URL, context: [String: WireValue] = [:], deepLink: String? = nil, identity: String? = nil,
        configuration: ClientConfiguration = ClientConfiguration()
    ) async throws(WayfinderError) -> WayfinderSession {
        let transport = Transport(server: server, configuration: configuration)
        let body = try Transport.encode(CreateSessionBody(context: context, deepLink: deepLink))
        let headers = identity.map { ["Authorization": "Bearer \($0)"] } ?? [:]
        let answer = try await transport.send(
            HTTPCall(method: "POST", path: "/v1/sessions", headers: headers, body: body, repeats: .ifNotConnected))
        let created = try Transport.decode(CreatedSession.self, from: answer)
        let session = WayfinderSession(credentials: SessionCredentials(id: created.id, token: created.token), transport: transport)
        await session.remember(created.state)
        return session
    }

    /// Comes back to a session and reads its state; throws `not_found` if it ended or expired
    /// (then create a new one).
    public static func resume(
        on server: URL, credentials: SessionCredentials, configuration: ClientConfiguration = ClientConfiguration()
    ) async throws(WayfinderError) -> WayfinderSession {
        let session = WayfinderSession(on: server, credentials: credentials, configuration: configuration)
        _ = try await session.refresh()
        return session
    }

    // MARK: Reading

    /// Reads the current state (`GET`); unchanged since the last read, the server answers `304`
    /// and the known state is returned.
    @discardableResult
    public func refresh() async throws(WayfinderError) -> WireState {
        var headers = authorization
        if let state { headers["If-None-Match"] = "\"\(state.revision)\"" }
        let answer = try await transport.send(HTTPCall(method: "GET", path: path(""), headers: headers, repeats: .always))
        if answer.status == 304, let state { return state }
        let fresh = try Transport.decode(WireState.self, from: answer)
        remember(fresh)
        return fresh
    }

    // MARK: Changes

    /// Triggers a route (a button or list item's action; merge field values first with
    /// ``FormValues/action(for:)``).
    ///
    /// - Parameters:
    ///   - ifMatch: the revision the user acted on; another current revision gives `412`.
    ///   - idempotencyKey: a key of the app's own, to be able to send the change again later
    ///     with the same key (after the retries gave up, or after the app was killed
    ///     mid-request); a fresh one per call by default.
    @discardableResult
    public func trigger(_ action: RouteAction, ifMatch: Int? = nil, idempotencyKey: String? = nil) async throws(WayfinderError) -> ActionResult {
        try await change("/routes", TriggerBody(route: action.route, params: action.params), ifMatch, idempotencyKey)
    }

    /// Triggers the route `route` with `params`.
    @discardableResult
    public func trigger(
        _ route: String, params: [String: WireValue] = [:], ifMatch: Int? = nil, idempotencyKey: String? = nil
    ) async throws(WayfinderError) -> ActionResult {
        try await trigger(RouteAction(route, params: params), ifMatch: ifMatch, idempotencyKey: idempotencyKey)
    }

    /// The user went back: pops the top screen or dismisses the top modal.
    ///
    /// - Parameter screen: the id of the screen the user saw on top; if another screen is on top
    ///   by now, nothing changes and `409 stale_screen` is thrown (a double tap never pops twice).
    @discardableResult
    public func back(from screen: String? = nil, ifMatch: Int? = nil, idempotencyKey: String? = nil) async throws(WayfinderError) -> ActionResult {
        try await change("/back", BackBody(screen: screen), ifMatch, idempotencyKey)
    }

    /// The user tapped a tab (its ``NavigationTab/id``); the selected tab pops to its root.
    @discardableResult
    public func selectTab(_ tab: String, ifMatch: Int? = nil, idempotencyKey: String? = nil) async throws(WayfinderError) -> ActionResult {
        try await change("/tab", TabBody(tab: tab), ifMatch, idempotencyKey)
    }

    /// Opens a deep link (`wayfinder://todos/2`) in this session.
    @discardableResult
    public func openDeepLink(_ url: String, ifMatch: Int? = nil, idempotencyKey: String? = nil) async throws(WayfinderError) -> ActionResult {
        try await change("/deeplinks", DeepLinkBody(url: url), ifMatch, idempotencyKey)
    }

    /// Ends the session for good (`DELETE`); its event streams end too.
    public func end(ifMatch: Int? = nil) async throws(WayfinderError) {
        var headers = authorization
        if let ifMatch { headers["If-Match"] = "\"\(ifMatch)\"" }
        do {
            _ = try await transport.send(HTTPCall(method: "DELETE", path: path(""), headers: headers, repeats: .always))
        } catch .problem(let problem) where problem.code == .notFound {
            // Already gone (perhaps by an earlier attempt whose answer was lost): the goal holds.
        }
        state = nil
    }

    // MARK: Events

    /// The session's states as they change, from any client: an endless sequence that
    /// reconnects with `Last-Event-ID` after a dropped connection (with backoff), and ends by
    /// throwing `not_found` once the session is gone.
    ///
    /// - Parameter revision: the revision the caller already has; the first state delivered is
    ///   newer. Without it, the current state comes first.
    public nonisolated func events(since revision: Int? = nil) -> SessionEvents {
        SessionEvents(transport: transport, credentials: credentials, since: revision)
    }

    // MARK: Shared

    private var authorization: [String: String] { ["Authorization": "Bearer \(credentials.token)"] }

    private func path(_ suffix: String) -> String {
        "/v1/sessions/\(Self.escape(credentials.id))\(suffix)"
    }

    /// A path segment with everything but unreserved characters percent-encoded.
    static func escape(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: unreserved) ?? segment
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private func remember(_ fresh: WireState) {
        if let state, state.revision > fresh.revision { return }
        state = fresh
    }

    private func change<Body: Encodable>(
        _ suffix: String, _ body: Body, _ ifMatch: Int?, _ key: String?
    ) async throws(WayfinderError) -> ActionResult {
        var headers = authorization
        headers["Idempotency-Key"] = key ?? UUID().uuidString
        if let ifMatch { headers["If-Match"] = "\"\(ifMatch)\"" }
        let call = HTTPCall(method: "POST", path: path(suffix), headers: headers, body: try Transport.encode(body), repeats: .always)
        let answer = try await transport.send(call)
        var result = try Transport.decode(ActionResult.self, from: answer)
        result.replayed = answer.header("Idempotent-Replayed") == "true"
        remember(result.state)
        return result
    }
}

private struct TriggerBody: Encodable {
    var route: String
    var params: [String: WireValue]
}

private struct BackBody: Encodable {
    var screen: String?
}

private struct TabBody: Encodable {
    var tab: String
}

private struct DeepLinkBody: Encodable {
    var url: String
}
