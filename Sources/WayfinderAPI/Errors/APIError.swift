import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// Every refusal of the v1 API. The mapping to a status, a problem `code` and extra members
/// lives in this one file (RFC 9457 problem details).
enum APIError: Error, Sendable {
    case notFound
    case methodNotAllowed(allow: [String])
    case unauthorized(String)
    /// The authenticator refused the request's credential (a JWT that does not verify).
    case identityRefused(code: String, detail: String)
    /// The request proves another user than the session's.
    case identityMismatch
    /// An operator endpoint without the operator key, or with another.
    case operatorUnauthorized
    /// `401 stream_ticket_invalid`: an event stream's `ticket` that is malformed, expired, or
    /// another session's.
    case streamTicketInvalid
    /// A client sent context members that are the server's.
    case contextNotSettable([String])
    /// A rewind to a revision of another user, or of other server-owned context.
    case rewindAcrossSignIn(revision: Int)
    case unsupportedMediaType(String)
    case payloadTooLarge
    case badJSON(String)
    case revisionMismatch(currentRevision: Int)
    /// The session was saved by a newer version of the app than this server's (a rolling deploy).
    case versionAhead(SessionVersionAhead)
    case idempotencyKeyReused
    case idempotencyKeyTooLong(limit: Int)
    /// An `Idempotency-Key` with a byte that is not visible ASCII (a space, a control character,
    /// anything past 0x7E): the HTTP layer reads such bytes lossily, so two keys could collide.
    case idempotencyKeyInvalid
    case sessionTooLarge(bytes: Int, limit: Int)
    case rateLimited(retryAfter: Int)
    case sessionStreamLimit(limit: Int, retryAfter: Int)
    case streamLimit(retryAfter: Int)
    case sessionLimit
    /// A rewind to a revision the journal no longer (or never) held; `oldest` is the oldest it holds.
    case revisionNotJournaled(revision: Int, oldest: Int?)
    /// A rewind while effects are pending: their screens would be rewound away from their results.
    case effectsPending
    case unavailable(String)
    case navigation(NavigationError)
    case internalError(String)
    /// A retry whose `Idempotency-Key` is known but whose stored answer the session's byte budget
    /// dropped: it cannot be replayed, and running it again could apply it twice.
    case idempotencyAnswerDropped(status: Int)
    /// The client's address has as many event streams open as it may.
    case addressStreamLimit(limit: Int, retryAfter: Int)
    /// The session took actions faster than its rate limit allows.
    case sessionRateLimited(retryAfter: Int)

    var status: Int {
        switch self {
        case .notFound: 404
        case .methodNotAllowed: 405
        case .unauthorized, .identityRefused, .operatorUnauthorized, .streamTicketInvalid: 401
        case .identityMismatch: 403
        case .contextNotSettable: 422
        case .rewindAcrossSignIn: 409
        case .unsupportedMediaType: 415
        case .payloadTooLarge: 413
        case .badJSON: 400
        case .revisionMismatch: 412
        case .versionAhead: 409
        case .idempotencyKeyReused: 422
        case .idempotencyKeyTooLong, .idempotencyKeyInvalid: 400
        case .sessionTooLarge: 422
        case .revisionNotJournaled: 410
        case .effectsPending: 409
        case .rateLimited, .sessionStreamLimit: 429
        case .sessionLimit, .unavailable, .streamLimit: 503
        case .navigation(.staleScreen), .navigation(.signalUnwanted): 409
        case .navigation: 422
        case .internalError: 500
        case .idempotencyAnswerDropped: 409
        case .addressStreamLimit, .sessionRateLimited: 429
        }
    }

    var code: String {
        switch self {
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .unauthorized: "unauthorized"
        case .identityRefused(let code, _): code
        case .identityMismatch: "identity_mismatch"
        case .operatorUnauthorized: "operator_unauthorized"
        case .streamTicketInvalid: "stream_ticket_invalid"
        case .contextNotSettable: "context_not_settable"
        case .rewindAcrossSignIn: "rewind_across_sign_in"
        case .unsupportedMediaType: "unsupported_media_type"
        case .payloadTooLarge: "payload_too_large"
        case .badJSON: "bad_json"
        case .revisionMismatch: "revision_mismatch"
        case .versionAhead: "version_ahead"
        case .idempotencyKeyReused: "idempotency_key_reused"
        case .idempotencyKeyTooLong: "idempotency_key_too_long"
        case .idempotencyKeyInvalid: "idempotency_key_invalid"
        case .sessionTooLarge: "session_too_large"
        case .rateLimited: "rate_limited"
        case .sessionStreamLimit: "session_stream_limit"
        case .streamLimit: "stream_limit"
        case .sessionLimit: "session_limit"
        case .revisionNotJournaled: "revision_not_journaled"
        case .effectsPending: "effects_pending"
        case .unavailable: "service_unavailable"
        case .internalError: "internal"
        case .idempotencyAnswerDropped: "idempotency_answer_dropped"
        case .addressStreamLimit: "address_stream_limit"
        case .sessionRateLimited: "session_rate_limited"
        case .navigation(let error):
            switch error {
            case .routeUnavailable: "route_unavailable"
            case .invalidParams: "invalid_params"
            case .unknownDeepLink: "unknown_deeplink"
            case .nothingToPop: "nothing_to_pop"
            case .staleScreen: "stale_screen"
            case .unknownSignal: "unknown_signal"
            case .signalUnwanted: "signal_unwanted"
            }
        }
    }

    var detail: String {
        switch self {
        case .notFound: "There is nothing here, or the session does not exist or the token does not match."
        case .methodNotAllowed(let allow): "Use one of: \(allow.joined(separator: ", "))."
        case .unauthorized(let why): why
        case .identityRefused(_, let detail): detail
        case .identityMismatch: "The request proves another user than the one this session belongs to; nothing changed."
        case .operatorUnauthorized: "This endpoint needs Authorization: Bearer <operator key>, and the key given is not it."
        case .streamTicketInvalid: "The ticket is malformed, expired or another session's; ask for a new one (POST …/events)."

        case .contextNotSettable(let names):
            "A client may not set " + names.map { "context.\($0)" }.joined(separator: ", ")
                + ": the server sets it (a flow after a verified sign-in, or the session's identity); no session was created."
        case .rewindAcrossSignIn(let revision):
            "At revision \(revision) the session was signed in otherwise than now (another identity, or context members the server owns set otherwise); a rewind never restores a signed-in user's screens into a signed-out session or another user's."
        case .unsupportedMediaType(let why): why
        case .payloadTooLarge: "The request body is larger than the server accepts."
        case .badJSON(let why): "The body is not valid JSON: \(why)."
        case .revisionMismatch(let current): "The session is at revision \(current); If-Match named another."
        case .versionAhead(let ahead):
            "The session was last saved by version \(ahead.stateVersion) of the app and this server runs version \(ahead.appVersion) "
                + "(a deploy is under way); nothing changed. Retry the same request: a server of the newer version will answer."
        case .idempotencyKeyReused: "This Idempotency-Key was used for a different request."
        case .idempotencyKeyTooLong(let limit): "The Idempotency-Key is longer than \(limit) bytes."
        case .idempotencyKeyInvalid: "The Idempotency-Key may hold only visible ASCII characters (! to ~); nothing changed."
        case .sessionTooLarge(let bytes, let limit):
            "The session would take \(bytes) bytes, more than the \(limit) it may; nothing changed."
        case .rateLimited: "This address created too many sessions too quickly; try again after Retry-After seconds."
        case .sessionStreamLimit(let limit, _): "This session has \(limit) event streams open already; close one first."
        case .streamLimit: "The server has as many event streams open as it may; try again later."
        case .sessionLimit: "The server holds as many sessions as it may; try again later."
        case .revisionNotJournaled(let revision, let oldest):
            "Revision \(revision) is not in the session's journal"
                + (oldest.map { "; the oldest it holds is \($0)." } ?? "; the journal holds no entries.")
        case .effectsPending: "The session waits for an effect's result; rewind once it has come."
        case .unavailable: "The session store cannot be reached; try again shortly."
        case .internalError: "The server failed to handle the request."
        case .idempotencyAnswerDropped(let status):
            "The request with this Idempotency-Key was answered \(status) and applied; its answer is no longer kept (the session's "
                + "idempotency records keep the newest answers only), so it is not run again. Read the session for its state."
        case .addressStreamLimit(let limit, _): "This address has \(limit) event streams open already; close one first."
        case .sessionRateLimited: "This session took actions faster than the server allows; nothing changed. Try again after Retry-After seconds."
        case .navigation(let error):
            switch error {
            case .routeUnavailable(let route, _): "No coordinator on screen handles the route '\(route)'."
            case .invalidParams(let params): params.map { "\($0.name) \($0.reason)" }.joined(separator: "; ")
            case .unknownDeepLink: "The deep link matches no pattern or names something that does not exist."
            case .nothingToPop: "The screen on top is a root screen; there is nothing to go back to."
            case .staleScreen(let requested, let top): "Screen \(requested) is not on top (\(top) is); nothing changed."
            case .unknownSignal(let name, let known):
                "The app declares no signal '\(name)'" + (known.isEmpty ? " (it has none)." : "; it has: \(known.joined(separator: ", ")).")
            case .signalUnwanted(let name): "No coordinator of the session wants the signal '\(name)' now; nothing changed."
            }
        }
    }

    /// The problem+json response. `instance` is the path (never the query); `404` carries none.
    func response(path: String, requestID: String) -> HTTPResponse {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("type"); w.string("about:blank")
        w.key("title"); w.string(HTTPStatusReason.phrase(status))
        w.key("status"); w.int(status)
        w.key("code"); w.string(code)
        w.key("detail"); w.string(detail)
        if status != 404 { w.key("instance"); w.string(path) }
        w.key("requestId"); w.string(requestID)
        switch self {
        case .navigation(.invalidParams(let params)):
            w.key("param"); w.string(params.first?.name ?? "body")
            w.key("invalidParams"); w.beginArray()
            for param in params {
                w.beginObject(); w.key("name"); w.string(param.name); w.key("reason"); w.string(param.reason); w.endObject()
            }
            w.endArray()
        case .contextNotSettable(let names):
            w.key("param"); w.string("context." + (names.first ?? ""))
            w.key("invalidParams"); w.beginArray()
            for name in names {
                w.beginObject(); w.key("name"); w.string("context." + name); w.key("reason"); w.string("is the server's to set"); w.endObject()
            }
            w.endArray()
        case .revisionNotJournaled(_, let oldest?):
            w.key("oldestRevision"); w.int(oldest)
        case .navigation(.routeUnavailable(_, let available)):
            w.key("availableRoutes"); w.beginArray(); for route in available { w.string(route) }; w.endArray()
        case .navigation(.unknownSignal):
            w.key("param"); w.string("signal")
        default:
            break
        }
        w.endObject()
        var headers: HTTPHeaders = ["Content-Type": "application/problem+json"]
        switch self {
        case .methodNotAllowed(let allow): headers.add("Allow", allow.joined(separator: ", "))
        case .unauthorized: headers.add("WWW-Authenticate", "Bearer")
        case .identityRefused(let code, _): headers.add("WWW-Authenticate", #"Bearer error="invalid_token", error_description="\#(code)""#)
        case .operatorUnauthorized: headers.add("WWW-Authenticate", #"Bearer realm="operator""#)
        case .streamTicketInvalid: headers.add("WWW-Authenticate", "Bearer")
        case .revisionMismatch(let current): headers.add("ETag", ETag.of(current))
        case .versionAhead: headers.add("Retry-After", "1")
        case .sessionLimit: headers.add("Retry-After", "60")
        case .rateLimited(let seconds), .sessionStreamLimit(_, let seconds), .streamLimit(let seconds),
            .addressStreamLimit(_, let seconds), .sessionRateLimited(let seconds):
            headers.add("Retry-After", String(max(1, seconds)))
        case .unavailable: headers.add("Retry-After", "1")
        default: break
        }
        return HTTPResponse(status: status, headers: headers, body: w.bytes)
    }

    static func from(_ error: StoreError) -> APIError {
        switch error {
        case .sessionLimit: .sessionLimit
        case .notFound: .notFound
        case .unavailable(let why): .unavailable(why)
        case .duplicateID, .conflict, .idempotencyKeyTaken: .internalError("\(error)")
        }
    }

    static func invalid(_ name: String, _ reason: String) -> APIError {
        .navigation(.invalidParam(name, reason))
    }
}

/// Strong entity tags for revisions: `"7"`.
enum ETag {
    static func of(_ revision: Int) -> String { "\"\(revision)\"" }

    /// Whether an `If-Match` value matches `revision` (RFC 9110 §13.1.1: strong comparison,
    /// `*` matches any current representation, a list matches if any member does).
    static func ifMatch(_ header: String, revision: Int) -> Bool {
        let current = of(revision)
        return header.split(separator: ",").contains { tag in
            let tag = tag.trimmingSpaces
            return tag == "*" || tag == current
        }
    }

    /// Whether an `If-None-Match` value matches `revision` (weak comparison, `*` matches).
    static func ifNoneMatch(_ header: String, revision: Int) -> Bool {
        let current = of(revision)
        return header.split(separator: ",").contains { tag in
            var tag = tag.trimmingSpaces
            if tag.hasPrefix("W/") { tag = String(tag.dropFirst(2)) }
            return tag == "*" || tag == current
        }
    }
}

extension String {
    /// Whether every byte is visible ASCII (`!` to `~`, 0x21–0x7E), as `X-Request-Id` and
    /// `Idempotency-Key` must be. A byte the HTTP layer could not read as UTF-8 reads as U+FFFD,
    /// which is not.
    var isVisibleASCII: Bool { utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } }
}

extension Substring {
    var trimmingSpaces: String {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
