/// What an app keeps to come back to its session: the id and the bearer token from creation.
///
/// The token is shown only once, in the creation answer; store both (in the Keychain on Apple
/// platforms) and pass them to ``WayfinderSession/resume(on:credentials:configuration:)``.
public struct SessionCredentials: Codable, Sendable, Hashable {
    /// The session id (URL-safe, at least 128 random bits).
    public var id: String
    /// The bearer token (URL-safe, at least 256 random bits). A secret: never log it.
    public var token: String

    /// Credentials as the server issued them.
    public init(id: String, token: String) {
        self.id = id
        self.token = token
    }
}

/// The answer to `POST /v1/sessions`.
struct CreatedSession: Decodable {
    var id: String
    var token: String
    var state: WireState
}

/// The body of `POST /v1/sessions`.
struct CreateSessionBody: Encodable {
    var context: [String: WireValue]
    var deepLink: String?
}
