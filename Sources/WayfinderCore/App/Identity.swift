/// Who the user of a session is, as the server verified it (a bearer JWT of the team's identity
/// provider, or the team's own authenticator): never what a client claims.
///
/// A session gets its identity when it is created and keeps it for its whole life; flows read
/// it as ``FlowContext/identity``. It is part of the session's input, so it is journaled with
/// the start and a replay runs with the same identity. Clients never see it in a state: a flow
/// that wants the user's name on a screen puts it there.
public struct Identity: Sendable, Hashable, Codable {
    /// The user as the identity provider names them (a JWT's `sub`): what sessions are found by.
    public var subject: String
    /// Who vouched for the user (a JWT's `iss`).
    public var issuer: String
    /// The verified claims the app may read (`email`, `roles`, …), as the provider sent them.
    public var claims: JSONObject

    /// An identity of `subject`, vouched for by `issuer`, with `claims`.
    public init(subject: String, issuer: String, claims: JSONObject = [:]) {
        self.subject = subject
        self.issuer = issuer
        self.claims = claims
    }

    /// The claim `name` as a string, if the provider sent one (`identity.claim("email")`).
    public func claim(_ name: String) -> String? { claims[name]?.stringValue }
}
