import WayfinderCore
import WayfinderHTTP
import WayfinderStore

/// Stream tickets: what a browser's `EventSource`, which cannot send headers, puts in the event
/// stream's URL instead of the session's token. `POST /v1/sessions/{id}/events` (with the token)
/// gives one; it opens that session's stream, and only that, for a minute.
///
/// A ticket is `wft1.` and base64url of its expiry (unix ms, 8 bytes big-endian) and the first 20
/// bytes of an HMAC-SHA256 under the deployment secret of the session id and that expiry: any
/// instance sharing the store checks it without storing anything.
extension WayfinderAPI {
    /// How long a ticket opens its stream: enough for the browser's reconnections after a short
    /// break; after it, the web client asks for a new one.
    static let streamTicketMillis: Int64 = 60_000

    /// `POST /v1/sessions/{id}/events`: a ticket for the session's stream.
    func issueStreamTicket(_ id: String, _ request: HTTPRequest, on loop: (any StoreLoop)?, _ reply: @escaping Reply) {
        authorized(id, key: SessionKey(id), request, allowQueryToken: false, on: loop) { [self] result in
            reply(Result {
                _ = try result.get()
                let expiry = WallClock.nowMillis() + Self.streamTicketMillis
                var w = JSONWriter(capacity: 96)
                w.beginObject()
                w.key("ticket"); w.string(try streamTicket(id, expiry: expiry))
                w.key("expiresIn"); w.int(Int(Self.streamTicketMillis / 1000))
                w.endObject()
                return json(200, w.bytes, ["Cache-Control": "no-store"])
            })
        }
    }

    /// Whether `ticket` opens the stream of session `id` now.
    func checkStreamTicket(_ ticket: String, for id: String) throws {
        guard ticket.hasPrefix("wft1."), let bytes = Base64URL.decode(ticket.utf8.dropFirst(5)), bytes.count == 28 else {
            throw APIError.streamTicketInvalid
        }
        let expiry = bytes.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let now = WallClock.nowMillis()
        guard expiry >= now, expiry <= now + Self.streamTicketMillis else {
            throw APIError.streamTicketInvalid
        }
        guard HMACSHA256.constantTimeEqual(try streamTicketMAC(id, expiry: expiry), Array(bytes.dropFirst(8))) else {
            throw APIError.streamTicketInvalid
        }
    }

    private func streamTicket(_ id: String, expiry: Int64) throws -> String {
        let time = (0..<8).reversed().map { UInt8(truncatingIfNeeded: expiry >> ($0 * 8)) }
        return "wft1." + Credentials.base64URL(time + (try streamTicketMAC(id, expiry: expiry)))
    }

    private func streamTicketMAC(_ id: String, expiry: Int64) throws -> [UInt8] {
        Array(HMACSHA256.authenticate(Array("event stream\n\(id)\n\(expiry)".utf8), key: try deploymentSecret()).prefix(20))
    }
}
