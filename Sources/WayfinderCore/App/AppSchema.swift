/// The types an app's flows share: who the user is (the session's context), the app's model,
/// and where deep links lead. Every flow of an app names the same schema as its `App`.
///
/// ```swift
/// enum Shop: AppSchema {
///     typealias Context = ShopContext   // a SessionContext
///     typealias Model = Cart            // an AppModel
///     typealias Link = ShopLink         // a DeepLinkDestination
/// }
/// ```
///
/// Tip: `protocol ShopFlow: Flow where App == Shop {}` lets each flow write `struct CartFlow: ShopFlow`.
public protocol AppSchema {
    /// The session's context, read from the client's `context` when a session is created.
    associatedtype Context: SessionContext = JSONObject
    /// The app's model, shared by all flows of a session and kept when they finish.
    associatedtype Model: AppModel = JSONObject
    /// The app's deep-link destinations.
    associatedtype Link: DeepLinkDestination = NoDeepLinks
    /// What the team's backend can tell a session (``AppSignal``).
    associatedtype Signal: AppSignal = NoSignals
}

/// A session's context: how the app should look (`platform`, `locale`, `onboarded`, …) and what
/// the server decided about the user (`authenticated`, `roles`, …), shown to clients in every
/// state.
///
/// A client's context is read member by member: an absent or `null` member keeps the value
/// `init()` gives it, an unknown member is dropped, and a member of the wrong type or outside an
/// enum's values is an `invalid_params` problem named `context.<member>`. Then ``normalized()``
/// applies the app's own rules.
///
/// Only the members named by ``clientMembers`` are a client's to set: any other member a client
/// sends is refused (`422 context_not_settable`, named `context.<member>`), so who is signed in
/// is never a client's claim. The other members change only through flows (after an effect
/// verified a password, say) or come from the session's verified ``Identity``.
public protocol SessionContext: Codable, Sendable, Hashable {
    /// The context of a client that says nothing.
    init()
    /// The app's rules across members (for example: no user unless authenticated). Throw
    /// ``NavigationError/invalidParams(_:)`` to refuse the context.
    func normalized() throws -> Self
    /// The member that names the experiment variant a session is in (an A/B test), if any:
    /// traffic (`/metrics`, the flow graph) is counted per value of it. Best an enum, so the
    /// values are few; past 16 distinct values the rest count as `other`.
    static var variantKey: String? { get }
    /// The members a client may set when it creates a session (hints such as the platform or the
    /// locale); the others are the server's. The default, ``ContextMembers/all``, suits a context
    /// that says nothing about the user; a context with members about the user names the others:
    /// `static let clientMembers = ContextMembers.only(["platform", "onboarded"])`.
    /// The application refuses to start if a name is not a member.
    static var clientMembers: ContextMembers { get }
    /// The members that are secrets (an access token a flow got from an effect, say): they read
    /// `[redacted]` in every state a client is shown, in the journal, history, replay bundles and
    /// logs, and only the session's own stored state keeps them. A member typed ``Secret`` must
    /// be named here; the application refuses to start otherwise, or if a name is not a member.
    static var secretMembers: Set<String> { get }
}

extension SessionContext {
    public func normalized() throws -> Self { self }
    /// No variant member.
    public static var variantKey: String? { nil }
    /// Every member is a client's to set.
    public static var clientMembers: ContextMembers { .all }
    /// No member is a secret.
    public static var secretMembers: Set<String> { [] }
}

/// Which members of a session's context a client may set (``SessionContext/clientMembers``).
public enum ContextMembers: Sendable, Hashable {
    /// Every member: nothing in the context is the server's.
    case all
    /// Only these members; a client that sends another is refused.
    case only(Set<String>)

    /// Whether a client may set the member `name`.
    public func allows(_ name: String) -> Bool {
        switch self {
        case .all: true
        case .only(let names): names.contains(name)
        }
    }
}

/// The app's model (MVVM-C's model): data the flows read and change, shared across flows and
/// kept when they finish. A new session's model is `init()`.
public protocol AppModel: Codable, Sendable, Hashable {
    /// The model of a new session.
    init()
}

/// The context and model of an app that keeps them as plain JSON.
extension JSONObject: SessionContext, AppModel {}

/// An app's deep-link destinations, as an enum whose `CodingKeys` are the URL patterns under
/// the app's scheme; a `{name}` segment captures the associated value labelled `name`.
///
/// ```swift
/// enum ShopLink: DeepLinkDestination {
///     case cart, order(id: String)
///     enum CodingKeys: String, CodingKey, CaseIterable { case cart, order = "orders/{id}" }
/// }
/// ```
public protocol DeepLinkDestination: NamedCases {
    /// What a link shows, for the catalog.
    static func describe(_ link: Name) -> String
}

extension DeepLinkDestination {
    public static func describe(_ link: Name) -> String { "" }
}

/// The deep links of an app that has none; there is no value of it.
public struct NoDeepLinks: DeepLinkDestination {
    private init() {}
    public enum CodingKeys: CodingKey, CaseIterable, Hashable, Sendable {}
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "this app has no deep links"))
    }
    public func encode(to encoder: any Encoder) throws {}
}

/// A coordinator's own data. `init()` is what a flow starts with unless its parent gives it more
/// (``FlowContext/startChild(_:placement:data:)``).
public protocol FlowData: Codable, Sendable, Hashable {
    /// The data a flow starts with when its parent gives none.
    init()
}

/// The data of a flow that keeps none.
public struct NoData: FlowData {
    /// The only value: there is nothing to keep.
    public init() {}
}

/// The result of a flow that finishes with nothing to say.
public struct NoResult: Codable, Sendable, Hashable {
    /// The only value: there is nothing to say.
    public init() {}
}
