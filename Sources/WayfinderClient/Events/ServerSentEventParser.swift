/// One server-sent event.
struct ServerSentEvent: Sendable, Hashable {
    /// The `event` field (`message` when absent).
    var event: String
    /// The `id` field, if the event had one.
    var id: String?
    /// The `data` lines, joined with line feeds.
    var data: String
}

/// Splits a `text/event-stream` into events as its bytes arrive in pieces of any size (WHATWG
/// HTML, "Server-sent events": lines end in CR, LF or CRLF; a blank line ends an event; lines
/// starting with `:` are comments, such as the server's keep-alives).
struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var lastWasCR = false
    private var event = ""
    private var id: String?
    private var data: [String] = []
    private var hasData = false
    private var atStart = true

    /// Feeds bytes; answers the events they completed.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n") where lastWasCR:
                lastWasCR = false  // the LF of a CRLF
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                lastWasCR = byte == UInt8(ascii: "\r")
                if let event = endLine() { events.append(event) }
            default:
                lastWasCR = false
                line.append(byte)
            }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        var bytes = line[...]
        line.removeAll(keepingCapacity: true)
        if atStart {
            atStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }  // a UTF-8 BOM
        }
        if bytes.isEmpty { return dispatch() }
        if bytes.first == UInt8(ascii: ":") { return nil }
        let colon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
        let name = String(decoding: bytes[..<colon], as: UTF8.self)
        var rest = colon < bytes.endIndex ? bytes[(colon + 1)...] : bytes[colon...]
        if rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
        let value = String(decoding: rest, as: UTF8.self)
        switch name {
        case "event": event = value
        case "data":
            data.append(value)
            hasData = true
        case "id" where !value.contains("\0"): id = value
        default: break  // `retry` and unknown fields are ignored
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            event = ""
            data = []
            hasData = false
        }
        guard hasData else { return nil }
        return ServerSentEvent(event: event.isEmpty ? "message" : event, id: id, data: data.joined(separator: "\n"))
    }
}
