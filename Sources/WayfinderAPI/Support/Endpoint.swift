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
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            // ["", "v1", "sessions", id, action?]
            guard parts.count == 4 || parts.count == 5, parts[1] == "v1", parts[2] == "sessions", !parts[3].isEmpty else {
                self = .unknownAPI
                return
            }
            let id = String(parts[3])
            guard parts.count == 5 else { self = .session(id); return }
            switch parts[4] {
            case "routes": self = .routes(id)
            case "back": self = .back(id)
            case "tab": self = .tab(id)
            case "deeplinks": self = .deepLinks(id)
            case "events": self = .events(id)
            default: self = .unknownAPI
            }
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
