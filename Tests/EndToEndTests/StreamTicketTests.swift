import Foundation
import Testing

/// Stream tickets (issue 47, point 5): a browser opens its event stream with a short-lived ticket
/// from `POST …/events`, never with the session's token in the URL.
@Suite struct StreamTicketTests {
    @Test func aTicketOpensItsSessionsStreamOnly() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let other = try c.createSession()

        #expect(try c.call("POST", s.path + "/events").status == 401, "a ticket needs the session's token")
        #expect(try c.call("POST", s.path + "/events", token: other.token).code == "not_found")
        let issued = try c.call("POST", s.path + "/events", token: s.token)
        #expect(issued.status == 200, "\(issued)")
        #expect(issued.header("Cache-Control") == "no-store")
        #expect(issued.json["expiresIn"].int == 60)
        let ticket = try #require(issued.json["ticket"].string)
        #expect(!ticket.contains(s.token))

        let stream = EventReader(url: c.base + s.path + "/events?ticket=" + ticket)
        defer { stream.stop() }
        #expect(stream.next()?.json["session"].string == s.id)
        #expect(try c.route(s, "next").status == 200)
        #expect(stream.next()?.json.revision == 2)
        // The same ticket opens the stream again (the browser reconnects by itself)...
        let again = EventReader(url: c.base + s.path + "/events?ticket=" + ticket)
        defer { again.stop() }
        #expect(again.next()?.json.revision == 2)

        // ...but no other session's, and nothing once it is changed or malformed.
        for (path, bad) in [(other.path, ticket), (s.path, ticket.dropLast() + (ticket.last == "A" ? "B" : "A")), (s.path, "wft1.AAAA"), (s.path, "nope")] {
            let refused = try c.call("GET", path + "/events?ticket=" + bad, headers: [("Accept", "text/event-stream")])
            #expect(refused.status == 401 && refused.code == "stream_ticket_invalid", "\(refused)")
            #expect(refused.header("WWW-Authenticate") == "Bearer")
        }
    }
}
