/// One step of a session's story as its journal records it: how the session started, an action a
/// client sent, an effect's result, a rewind, a migration to a new version of the app. Every accepted change of a session is one or more
/// of these (an action and the effect results folded into its revision).
///
/// Written and read by the same code (``write(to:redacting:)`` and ``init(json:)``), so a bundle
/// saved by a server is read back by `wayfinder replay` and the testing library alike.
public enum JournalAction: Sendable, Hashable {
    /// The session was created with this (normalized) context and deep link, for the verified
    /// user `identity` (nil: nobody).
    case start(context: JSONObject, deepLink: String?, identity: Identity? = nil)
    /// A client's action (routes, back, tab, deep link) or an effect's result.
    case action(Action)
    /// The flow threw on an effect's result: the effect was dropped (``Engine/abandonEffect(_:in:)``).
    case abandonEffect(String)
    /// The navigation went back to how it was at `revision` (the model stayed as it was).
    case rewind(revision: Int)
    /// A state saved by version `from` of the app (nil: before apps had versions) was loaded by
    /// version `to` and migrated (``Engine/upgrade(_:)``), or rebuilt for `rebuilt`
    /// (a ``RebuildReason``'s raw value).
    case migration(from: String?, to: String, rebuilt: String?)

    /// What a secret value reads as once redacted: long enough for the usual length rules, so a
    /// replay takes the same branch as the original request in flows that only check length.
    public static let redacted = "[redacted]"

    /// A short kind name: `start`, `route`, `back`, `tab`, `deepLink`, `effect`, `signal`, `abandon`,
    /// `rewind`, `migration`.
    public var kind: String {
        switch self {
        case .start: "start"
        case .action(.trigger): "route"
        case .action(.back): "back"
        case .action(.selectTab): "tab"
        case .action(.openDeepLink): "deepLink"
        case .action(.completeEffect): "effect"
        case .action(.signal): "signal"
        case .abandonEffect: "abandon"
        case .rewind: "rewind"
        case .migration: "migration"
        }
    }

    /// Writes the action as JSON; the route params, context members and reply members that
    /// `secrets` names are replaced by ``redacted`` (their names stay, so a reader sees a password
    /// was given).
    public func write(to w: inout JSONWriter, redacting secrets: SecretParams) {
        w.beginObject()
        w.key("kind"); w.string(kind)
        switch self {
        case .start(let context, let deepLink, let identity):
            w.key("context"); w.value(.object(secrets.redact(context: context)))
            if let deepLink { w.key("deepLink"); w.string(deepLink) }
            if let identity { w.key("identity"); w.value(StateCodec.encode(identity)) }
        case .action(.trigger(let route)):
            w.key("route"); w.string(route.name)
            w.key("params"); w.value(.object(secrets.redact(route)))
        case .action(.back(let screen)):
            if let screen { w.key("screen"); w.string(screen) }
        case .action(.selectTab(let tab)):
            w.key("tab"); w.string(tab)
        case .action(.openDeepLink(let url)):
            w.key("url"); w.string(url)
        case .action(.completeEffect(let id, let completion)):
            w.key("effect"); w.string(id)
            switch completion {
            case .success(let reply): w.key("reply"); w.value(secrets.redact(reply: reply))
            case .failure(let failure):
                w.key("failure")
                switch failure {
                case .timedOut: w.string("timedOut")
                case .interrupted: w.string("interrupted")
                case .unavailable(let reason): w.string("unavailable: " + reason)
                }
            }
        case .action(.signal(let signal)):
            w.key("signal"); w.string(signal.name)
            w.key("params"); w.value(.object(signal.params))
        case .abandonEffect(let id):
            w.key("effect"); w.string(id)
        case .rewind(let revision):
            w.key("revision"); w.int(revision)
        case .migration(let from, let to, let rebuilt):
            w.key("from"); if let from { w.string(from) } else { w.null() }
            w.key("to"); w.string(to)
            if let rebuilt { w.key("rebuilt"); w.string(rebuilt) }
        }
        w.endObject()
    }

    /// Writes the action into a journal entry's stored form: a route, the action of almost every
    /// entry, as its name and its (redacted) params' JSON, none if it has none; any other as the
    /// JSON of ``write(to:redacting:)``.
    func write(to out: inout RecordWriter, redacting secrets: SecretParams) {
        if case .action(.trigger(let route)) = self {
            out.byte(1)
            out.string(route.name)
            guard !route.params.isEmpty else { return out.count(0) }
            var w = JSONWriter(capacity: 64)
            w.value(.object(secrets.redact(route)))
            out.run(w.bytes)
        } else {
            var w = JSONWriter(capacity: 64)
            write(to: &w, redacting: secrets)
            out.byte(0)
            out.run(w.bytes)
        }
    }

    /// Whether ``write(to:redacting:)`` redacts a secret of this action: the engine, given the
    /// written action, could not decide as it did.
    public func carriesSecret(_ secrets: SecretParams) -> Bool {
        switch self {
        case .start(let context, _, _): secrets.redacts(context: context)
        case .action(.trigger(let route)): secrets.redacts(route)
        case .action(.completeEffect(_, .success(let reply))): secrets.redacts(reply: reply)
        default: false
        }
    }

    /// Whether this action, as read back from a journal, holds a redacted secret where `secrets`
    /// declares one.
    func carriesRedacted(_ secrets: SecretParams) -> Bool {
        let redacted = JSONValue.string(Self.redacted)
        switch self {
        case .start(let context, _, _): return secrets.contextMembers.contains { context[$0] == redacted }
        case .action(.trigger(let route)):
            return route.params.contains { name, value in value == redacted && secrets.isSecret(route: route.name, param: name) }
        case .action(.completeEffect(_, .success(let reply))):
            return secrets.holdsRedacted(reply: reply)
        default: return false
        }
    }

    /// Reads an action written by ``write(to:redacting:)-(RecordWriter,_)``.
    init(from input: inout RecordReader) throws(JournalError) {
        let tag = try input.byte()
        if tag == 1 {
            let name = try input.string()
            let params = try input.run()
            guard !params.isEmpty else {
                self = .action(.trigger(RouteRequest(name, params: [:])))
                return
            }
            guard let object = (try? JSONParser.parse(params))?.objectValue else { throw .malformed("a route's params are not an object") }
            self = .action(.trigger(RouteRequest(name, params: object)))
        } else {
            guard tag == 0 else { throw .malformed("a stored action has an unknown tag \(tag)") }
            let bytes = try input.run()
            let json: JSONValue
            do { json = try JSONParser.parse(bytes) } catch { throw .malformed("a stored action is not JSON (\(error))") }
            try self.init(json: json)
        }
    }

    /// Reads an action written by ``write(to:redacting:)``.
    /// - Throws: ``JournalError/malformed(_:)`` naming what is missing or wrong.
    public init(json: JSONValue) throws(JournalError) {
        guard let object = json.objectValue, let kind = object["kind"]?.stringValue else { throw .malformed("an action has no kind") }
        func string(_ key: String) throws(JournalError) -> String {
            guard let value = object[key]?.stringValue else { throw .malformed("a '\(kind)' action has no string '\(key)'") }
            return value
        }
        switch kind {
        case "start":
            var identity: Identity?
            if let value = object["identity"] {
                guard let sub = value["sub"]?.stringValue, let iss = value["iss"]?.stringValue else {
                    throw .malformed("a 'start' action's identity has no string 'sub' and 'iss'")
                }
                identity = Identity(subject: sub, issuer: iss, claims: value["claims"]?.objectValue ?? [:])
            }
            self = .start(context: object["context"]?.objectValue ?? [:], deepLink: object["deepLink"]?.stringValue, identity: identity)
        case "route": self = .action(.trigger(RouteRequest(try string("route"), params: object["params"]?.objectValue ?? [:])))
        case "back": self = .action(.back(screen: object["screen"]?.stringValue))
        case "tab": self = .action(.selectTab(try string("tab")))
        case "deepLink": self = .action(.openDeepLink(try string("url")))
        case "effect":
            let id = try string("effect")
            if let reply = object["reply"] {
                self = .action(.completeEffect(id: id, .success(reply)))
            } else {
                let failure = try string("failure")
                switch failure {
                case "timedOut": self = .action(.completeEffect(id: id, .failure(.timedOut)))
                case "interrupted": self = .action(.completeEffect(id: id, .failure(.interrupted)))
                default:
                    guard failure.hasPrefix("unavailable: ") else { throw .malformed("unknown effect failure '\(failure)'") }
                    self = .action(.completeEffect(id: id, .failure(.unavailable(String(failure.dropFirst(13))))))
                }
            }
        case "signal": self = .action(.signal(SignalRequest(try string("signal"), params: object["params"]?.objectValue ?? [:])))
        case "abandon": self = .abandonEffect(try string("effect"))
        case "rewind":
            guard let revision = object["revision"]?.intValue else { throw .malformed("a 'rewind' action has no revision") }
            self = .rewind(revision: revision)
        case "migration": self = .migration(from: object["from"]?.stringValue, to: try string("to"), rebuilt: object["rebuilt"]?.stringValue)
        default: throw .malformed("unknown action kind '\(kind)'")
        }
    }
}

/// What is wrong with a journal entry or a replay bundle.
public enum JournalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The journal or bundle does not read as one; the reason names what is missing or wrong.
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let reason): "malformed journal: \(reason)"
        }
    }
}
