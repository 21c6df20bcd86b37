/// The API's paths, matched once per request; `template` names them in logs and metrics.
enum Endpoint: Sendable, Equatable {
    case createSession
    case session(String)
    case routes(String)
    case back(String)
    case tab(String)
    case deepLinks(String)
    case events(String)
    case flows
    case healthz, readyz, metrics, openAPI
    /// Under `/v1/` but not in the contract: `404`.
    case unknownAPI
    /// Everything else: files from `Public/`.
    case file

    init(path: String) {
        switch path {
        case "/v1/sessions": self = .createSession
        case "/v1/flows": self = .flows
        case "/healthz": self = .healthz
        case "/readyz": self = .readyz
        case "/metrics": self = .metrics
        case "/openapi.yaml": self = .openAPI
        default:
            guard path.hasPrefix("/v1/") || path == "/v1" else { self = .file; return }
            self = Self.sessionPath(path.utf8) ?? .unknownAPI
        }
    }

    /// `/v1/sessions/{id}` and `/v1/sessions/{id}/{action}`, matched on bytes (this runs on
    /// every request; `split` would build an array of substrings first).
    private static func sessionPath(_ path: String.UTF8View) -> Endpoint? {
        let prefix = "/v1/sessions/".utf8
        guard path.starts(with: prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        let slash = rest.firstIndex(of: UInt8(ascii: "/"))
        let idBytes = rest[..<(slash ?? rest.endIndex)]
        guard !idBytes.isEmpty, let id = String(idBytes) else { return nil }
        guard let slash else { return .session(id) }
        let action = rest[rest.index(after: slash)...]
        guard !action.contains(UInt8(ascii: "/")) else { return nil }
        switch String(decoding: action, as: UTF8.self) {
        case "routes": return .routes(id)
        case "back": return .back(id)
        case "tab": return .tab(id)
        case "deeplinks": return .deepLinks(id)
        case "events": return .events(id)
        default: return nil
        }
    }

    var template: String {
        switch self {
        case .createSession: "/v1/sessions"
        case .session: "/v1/sessions/{id}"
        case .routes: "/v1/sessions/{id}/routes"
        case .back: "/v1/sessions/{id}/back"
        case .tab: "/v1/sessions/{id}/tab"
        case .deepLinks: "/v1/sessions/{id}/deeplinks"
        case .events: "/v1/sessions/{id}/events"
        case .flows: "/v1/flows"
        case .healthz: "/healthz"
        case .readyz: "/readyz"
        case .metrics: "/metrics"
        case .openAPI: "/openapi.yaml"
        case .unknownAPI: "unknown"
        case .file: "static"
        }
    }

    /// The methods this path answers (`HEAD` wherever `GET` is).
    var allowed: [String] {
        switch self {
        case .createSession, .routes, .back, .tab, .deepLinks: ["POST"]
        case .session: ["GET", "HEAD", "DELETE"]
        case .events, .flows, .healthz, .readyz, .metrics, .openAPI, .file: ["GET", "HEAD"]
        case .unknownAPI: []
        }
    }

    var sessionID: String? {
        switch self {
        case .session(let id), .routes(let id), .back(let id), .tab(let id), .deepLinks(let id), .events(let id): id
        default: nil
        }
    }
}
