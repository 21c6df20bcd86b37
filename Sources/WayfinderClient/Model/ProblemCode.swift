/// The machine-readable kind of a refusal: the `code` of a problem+json answer.
///
/// Every code of the contract is a static member; a code added by a newer server still decodes
/// (compare with the members, or `switch` with a `default`).
public struct ProblemCode: OpenEnumeration {
    /// The raw value.
    public let rawValue: String
    /// Any value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// 401: the `Authorization` header is missing or malformed.
    public static let unauthorized: ProblemCode = "unauthorized"
    /// 404: unknown session id or wrong token (the session ended or expired), or an unknown path.
    public static let notFound: ProblemCode = "not_found"
    /// 405: another method on this path (`Problem/allow` lists the accepted ones).
    public static let methodNotAllowed: ProblemCode = "method_not_allowed"
    /// 409: the screen named by `back` is not on top any more; nothing changed.
    public static let staleScreen: ProblemCode = "stale_screen"
    /// 409: a newer version of the app saved the session and this server runs an older one (a
    /// deploy is under way); nothing changed. Send the same request again after `Problem/retryAfter`.
    public static let versionAhead: ProblemCode = "version_ahead"
    /// 412: `If-Match` named another revision (`Problem/currentRevision` is the current one).
    public static let revisionMismatch: ProblemCode = "revision_mismatch"
    /// 413: the body is larger than the server accepts.
    public static let payloadTooLarge: ProblemCode = "payload_too_large"
    /// 414: the request line is longer than the server accepts.
    public static let uriTooLong: ProblemCode = "uri_too_long"
    /// 415: a body that is not `application/json`.
    public static let unsupportedMediaType: ProblemCode = "unsupported_media_type"
    /// 431: the headers are larger, or more, than the server accepts.
    public static let headersTooLarge: ProblemCode = "headers_too_large"
    /// 400: the body is not valid JSON.
    public static let badJSON: ProblemCode = "bad_json"
    /// 400: malformed HTTP.
    public static let badRequest: ProblemCode = "bad_request"
    /// 422: params missing or of the wrong type (`Problem/param`, `Problem/invalidParams`).
    public static let invalidParams: ProblemCode = "invalid_params"
    /// 422: no coordinator on screen handles the route (`Problem/availableRoutes`).
    public static let routeUnavailable: ProblemCode = "route_unavailable"
    /// 422: the deep link matches no pattern or names something that does not exist.
    public static let unknownDeepLink: ProblemCode = "unknown_deeplink"
    /// 422: the top screen is a root screen; there is nothing to go back to.
    public static let nothingToPop: ProblemCode = "nothing_to_pop"
    /// 422: this `Idempotency-Key` was used for a different request.
    public static let idempotencyKeyReused: ProblemCode = "idempotency_key_reused"
    /// 400: the `Idempotency-Key` is longer than the server accepts (255 bytes by default).
    public static let idempotencyKeyTooLong: ProblemCode = "idempotency_key_too_long"
    /// 400: the `Idempotency-Key` holds a character that is not visible ASCII (`!` to `~`).
    public static let idempotencyKeyInvalid: ProblemCode = "idempotency_key_invalid"
    /// 410: a rewind to a revision the session's journal no longer holds.
    public static let revisionNotJournaled: ProblemCode = "revision_not_journaled"
    /// 409: a rewind while an effect's result is awaited.
    public static let effectsPending: ProblemCode = "effects_pending"
    /// 503: the server holds as many sessions as it may (`Problem/retryAfter`).
    public static let sessionLimit: ProblemCode = "session_limit"
    /// 429: this address created sessions faster than the server allows (`Problem/retryAfter`).
    public static let rateLimited: ProblemCode = "rate_limited"
    /// 422: the change (or the new session) would make the session larger than the server keeps.
    public static let sessionTooLarge: ProblemCode = "session_too_large"
    /// 429: the session has as many event streams open as it may (`Problem/retryAfter`).
    public static let sessionStreamLimit: ProblemCode = "session_stream_limit"
    /// 503: the server has as many event streams open as it may (`Problem/retryAfter`).
    public static let streamLimit: ProblemCode = "stream_limit"
    /// 422: the new session's context has a member a client may not set (who is signed in); `Problem/param` names it.
    public static let contextNotSettable: ProblemCode = "context_not_settable"
    /// 403: the request proves another user than the one the session belongs to.
    public static let identityMismatch: ProblemCode = "identity_mismatch"
    /// 401: an operator endpoint without the operator key, or with another.
    public static let operatorUnauthorized: ProblemCode = "operator_unauthorized"
    /// 409: a rewind to a revision signed in otherwise than now (another user, or signed in then and not now).
    public static let rewindAcrossSignIn: ProblemCode = "rewind_across_sign_in"
    /// 422: a signal the app does not declare (`Problem/param` is `signal`).
    public static let unknownSignal: ProblemCode = "unknown_signal"
    /// 409: a declared signal no coordinator of the session wants now; nothing changed.
    public static let signalUnwanted: ProblemCode = "signal_unwanted"
    /// 401: an event stream's `ticket` that is malformed, expired or another session's.
    public static let streamTicketInvalid: ProblemCode = "stream_ticket_invalid"
    /// 500: an unexpected error; nothing is promised about the state (retry with the same key).
    public static let `internal`: ProblemCode = "internal"
    /// 408: the request's headers did not arrive in time.
    public static let requestTimeout: ProblemCode = "request_timeout"
    /// 503: the session store cannot be reached or the server is shutting down (`Problem/retryAfter`).
    public static let serviceUnavailable: ProblemCode = "service_unavailable"
    /// 501: a request the server does not implement (an unknown transfer coding).
    public static let notImplemented: ProblemCode = "not_implemented"
    /// 505: an HTTP version other than 1.0 and 1.1.
    public static let httpVersionNotSupported: ProblemCode = "http_version_not_supported"
    /// 409: a retry whose request was applied but whose stored answer the server no longer keeps;
    /// nothing ran again: read the session.
    public static let idempotencyAnswerDropped: ProblemCode = "idempotency_answer_dropped"
    /// 429: the client's address has as many event streams open as it may (`Problem/retryAfter`).
    public static let addressStreamLimit: ProblemCode = "address_stream_limit"
    /// 429: the session took actions faster than the server allows; nothing changed (`Problem/retryAfter`).
    public static let sessionRateLimited: ProblemCode = "session_rate_limited"

    /// Every code of the contract (openapi.yaml, `ProblemCode`).
    public static let contract: [ProblemCode] = [
        .unauthorized, .notFound, .methodNotAllowed, .staleScreen, .versionAhead, .revisionMismatch, .payloadTooLarge,
        .uriTooLong, .unsupportedMediaType, .headersTooLarge, .badJSON, .badRequest, .invalidParams,
        .routeUnavailable, .unknownDeepLink, .nothingToPop, .idempotencyKeyReused, .idempotencyKeyTooLong, .idempotencyKeyInvalid,
        .revisionNotJournaled, .effectsPending, .sessionLimit, .internal, .requestTimeout, .serviceUnavailable, .notImplemented,
        .httpVersionNotSupported, .rateLimited, .sessionTooLarge, .sessionStreamLimit, .streamLimit,
        .contextNotSettable, .identityMismatch, .operatorUnauthorized, .rewindAcrossSignIn, .unknownSignal, .signalUnwanted,
        .streamTicketInvalid, .idempotencyAnswerDropped, .addressStreamLimit, .sessionRateLimited,
    ]
}
