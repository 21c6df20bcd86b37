/// The API's paths, matched once per request; `template` names them in logs and metrics.
enum Endpoint: Sendable, Equatable {
    case createSession
    case session(String)
    case routes(String)
    case back(String)
    case tab(String)
    case deepLinks(String)
    case events(String)
    case history(String)
    case rewind(String)
    /// `/v1/users/{user}/sessions` (operator key), the user percent-decoded.
    case userSessions(String)
    /// `/v1/sessions/{id}/signals` (operator key).
    case signals(String)
    /// `/v1/users/{user}/signals` (operator key), the user percent-decoded.
    case userSignals(String)
    case flows
    case healthz, readyz, metrics, openAPI
    /// Under `/v1/` but not in the contract: `404`.
    case unknownAPI
    /// Everything else: files from `Public/`.
    case file

    init(path: String) {
        var path = path
        self = path.withUTF8(Self.match)
    }

    /// Matched on bytes at integer offsets: this runs on every request.
    private static func match(_ path: UnsafeBufferPointer<UInt8>) -> Endpoint {
        func equals(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ literal: StaticString) -> Bool {
            bytes.count == literal.utf8CodeUnitCount
                && bytes.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }
        let all = path[...]
        if equals(all, "/v1/sessions") { return .createSession }
        if equals(all, "/v1/flows") { return .flows }
        if equals(all, "/healthz") { return .healthz }
        if equals(all, "/readyz") { return .readyz }
        if equals(all, "/metrics") { return .metrics }
        if equals(all, "/openapi.yaml") { return .openAPI }
        guard equals(path.prefix(4), "/v1/") || equals(all, "/v1") else { return .file }
        return sessionPath(path) ?? userPath(path) ?? .unknownAPI

        /// `/v1/users/{user}/sessions` and `/v1/users/{user}/signals`.
        func userPath(_ path: UnsafeBufferPointer<UInt8>) -> Endpoint? {
            let start = 10  // "/v1/users/".count
            guard equals(path.prefix(start), "/v1/users/") else { return nil }
            var end = start
            while end < path.count, path[end] != UInt8(ascii: "/") { end += 1 }
            guard end > start, end < path.count else { return nil }
            let user = QueryString.percentDecode(String(decoding: UnsafeBufferPointer(rebasing: path[start..<end]), as: UTF8.self)[...], plusIsSpace: false)
            let rest = path[(end + 1)...]
            if equals(rest, "sessions") { return .userSessions(user) }
            if equals(rest, "signals") { return .userSignals(user) }
            return nil
        }

        /// `/v1/sessions/{id}` and `/v1/sessions/{id}/{action}`.
        func sessionPath(_ path: UnsafeBufferPointer<UInt8>) -> Endpoint? {
            let idStart = 13  // "/v1/sessions/".count
            guard equals(path.prefix(idStart), "/v1/sessions/") else { return nil }
            let slash = UInt8(ascii: "/")
            var idEnd = idStart
            while idEnd < path.count, path[idEnd] != slash { idEnd += 1 }
            guard idEnd > idStart else { return nil }
            let id = String(decoding: UnsafeBufferPointer(rebasing: path[idStart..<idEnd]), as: UTF8.self)
            guard idEnd < path.count else { return .session(id) }
            let action = path[(idEnd + 1)...]
            if equals(action, "routes") { return .routes(id) }
            if equals(action, "back") { return .back(id) }
            if equals(action, "tab") { return .tab(id) }
            if equals(action, "deeplinks") { return .deepLinks(id) }
            if equals(action, "events") { return .events(id) }
            if equals(action, "history") { return .history(id) }
            if equals(action, "rewind") { return .rewind(id) }
            if equals(action, "signals") { return .signals(id) }
            return nil
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
        case .history: "/v1/sessions/{id}/history"
        case .rewind: "/v1/sessions/{id}/rewind"
        case .userSessions: "/v1/users/{user}/sessions"
        case .signals: "/v1/sessions/{id}/signals"
        case .userSignals: "/v1/users/{user}/signals"
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
        case .createSession, .routes, .back, .tab, .deepLinks, .rewind, .signals, .userSignals: ["POST"]
        case .session, .userSessions: ["GET", "HEAD", "DELETE"]
        case .events: ["GET", "HEAD", "POST"]
        case .history, .flows, .healthz, .readyz, .metrics, .openAPI, .file: ["GET", "HEAD"]
        case .unknownAPI: []
        }
    }

    var sessionID: String? {
        switch self {
        case .session(let id), .routes(let id), .back(let id), .tab(let id), .deepLinks(let id), .events(let id), .history(let id),
            .rewind(let id), .signals(let id):
            id
        default: nil
        }
    }
}
