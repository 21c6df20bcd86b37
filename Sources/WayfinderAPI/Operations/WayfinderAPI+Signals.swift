import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// The team's backend talks to live sessions: `POST /v1/sessions/{id}/signals` and
/// `POST /v1/users/{user}/signals`, with the operator key.
extension WayfinderAPI {
    /// The signal a request body names: `{"signal": "driverArrived", "params": {…}}`.
    static func signal(_ body: RequestBody) throws -> SignalRequest {
        SignalRequest(try body.requiredString("signal"), params: try body.optionalObject("params") ?? [:])
    }

    /// `POST /v1/users/{user}/signals`: the signal, to each live session of the user, as
    /// `POST /v1/sessions/{id}/signals` would give it (the same `Idempotency-Key` on each, so a
    /// retried delivery acts once per session). Each session's answer is listed: its status, its
    /// revision, and the problem code of a refusal (`signal_unwanted` where no flow wants it now).
    /// Effects the signal asks for run on their own (`202`). Operator key only; a signal the app
    /// does not declare, or ill-typed params, are refused once, before any session is read.
    func userSignals(_ user: String, _ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        try requireOperator(request)
        guard !user.isEmpty, user.utf8.count <= Self.maxSubjectBytes else {
            throw APIError.invalid("user", "must be a user's name (1 to \(Self.maxSubjectBytes) bytes, percent-encoded in the path)")
        }
        let signal = try Self.signal(try RequestBody.read(request))
        _ = try idempotencyKey(request.headers["Idempotency-Key"])  // refused once, even for a user with no session
        try engine.check(signal)
        let ids = try store.sessions(ofUser: user, now: WallClock.nowMillis(), limit: Self.maxSessionsPerUserListed)
        var w = JSONWriter(capacity: 64 + ids.count * 96)
        w.beginObject()
        w.key("user"); w.string(user)
        w.key("sessions"); w.beginArray()
        for id in ids {
            let answer: HTTPResponse
            do {
                answer = try waiting { done in
                    do {
                        try mutate(id, request, context, on: nil, byOperator: true, detachingEffects: true, done) { _ in .signal(signal) }
                    } catch {
                        done(.failure(error))
                    }
                }
            } catch {
                answer = problem(error, path: request.path, requestID: context.requestID)
            }
            w.beginObject()
            w.key("id"); w.string(id)
            w.key("status"); w.int(answer.status)
            // The revision from the answer's ETag; only a refusal's (small) body is read.
            if answer.status == 200, let revision = answer.headers["ETag"].flatMap({ Int($0.filter(\.isNumber)) }) {
                w.key("revision"); w.int(revision)
            }
            if answer.status >= 400, case .bytes(let bytes) = answer.body, let code = (try? JSONParser.parse(bytes))?["code"]?.stringValue {
                w.key("code"); w.string(code)
            }
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return json(200, w.bytes, ["Cache-Control": "no-store"])
    }
}
