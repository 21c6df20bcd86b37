import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// Who a request's user is: the configured ``Authenticator``'s verdict, and the operator key.
extension WayfinderAPI {
    /// The identity `request` proves (nil: it proves none, or no authenticator is configured);
    /// `401` with the authenticator's code for a credential that does not verify.
    func identity(of request: HTTPRequest, purpose: AuthenticationRequest.Purpose) throws(APIError) -> Identity? {
        guard let authenticator = configuration.authenticator else { return nil }
        if case .session = purpose, !authenticator.authenticatesSessionRequests { return nil }
        let head = AuthenticationRequest(
            purpose: purpose, method: request.method, path: request.path, peer: request.remoteAddress, headers: request.headers.all)
        switch authenticator.authenticate(head) {
        case .none: return nil
        case .verified(let identity):
            guard !identity.subject.isEmpty, identity.subject.utf8.count <= Self.maxSubjectBytes else {
                throw .identityRefused(code: "identity_subject_invalid", detail: "The verified user's name is empty or longer than \(Self.maxSubjectBytes) bytes.")
            }
            return identity
        case .refused(let code, let detail):
            // The code goes into a header: an authenticator's own code is kept only if it is plain.
            let plain = !code.isEmpty && code.utf8.count <= 64 && code.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
            throw .identityRefused(code: plain ? code : "identity_refused", detail: detail)
        }
    }

    /// `403 identity_mismatch` if `request` proves another user than `session`'s (or any user, on
    /// a session without one); `401` for a credential the authenticator refuses.
    func checkIdentity(_ request: HTTPRequest, of session: StoredSession) throws(APIError) {
        guard authenticatesSessionRequests else { return }
        if let proven = try identity(of: request, purpose: .session(id: session.id)), proven.subject != session.user {
            throw .identityMismatch
        }
    }

    /// The longest user name (`sub`) a session is filed under.
    static let maxSubjectBytes = 255

    /// `401 operator_unauthorized` unless `request` carries the operator key; `404` when none is
    /// configured (the operator endpoints are off).
    func requireOperator(_ request: HTTPRequest) throws(APIError) {
        guard let key = operatorKeyHash else { throw .notFound }
        guard isOperator(request, key: key) else { throw .operatorUnauthorized }
    }

    /// Whether `request`'s bearer token is the operator key (compared as hashes, in constant time).
    func isOperator(_ request: HTTPRequest) -> Bool {
        operatorKeyHash.map { isOperator(request, key: $0) } ?? false
    }

    private func isOperator(_ request: HTTPRequest, key: [UInt8]) -> Bool {
        guard let token = try? Credentials.bearerToken(request, allowQuery: false) else { return false }
        return Credentials.constantTimeEqual(key, Credentials.hash(token))
    }
}

/// The operator endpoints: what the team's backend and support staff do with the operator key.
extension WayfinderAPI {
    /// The most sessions `GET /v1/users/{user}/sessions` lists, and `DELETE` ends, at once.
    static let maxSessionsPerUserListed = 1000

    /// `GET /v1/users/{user}/sessions`: the user's live sessions (id, revision, last use);
    /// `DELETE`: ends every one of them (their event streams get a last `ended` event), and says
    /// how many. Operator key only.
    func userSessions(_ user: String, _ request: HTTPRequest) throws -> HTTPResponse {
        try requireOperator(request)
        guard !user.isEmpty, user.utf8.count <= Self.maxSubjectBytes else {
            throw APIError.invalid("user", "must be a user's name (1 to \(Self.maxSubjectBytes) bytes, percent-encoded in the path)")
        }
        let now = WallClock.nowMillis()
        let ids = try store.sessions(ofUser: user, now: now, limit: Self.maxSessionsPerUserListed)
        var w = JSONWriter(capacity: 64 + ids.count * 80)
        w.beginObject()
        w.key("user"); w.string(user)
        if request.method == "DELETE" {
            var ended = 0
            for id in ids where try store.delete(id: id, expectedRevision: nil) {
                cache.remove(SessionKey(id))
                ended += 1
            }
            logger.log(.info, "user_sessions_ended", [("count", .int(ended))])
            w.key("ended"); w.int(ended)
        } else {
            w.key("sessions"); w.beginArray()
            for id in ids {
                guard let session = try store.load(id: id, now: now), session.user == user else { continue }
                w.beginObject()
                w.key("id"); w.string(id)
                w.key("revision"); w.int(session.revision)
                w.key("lastUsed"); w.int(Int(session.lastUsed))
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
        return json(200, w.bytes, ["Cache-Control": "no-store"])
    }

    /// The session `id` for a request with its token, or with the operator key (any session).
    func sessionForOwnerOrOperator(_ id: String, _ request: HTTPRequest) throws -> StoredSession {
        if isOperator(request) {
            guard let session = try store.load(id: id, now: WallClock.nowMillis()) else { throw APIError.notFound }
            return session
        }
        return try waiting { authorized(id, key: SessionKey(id), request, allowQueryToken: false, on: nil, $0) }
    }
}
