/// Checks who a request's user is, from what the request proves (a bearer JWT, a cookie signed by
/// the team's backend, a client certificate's name forwarded by a trusted proxy): the server
/// asks it when a session is created and on every request that names a session.
///
/// It runs on the server's event loops, so it must not block: verify a signature, read a
/// header; never call a network service. It sees only the request's head.
///
/// ```swift
/// struct SignedCookie: Authenticator {
///     func authenticate(_ request: AuthenticationRequest) -> Authentication {
///         guard let cookie = request.header("Cookie") else { return .none }
///         guard let user = verify(cookie) else {
///             return .refused(code: "cookie_invalid", detail: "The sign-in cookie does not verify.")
///         }
///         return .verified(Identity(subject: user, issuer: "https://id.example.com"))
///     }
/// }
/// ```
public protocol Authenticator: Sendable {
    /// What `request` proves about its user.
    func authenticate(_ request: AuthenticationRequest) -> Authentication
    /// Whether requests that name a session are asked about too (a cookie is sent with every
    /// request); false for a check that only ever finds a credential when a session is created,
    /// which the server then skips on every other request. Default true.
    var authenticatesSessionRequests: Bool { get }
}

extension Authenticator {
    /// Every request is asked about.
    public var authenticatesSessionRequests: Bool { true }
}

/// What an ``Authenticator`` decided about one request.
public enum Authentication: Sendable, Hashable {
    /// The request carries no credential: a new session has no identity, and a request naming a
    /// session is served on its session token alone.
    case none
    /// The request proves this user: a new session belongs to them, and a request naming a
    /// session of another user is refused (`403 identity_mismatch`).
    case verified(Identity)
    /// The request carries a credential that does not verify: `401` with `code` (a problem code
    /// of the authenticator's: lowercase words joined by `_`) and `detail` (words for the
    /// client's developer; never key material). Nothing of the request is stored.
    case refused(code: String, detail: String)
}

/// The head of a request as an ``Authenticator`` sees it.
public struct AuthenticationRequest: Sendable {
    /// Why the server asks.
    public enum Purpose: Sendable, Hashable {
        /// `POST /v1/sessions`: no session exists yet, so `Authorization` is free to carry the
        /// identity provider's token.
        case createSession
        /// A request that names a session: `Authorization` carries the session's own token.
        case session(id: String)
    }

    /// Why the server asks.
    public var purpose: Purpose
    /// The request's method (`GET`, `POST`, …).
    public var method: String
    /// The request's path, without the query.
    public var path: String
    /// The address of the connection's peer (a proxy's, behind one).
    public var peer: String
    /// The request's header fields, names as sent, in order.
    public var headers: [(name: String, value: String)]

    /// A request head.
    public init(purpose: Purpose, method: String, path: String, peer: String, headers: [(name: String, value: String)]) {
        self.purpose = purpose
        self.method = method
        self.path = path
        self.peer = peer
        self.headers = headers
    }

    /// The first value of the header `name` (compared without regard to case), if present.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}
