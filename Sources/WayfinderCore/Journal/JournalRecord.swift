/// One entry of a session's journal: the revision it made, when and by which request, the
/// actions that made it (a client's action and the effect results folded into the same
/// revision), the transitions, the screens on show after it, and the digest of the state it left.
///
/// Some entries also keep that state (stored form, so secrets withheld from pending effects stay
/// withheld): see ``keepsState(revision:actions:secrets:)``. The others are rebuilt when needed
/// (a rewind, a bundle) by running their actions through the engine from the nearest kept state,
/// which the reducer's purity makes exact; the digest checks it.
///
/// The server writes entries with ``encode(revision:time:requestID:actions:transitions:state:stateBytes:redacting:)``
/// (the state kept apart, so a store can share its bytes with the session's own) and
/// ``joined(record:state:)``; the history endpoint, bundles, `wayfinder replay` and the testing
/// library read them with ``init(json:)``: one shape, one serialiser.
public struct JournalRecord: Sendable, Hashable {
    /// The revision the entry made.
    public var revision: Int
    /// Unix milliseconds.
    public var time: Int64
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

    /// Whether the entry of `revision` made by `actions` keeps its state: every `interval`-th
    /// revision from the first, and any entry that cannot be computed again from the one before —
    /// a start, a rewind (its target may be gone from the journal), a migration (the entries
    /// before it were made by another version of the app), or an action with a redacted
    /// secret (the engine would see `[redacted]`, not what the user typed).
    public static func keepsState(revision: Int, actions: [JournalAction], secrets: SecretParams, interval: Int = stateInterval) -> Bool {
        if interval <= 1 || revision % interval == 1 { return true }
        return actions.contains { action in
            switch action {
            case .start, .rewind, .migration: true
            case .action(.trigger(let route)): secrets.redacts(route)
            default: false
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

    /// The entry's bytes without its state, for a store; `stateBytes` is `state` as stored
    /// (``StateCodec``), of which the entry keeps the digest; `transitions` is the JSON array the
    /// revision's answer carried (``transitionsJSON(_:)``), copied as it is. Secret route params
    /// are redacted.
    public static func encode(
        revision: Int, time: Int64, requestID: String?, actions: [JournalAction], transitions: [UInt8], state: SessionState,
        stateBytes: [UInt8], redacting secrets: SecretParams
    ) -> [UInt8] {
        // Sized for a usual entry (about 250 bytes) so that the store keeps no slack per entry.
        var out = RecordWriter(capacity: 224 + transitions.count)
        out.literal(#"{"revision":"#); out.int(revision)
        out.literal(#","time":"#); out.int(Int(time))
        if let requestID { out.literal(#","requestId":"#); out.string(requestID) }
        out.literal(#","actions":["#)
        for (index, action) in actions.enumerated() {
            if index > 0 { out.literal(",") }
            action.write(to: &out, redacting: secrets)
        }
        out.literal("]")
        out.literal(#","transitions":"#); out.bytes.append(contentsOf: transitions)
        out.literal(#","screens":["#)
        for (index, screen) in state.navigation.visibleScreens.enumerated() {
            if index > 0 { out.literal(",") }
            out.string(screen.name)
        }
        out.literal(#"],"digest":""#); out.hex(StateDigest.hash(stateBytes))
        out.literal(#""}"#)
        return out.bytes
    }

    /// `transitions` as a JSON array: written once per revision for both its answer and its entry.
    public static func transitionsJSON(_ transitions: [Transition]) -> [UInt8] {
        var w = JSONWriter(capacity: 16 + 72 * transitions.count)
        w.beginArray()
        for transition in transitions { transition.write(to: &w) }
        w.endArray()
        return w.bytes
    }

    /// The whole entry: `record` (from ``encode(revision:time:requestID:actions:transitions:state:stateBytes:redacting:)``)
    /// with the stored state as its `state` member (none if `state` is empty).
    public static func joined(record: [UInt8], state: [UInt8]) -> [UInt8] {
        guard !state.isEmpty, record.last == UInt8(ascii: "}") else { return record }
        let member = Array(#","state":"#.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(record.count + member.count + state.count)
        bytes.append(contentsOf: record.dropLast())
        bytes.append(contentsOf: member)
        bytes.append(contentsOf: state)
        bytes.append(UInt8(ascii: "}"))
        return bytes
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

    /// Reads an entry from its bytes.
    public init(bytes: [UInt8]) throws(JournalError) {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch { throw .malformed("an entry is not JSON (\(error))") }
        try self.init(json: json)
    }
}
