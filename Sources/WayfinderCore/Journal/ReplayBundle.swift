/// A replay bundle (`GET /v1/sessions/{id}/history?format=bundle`): what a bug report carries to
/// run a session's story again through the pure engine — the app it came from, the session's
/// starting context and deep link, and its journal entries, oldest first.
///
/// If the journal had already dropped the session's first entries, the bundle starts at the
/// oldest entry it still has, and a replay starts from that entry's recorded state.
public struct ReplayBundle: Sendable, Hashable {
    /// The bundle format this code reads and writes.
    public static let format = "wayfinder-replay/1"

    /// The session's id (the engine puts it in the state; it is no credential).
    public var session: String
    /// The app's deep-link scheme and, if it has one, its version (informational: a replay runs
    /// against whatever app it is given, which is the point of replaying).
    public var app: JSONObject
    /// The journal's entries, oldest first.
    public var entries: [JournalRecord]

    /// A bundle of `entries` (read one from its bytes with ``init(bytes:)``).
    public init(session: String, app: JSONObject, entries: [JournalRecord]) {
        self.session = session
        self.app = app
        self.entries = entries
    }

    /// The bundle's bytes: `entries` are journal entries' bytes as stored, written as they are.
    public static func encode(session: String, app: JSONObject, entries: [[UInt8]]) -> [UInt8] {
        var w = JSONWriter(capacity: entries.reduce(256) { $0 + $1.count + 1 })
        w.beginObject()
        w.key("format"); w.string(format)
        w.key("app"); w.value(.object(app))
        w.key("session"); w.string(session)
        w.key("entries"); w.beginArray()
        for entry in entries { w.raw(entry) }
        w.endArray()
        w.endObject()
        return w.bytes
    }

    /// Reads a bundle.
    /// - Throws: ``JournalError/malformed(_:)`` for anything but a bundle of this format.
    public init(bytes: [UInt8]) throws(JournalError) {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch { throw .malformed("the bundle is not JSON (\(error))") }
        guard json["format"]?.stringValue == Self.format else { throw .malformed("the bundle's format is not \(Self.format)") }
        guard let session = json["session"]?.stringValue else { throw .malformed("the bundle names no session") }
        guard let entries = json["entries"]?.arrayValue, !entries.isEmpty else { throw .malformed("the bundle has no entries") }
        var records: [JournalRecord] = []
        for entry in entries { records.append(try JournalRecord(json: entry)) }
        self.init(session: session, app: json["app"]?.objectValue ?? [:], entries: records)
    }
}
