import Foundation
import Testing

/// Issue 4, test 7: idle sessions expire.
@Suite struct ExpiryTests {
    @Test func idleSessionsExpire() throws {
        let server = try InProcessServer(ttlMillis: 1_500)
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        #expect(try c.get(s).status == 200)
        let reader = EventReader(url: c.base + s.path + "/events?access_token=" + s.token)
        #expect(reader.next()?.id == "1")
        // /metrics does not touch the session, so it can watch it expire.
        let expired = try eventually(within: 15, interval: 0.1) { try c.activeSessions() == 0 }
        #expect(expired, "the session did not expire within 15 s")
        let gone = try c.get(s)
        #expect(gone.status == 404)
        #expect(gone.code == "not_found")
        #expect(try c.route(s, "next").status == 404)
        // The sweeper deletes it, which ends its event stream.
        #expect(reader.waitUntilFinished(within: 15), "the expired session's stream did not end")
    }
}
