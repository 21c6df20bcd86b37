import WayfinderCore

/// A session of a running server, driven through libcurl as a thin client drives it: for an
/// app's end-to-end tests (the server started with `Server(…).start(arguments: ["--port", "0"])`).
///
/// Routes are the flows' own typed cases, sent as JSON; every answer's state is kept, and a
/// problem answer throws ``LiveSession/Problem`` with its status and code.
public final class LiveSession {
    /// A problem answer: its status, its `code` and the whole body.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        /// The answer's status.
        public var status: Int
        /// The problem's `code` (`route_unavailable`, …); nil when the body has none.
        public var code: String?
        /// The whole body, as text.
        public var body: String
        public var description: String { "\(status) \(code ?? "(no code)"): \(body)" }
    }

    /// The server's address, e.g. `http://127.0.0.1:8080`.
    public let baseURL: String
    /// The session's id and bearer token.
    public let id: String
    /// The bearer token every call of this session sends.
    public let token: String
    /// The state of the last answer (`GET`, or the `state` of an action's answer).
    public private(set) var state: JSONValue
    /// The transitions of the last action.
    public private(set) var transitions: [JSONValue] = []
    private let curl = CurlClient()

    /// Creates a session (`POST /v1/sessions`) with `context` and an optional deep link.
    public init(baseURL: String, context: JSONObject = [:], deepLink: String? = nil) throws {
        self.baseURL = baseURL
        var body: JSONObject = ["context": .object(context)]
        if let deepLink { body["deepLink"] = .string(deepLink) }
        let created = try Self.call(curl, "POST", baseURL + "/v1/sessions", token: nil, body: .object(body), expect: 201)
        guard let id = created["id"]?.stringValue, let token = created["token"]?.stringValue, let state = created["state"] else {
            throw Problem(status: 201, code: nil, body: "no id, token or state in the answer")
        }
        self.id = id
        self.token = token
        self.state = state
    }

    /// The visible screens' names, bottom to top.
    public var stack: [String] { state["stack"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? [] }

    /// The top screen as JSON (`title`, `components`, `routes`, …).
    public var topScreen: JSONValue? { state["stack"]?.arrayValue?.last }

    /// Triggers `route` (`POST …/routes`).
    public func send<R: FlowRoute>(_ route: R) throws {
        let request = try RouteRequest(route)
        try act("routes", ["route": .string(request.name), "params": .object(request.params)])
    }

    /// Goes back (`POST …/back`).
    public func back(screen: String? = nil) throws {
        try act("back", screen.map { ["screen": .string($0)] } ?? [:])
    }

    /// Taps a tab (`POST …/tab`).
    public func selectTab(_ id: String) throws { try act("tab", ["tab": .string(id)]) }

    /// Opens a deep link by URL (`POST …/deeplinks`).
    public func open(url: String) throws { try act("deeplinks", ["url": .string(url)]) }

    /// Reads the session again (`GET`).
    public func refresh() throws {
        state = try Self.call(curl, "GET", baseURL + "/v1/sessions/" + id, token: token, body: nil, expect: 200)
    }

    /// Ends the session (`DELETE`).
    public func delete() throws {
        _ = try Self.call(curl, "DELETE", baseURL + "/v1/sessions/" + id, token: token, body: nil, expect: 204)
    }

    private func act(_ endpoint: String, _ body: JSONObject) throws {
        let answer = try Self.call(curl, "POST", baseURL + "/v1/sessions/\(id)/\(endpoint)", token: token, body: .object(body), expect: 200)
        state = answer["state"] ?? .null
        transitions = answer["transitions"]?.arrayValue ?? []
    }

    private static func call(_ curl: CurlClient, _ method: String, _ url: String, token: String?, body: JSONValue?, expect: Int) throws -> JSONValue {
        var headers: [(String, String)] = []
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let response: CurlClient.Response
        if let body {
            headers.append(("Content-Type", "application/json"))
            var writer = JSONWriter()
            writer.value(body)
            response = try curl.request(method, url, headers: headers, body: writer.bytes)
        } else {
            response = try curl.request(method, url, headers: headers)
        }
        let json = response.body.isEmpty ? JSONValue.null : ((try? JSONParser.parse(response.body)) ?? .null)
        guard response.status == expect else {
            throw Problem(status: response.status, code: json["code"]?.stringValue, body: response.text)
        }
        return json
    }
}
