/// One entry of a session's journal: the revision it made, when and by which request, the
/// actions that made it (a client's action and the effect results folded into the same
/// revision), the transitions, the screens on show after it, and the digest of the state it left.
///
/// Some entries also keep that state (stored form, so secrets withheld from pending effects stay
/// withheld): see ``keepsState(revision:actions:state:secrets:interval:)``. The others are rebuilt when needed
/// (a rewind, a bundle) by running their actions through the engine from the nearest kept state,
/// which the reducer's purity makes exact; the digest checks it.
///
/// The server writes entries with ``encode(revision:time:requestID:actions:transitions:state:stateBytes:redacting:)``
/// in a compact stored form (the state kept apart, so a store can share its bytes with the
/// session's own) and turns them into JSON with ``joined(record:state:)`` for the history
/// endpoint and bundles; `wayfinder replay` and the testing library read the JSON with
/// ``init(json:)``.
public struct JournalRecord: Sendable, Hashable {
    /// The revision the entry made.
    public var revision: Int
    /// Unix milliseconds: when the revision's request reached the server (its actions' ``FlowContext/now``).
    public var time: Int64
    /// `time` as a ``Timestamp``.
    public var timestamp: Timestamp { Timestamp(millisecondsSince1970: time) }
    /// The `X-Request-Id` of the request that made it (absent for an effect result applied later).
    public var requestID: String?
    /// What made the revision, in order (a client's action, then effect results folded into it).
    public var actions: [JournalAction]
    /// The transitions the revision's answer carried.
    public var transitions: [Transition]
    /// The visible screens after it, bottom to top (names).
    public var screens: [String]
    /// ``StateDigest`` of `state`.
    public var digest: String
    /// The state after it, as stored; nil where the journal did not keep it.
    public var state: JSONValue?

    /// Every how many revisions an entry keeps its state, by default.
    public static let stateInterval = 16

    /// Whether the entry of `revision` made by `actions`, leaving `state`, keeps its state: every
    /// `interval`-th revision from the first, and any entry that cannot be computed again from the
    /// one before — a start, a rewind (its target may be gone from the journal), a migration (the
    /// entries before it were made by another version of the app), an action with a redacted
    /// secret (the engine would see `[redacted]`, not what the user typed or a service replied),
    /// or one that leaves a secret context member set (what a flow decides from it, a replay,
    /// which sees it redacted, cannot decide again).
    public static func keepsState(
        revision: Int, actions: [JournalAction], state: SessionState? = nil, secrets: SecretParams, interval: Int = stateInterval
    ) -> Bool {
        if interval <= 1 || revision % interval == 1 { return true }
        if let state, secrets.redacts(context: state.context) { return true }
        return actions.contains { action in
            switch action {
            case .start, .rewind, .migration: true
            default: action.carriesSecret(secrets)
            }
        }
    }

    /// An entry with every member given (the server writes entries with ``encode(revision:time:requestID:actions:transitions:state:stateBytes:redacting:)``).
    public init(
        revision: Int, time: Int64, requestID: String?, actions: [JournalAction], transitions: [Transition], screens: [String],
        digest: String, state: JSONValue?
    ) {
        self.revision = revision
        self.time = time
        self.requestID = requestID
        self.actions = actions
        self.transitions = transitions
        self.screens = screens
        self.digest = digest
        self.state = state
    }

    /// The entry's stored form without its state, for a store: compact bytes (a format byte, then
    /// varints, strings after their lengths, the digest's eight bytes), about a quarter the size
    /// of its JSON, since the journal writes one on every accepted change and reads them rarely.
    /// ``joined(record:state:)`` turns it into the JSON entry the history endpoint and bundles
    /// carry; ``init(bytes:)`` reads it. `stateBytes` is `state` as the journal keeps it (its
    /// ``StateCodec`` form with secret context members redacted, as a replay sees them:
    /// ``SecretParams/digestBytes(_:stateBytes:)``), of which the entry keeps the digest. Secrets
    /// in the actions are redacted.
    public static func encode(
        revision: Int, time: Int64, requestID: String?, actions: [JournalAction], transitions: [Transition], state: SessionState,
        stateBytes: [UInt8], redacting secrets: SecretParams
    ) -> [UInt8] {
        var out = RecordWriter(capacity: 96)
        out.byte(storedFormat)
        out.int(revision)
        out.int(Int(time))
        if let requestID { out.byte(1); out.string(requestID) } else { out.byte(0) }
        out.count(actions.count)
        for action in actions { action.write(to: &out, redacting: secrets) }
        out.count(transitions.count)
        for transition in transitions {
            out.string(transition.op.rawValue)
            out.byte((transition.animated ? 1 : 0) | (transition.tab == nil ? 0 : 2))
            if let tab = transition.tab { out.string(tab) }
            out.count(transition.screens.count)
            for screen in transition.screens { out.string(screen) }
        }
        let screens = state.navigation.visibleScreens
        out.count(screens.count)
        for screen in screens { out.string(screen.name) }
        out.word(StateDigest.hash(stateBytes))
        return out.bytes
    }

    /// The first byte of the stored form (a JSON entry, as stores kept them before, starts with `{`).
    static let storedFormat: UInt8 = 1

    /// Reads the stored form (``encode(revision:time:requestID:actions:transitions:state:stateBytes:redacting:)``).
    private init(stored bytes: [UInt8]) throws(JournalError) {
        var input = RecordReader(bytes, from: 1)
        let revision = try input.int()
        let time = Int64(try input.int())
        let requestID = try input.byte() == 0 ? nil : try input.string()
        var actions: [JournalAction] = []
        for _ in 0..<(try input.count()) { actions.append(try JournalAction(from: &input)) }
        guard !actions.isEmpty else { throw .malformed("entry \(revision) has no actions") }
        var transitions: [Transition] = []
        for _ in 0..<(try input.count()) {
            guard let op = Transition.Op(rawValue: try input.string()) else {
                throw .malformed("entry \(revision) has a transition without a known op")
            }
            let flags = try input.byte()
            let tab = flags & 2 == 0 ? nil : try input.string()
            var screens: [String] = []
            for _ in 0..<(try input.count()) { screens.append(try input.string()) }
            transitions.append(Transition(op, screens, tab: tab, animated: flags & 1 != 0))
        }
        var screens: [String] = []
        for _ in 0..<(try input.count()) { screens.append(try input.string()) }
        let digest = StateDigest.text(try input.word())
        guard input.isAtEnd else { throw .malformed("entry \(revision) has bytes past its end") }
        self.init(
            revision: revision, time: time, requestID: requestID, actions: actions, transitions: transitions, screens: screens,
            digest: digest, state: nil)
    }

    /// `transitions` as a JSON array, as a revision's answer carries them.
    public static func transitionsJSON(_ transitions: [Transition]) -> [UInt8] {
        var w = JSONWriter(capacity: 16 + 72 * transitions.count)
        w.beginArray()
        for transition in transitions { transition.write(to: &w) }
        w.endArray()
        return w.bytes
    }

    /// The whole entry as JSON, as the history endpoint and bundles carry it: `record` (its stored
    /// form, from ``encode(revision:time:requestID:actions:transitions:state:stateBytes:redacting:)``,
    /// or a JSON entry without a state, as stores kept them before) with the stored state as its
    /// `state` member (none if `state` is empty).
    /// - Throws: ``JournalError/malformed(_:)`` if `record` does not read.
    public static func joined(record: [UInt8], state: [UInt8]) throws(JournalError) -> [UInt8] {
        guard record.first == storedFormat else {
            guard !state.isEmpty else { return record }
            guard record.last == UInt8(ascii: "}") else { throw .malformed("a stored entry is neither JSON nor its stored form") }
            return record.dropLast() + Array(#","state":"#.utf8) + state + [UInt8(ascii: "}")]
        }
        let entry = try JournalRecord(stored: record)
        var w = JSONWriter(capacity: 256 + state.count)
        w.beginObject()
        w.key("revision"); w.int(entry.revision)
        w.key("time"); w.int(Int(entry.time))
        if let requestID = entry.requestID { w.key("requestId"); w.string(requestID) }
        w.key("actions"); w.beginArray()
        for action in entry.actions { action.write(to: &w, redacting: SecretParams()) }  // redacted when stored
        w.endArray()
        w.key("transitions"); w.raw(transitionsJSON(entry.transitions))
        w.key("screens"); w.beginArray()
        for screen in entry.screens { w.string(screen) }
        w.endArray()
        w.key("digest"); w.string(entry.digest)
        if !state.isEmpty { w.key("state"); w.raw(state) }
        w.endObject()
        return w.bytes
    }

    /// Reads an entry (from a store or a bundle).
    /// - Throws: ``JournalError/malformed(_:)``.
    public init(json: JSONValue) throws(JournalError) {
        guard let object = json.objectValue, let revision = object["revision"]?.intValue else {
            throw .malformed("an entry has no revision")
        }
        guard let digest = object["digest"]?.stringValue else { throw .malformed("entry \(revision) has no digest") }
        guard let actions = object["actions"]?.arrayValue, !actions.isEmpty else { throw .malformed("entry \(revision) has no actions") }
        var parsed: [JournalAction] = []
        for action in actions { parsed.append(try JournalAction(json: action)) }
        var transitions: [Transition] = []
        for value in object["transitions"]?.arrayValue ?? [] {
            guard let op = value["op"]?.stringValue.flatMap(Transition.Op.init(rawValue:)) else {
                throw .malformed("entry \(revision) has a transition without a known op")
            }
            transitions.append(Transition(
                op, (value["screens"]?.arrayValue ?? []).compactMap(\.stringValue), tab: value["tab"]?.stringValue,
                animated: value["animated"]?.boolValue ?? true))
        }
        self.init(
            revision: revision, time: Int64(object["time"]?.intValue ?? 0), requestID: object["requestId"]?.stringValue,
            actions: parsed, transitions: transitions, screens: (object["screens"]?.arrayValue ?? []).compactMap(\.stringValue),
            digest: digest, state: object["state"])
    }

    /// Reads an entry from its bytes: its stored form or its JSON.
    public init(bytes: [UInt8]) throws(JournalError) {
        if bytes.first == Self.storedFormat {
            try self.init(stored: bytes)
            return
        }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch { throw .malformed("an entry is not JSON (\(error))") }
        try self.init(json: json)
    }
}
