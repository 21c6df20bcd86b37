/// What an application declares secret: route params typed ``Secret`` (a password), context
/// members (``SessionContext/secretMembers``) and members of effect replies
/// (``Flow/secretReplyMembers``). Each reads ``JournalAction/redacted`` wherever it would leave
/// the server: the state a client is shown, the journal, history, replay bundles, logs.
///
/// Built once per application (``Application/secrets``). A route name offered by several flows
/// counts a param as secret if any of them declares it so; a reply member name counts in every
/// reply if any flow declares it (a reply does not say which flow it is for).
public struct SecretParams: Sendable, Hashable {
    private var byRoute: [String: Set<String>]
    /// The context members that are secrets.
    public private(set) var contextMembers: Set<String>
    /// The reply member names that are secrets.
    public private(set) var replyMembers: Set<String>

    /// The secrets `app` declares (its ``Application/secrets``).
    public init(_ app: Application) { self = app.secrets }

    /// No secrets at all.
    public init() {
        byRoute = [:]
        contextMembers = []
        replyMembers = []
    }

    init(flows: [any AnyFlow], contextMembers: Set<String>) {
        var byRoute: [String: Set<String>] = [:]
        var replyMembers: Set<String> = []
        for flow in flows {
            for route in flow.routes {
                let secret = route.params.filter(\.secret).map(\.name)
                if !secret.isEmpty { byRoute[route.name, default: []].formUnion(secret) }
            }
            replyMembers.formUnion(flow.secretReplyMembers)
        }
        self.byRoute = byRoute
        self.contextMembers = contextMembers
        self.replyMembers = replyMembers
    }

    /// Whether `param` of `route` is secret.
    public func isSecret(route: String, param: String) -> Bool { byRoute[route]?.contains(param) ?? false }

    /// `route`'s params with each secret one (that is present) replaced by ``JournalAction/redacted``.
    public func redact(_ route: RouteRequest) -> JSONObject {
        guard !route.params.isEmpty, let names = byRoute[route.name] else { return route.params }
        return Self.redact(route.params, names)
    }

    /// Whether ``redact(_:)`` changes any of `route`'s params (without building the redacted copy).
    public func redacts(_ route: RouteRequest) -> Bool {
        guard !route.params.isEmpty, let names = byRoute[route.name] else { return false }
        return Self.holdsClear(route.params, names)
    }

    /// `context` with each secret member that holds a value replaced by ``JournalAction/redacted``.
    public func redact(context: JSONObject) -> JSONObject {
        contextMembers.isEmpty ? context : Self.redact(context, contextMembers)
    }

    /// Whether ``redact(context:)`` changes `context`.
    public func redacts(context: JSONObject) -> Bool {
        !contextMembers.isEmpty && Self.holdsClear(context, contextMembers)
    }

    /// `reply` with every member of a secret name, at any depth, replaced by ``JournalAction/redacted``.
    public func redact(reply: JSONValue) -> JSONValue {
        guard !replyMembers.isEmpty else { return reply }
        switch reply {
        case .object(let object):
            var out = object
            for (name, value) in object {
                out[name] = replyMembers.contains(name) && value != .null ? .string(JournalAction.redacted) : redact(reply: value)
            }
            return .object(out)
        case .array(let values): return .array(values.map { redact(reply: $0) })
        default: return reply
        }
    }

    /// Whether ``redact(reply:)`` changes `reply`.
    public func redacts(reply: JSONValue) -> Bool {
        !replyMembers.isEmpty && redact(reply: reply) != reply
    }

    /// Whether a member of a secret name in `reply`, at any depth, reads ``JournalAction/redacted``.
    func holdsRedacted(reply: JSONValue) -> Bool {
        switch reply {
        case .object(let object):
            object.contains { name, value in
                (replyMembers.contains(name) && value == .string(JournalAction.redacted)) || holdsRedacted(reply: value)
            }
        case .array(let values): values.contains { holdsRedacted(reply: $0) }
        default: false
        }
    }

    /// `state` as it may leave the server: its secret context members redacted.
    public func redact(_ state: SessionState) -> SessionState {
        guard redacts(context: state.context) else { return state }
        var redacted = state
        redacted.context = redact(context: state.context)
        return redacted
    }

    /// `state`'s stored form (`stateBytes`) with its secret context members redacted: what a
    /// journal keeps and takes its digest of, so a replay, which only ever sees them redacted,
    /// computes the same digest.
    public func digestBytes(_ state: SessionState, stateBytes: [UInt8]) -> [UInt8] {
        redacts(context: state.context) ? StateCodec.encode(redact(state)) : stateBytes
    }

    private static func redact(_ object: JSONObject, _ names: Set<String>) -> JSONObject {
        var object = object
        for name in names where object[name] != nil && object[name] != .null { object[name] = .string(JournalAction.redacted) }
        return object
    }

    private static func holdsClear(_ object: JSONObject, _ names: Set<String>) -> Bool {
        names.contains { name in
            guard let value = object[name] else { return false }
            return value != .null && value != .string(JournalAction.redacted)
        }
    }
}
