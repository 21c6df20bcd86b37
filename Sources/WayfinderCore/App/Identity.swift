/// Who the user of a session is, as the server verified it (a bearer JWT of the team's identity
/// provider, or the team's own authenticator): never what a client claims.
///
/// A session gets its identity when it is created and keeps it for its whole life; flows read
/// it as ``FlowContext/identity``. It is part of the session's input, so it is journaled with
/// the start and a replay runs with the same identity. Clients never see it in a state: a flow
/// that wants the user's name on a screen puts it there.
public struct Identity: Sendable, Hashable, Codable {
    /// The values behind one reference: a state is copied many times an action, and one retain
    /// costs less than three.
    private final class Storage: Sendable {
        let subject: String
        let issuer: String
        let claims: JSONObject
        init(subject: String, issuer: String, claims: JSONObject) {
            self.subject = subject
            self.issuer = issuer
            self.claims = claims
        }
    }

    private var storage: Storage

    /// The user as the identity provider names them (a JWT's `sub`): what sessions are found by.
    public var subject: String {
        get { storage.subject }
        set { storage = Storage(subject: newValue, issuer: issuer, claims: claims) }
    }
    /// Who vouched for the user (a JWT's `iss`).
    public var issuer: String {
        get { storage.issuer }
        set { storage = Storage(subject: subject, issuer: newValue, claims: claims) }
    }
    /// The claims about the user the app may read (`email`, `roles`, …), as the provider sent
    /// them (a JWT's registered claims, `exp` and the like, are left out).
    public var claims: JSONObject {
        get { storage.claims }
        set { storage = Storage(subject: subject, issuer: issuer, claims: newValue) }
    }

    /// An identity of `subject`, vouched for by `issuer`, with `claims`.
    public init(subject: String, issuer: String, claims: JSONObject = [:]) {
        storage = Storage(subject: subject, issuer: issuer, claims: claims)
    }

    /// The claim `name` as a string, if the provider sent one (`identity.claim("email")`).
    public func claim(_ name: String) -> String? { claims[name]?.stringValue }

    public static func == (a: Identity, b: Identity) -> Bool {
        a.storage === b.storage || (a.subject == b.subject && a.issuer == b.issuer && a.claims == b.claims)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(subject)
        hasher.combine(issuer)
        hasher.combine(claims)
    }

    private enum CodingKeys: String, CodingKey { case subject, issuer, claims }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            subject: try container.decode(String.self, forKey: .subject), issuer: try container.decode(String.self, forKey: .issuer),
            claims: try container.decodeIfPresent(JSONObject.self, forKey: .claims) ?? [:])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(subject, forKey: .subject)
        try container.encode(issuer, forKey: .issuer)
        if !claims.isEmpty { try container.encode(claims, forKey: .claims) }
    }
}
