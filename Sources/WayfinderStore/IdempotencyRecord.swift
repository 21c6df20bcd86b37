/// The first response to a request carrying an `Idempotency-Key`, kept so a retry can replay it.
///
/// Records are scoped to their session (deleted with it) and expire after
/// `StoreConfiguration.idempotencyTTLMillis` (24 h by default). Past the session's answer budget
/// (`StoreConfiguration.idempotencyBytesPerSession`) the oldest records keep only their
/// fingerprint, status and time: ``answerDropped``.
public struct IdempotencyRecord: Sendable, Equatable {
    /// The session the request was made on.
    public var sessionID: String
    /// The client's `Idempotency-Key`.
    public var key: String
    /// Hash of method, path and canonical body, computed by the API; a different fingerprint for the
    /// same key means the key was reused for another request.
    public var fingerprint: [UInt8]
    /// The first response's status.
    public var status: Int
    /// The first response's header fields, in order.
    public var headers: [HeaderPair]
    /// The first response's body.
    public var body: [UInt8]
    /// Unix milliseconds when the response was first produced.
    public var createdAt: Int64
    /// Whether the store dropped the answer (headers and body are then empty) to keep the
    /// session's records within their byte budget: a retry cannot be replayed, and must not run
    /// again.
    public var answerDropped: Bool

    /// What the answer counts against the session's budget: the body and every header field's
    /// name and value.
    public var answerBytes: Int {
        headers.reduce(body.count) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }

    /// A record of a first response.
    public init(
        sessionID: String, key: String, fingerprint: [UInt8], status: Int,
        headers: [HeaderPair], body: [UInt8], createdAt: Int64, answerDropped: Bool = false
    ) {
        self.sessionID = sessionID
        self.key = key
        self.fingerprint = fingerprint
        self.status = status
        self.headers = headers
        self.body = body
        self.createdAt = createdAt
        self.answerDropped = answerDropped
    }

    /// The record without its answer: what stays once the budget drops it.
    public var withoutAnswer: IdempotencyRecord {
        IdempotencyRecord(
            sessionID: sessionID, key: key, fingerprint: fingerprint, status: status, headers: [], body: [], createdAt: createdAt,
            answerDropped: true)
    }
}

/// One response header field, in order; names keep the case they were given.
public struct HeaderPair: Sendable, Hashable {
    /// The field's name.
    public var name: String
    /// The field's value.
    public var value: String

    /// A field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
