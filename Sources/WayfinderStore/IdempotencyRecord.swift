/// The first response to a request carrying an `Idempotency-Key`, kept so a retry can replay it.
///
/// Records are scoped to their session (deleted with it) and expire after
/// `StoreConfiguration.idempotencyTTLMillis` (24 h by default).
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

    /// A record of a first response.
    public init(
        sessionID: String, key: String, fingerprint: [UInt8], status: Int,
        headers: [HeaderPair], body: [UInt8], createdAt: Int64
    ) {
        self.sessionID = sessionID
        self.key = key
        self.fingerprint = fingerprint
        self.status = status
        self.headers = headers
        self.body = body
        self.createdAt = createdAt
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
