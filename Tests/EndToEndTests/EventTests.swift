import Foundation
import Testing

/// Issue 4, test 6: server-sent events.
@Suite struct EventTests {
    /// Waits until the server counts `count` open event streams (so a stream is subscribed before a change).
    func waitForStreams(_ c: Client, _ count: Int) throws -> Bool {
        try eventually(within: 10) {
            let text = try c.call("GET", "/metrics").text
            return text.split(separator: "\n").contains("wayfinder_event_streams_open \(count)")
        }
    }

    @Test func currentStateThenEveryChangeThenDeleteEndsTheStream() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        let streamURL = c.base + s.path + "/events?access_token=" + s.token
        let reader = EventReader(url: streamURL)

        // The current state at once.
        let first = try #require(reader.next(), "no first event; \(String(describing: reader.error))")
        #expect(first.event == "state")
        #expect(first.id == "1")
        #expect(first.json["revision"].int == 1)
        #expect(first.json["session"].string == s.id)
        #expect(first.json.canonical == s.created.state.canonical)
        #expect(!first.data.contains("\n"))

        // A change made through another connection arrives as the next event.
        let other = server.client()
        let changed = try other.tab(s, "todos")
        try expectAction(changed, revision: 2, stack: ["todoList"])
        let second = try #require(reader.next(), "no event after a change")
        #expect(second.event == "state")
        #expect(second.id == "2")
        #expect(second.json.canonical == changed.state.canonical)

        // A no-op sends nothing: the next event is the next change.
        let noop = try other.tab(s, "todos")
        #expect(noop.json["transitions"].array.isEmpty)
        let linked = try other.deepLink(s, "wayfinder://todos/3")
        try expectAction(linked, revision: 3, stack: ["todoList", "todoDetail"])
        let third = try #require(reader.next())
        #expect(third.id == "3")
        #expect(third.json.stackNames == ["todoList", "todoDetail"])

        // Last-Event-ID equal to the current revision skips the first event (header auth here).
        let resumed = EventReader(url: c.base + s.path + "/events", headers: [s.auth, ("Last-Event-ID", "3")])
        // Another value (older, newer, not a number) gets the current state first.
        let older = EventReader(url: c.base + s.path + "/events", headers: [s.auth, ("Last-Event-ID", "2")])
        let garbage = EventReader(url: c.base + s.path + "/events", headers: [s.auth, ("Last-Event-ID", "x")])
        let newer = EventReader(url: c.base + s.path + "/events", headers: [s.auth, ("Last-Event-ID", "9")])
        for r in [older, garbage, newer] {
            let e = try #require(r.next())
            #expect(e.id == "3")
            #expect(e.json.revision == 3)
        }
        #expect(try waitForStreams(c, 5), "five streams open")
        let popped = try other.back(s)
        try expectAction(popped, revision: 4, stack: ["todoList"])
        let resumedFirst = try #require(resumed.next(), "the resumed stream gets the next change")
        #expect(resumedFirst.id == "4")
        #expect(resumedFirst.json.canonical == popped.state.canonical)
        for r in [reader, older, garbage, newer] {
            #expect(r.next()?.id == "4")
        }

        // Deleting the session ends every stream.
        let deleted = try other.call("DELETE", s.path, token: s.token)
        #expect(deleted.status == 204)
        for r in [reader, resumed, older, garbage, newer] {
            #expect(r.waitUntilFinished(within: 10), "the stream did not end")
            #expect(r.pending.map(\.event) == ["ended"], "\(r.pending)")
        }
        let result = try #require(reader.result, "\(String(describing: reader.error))")
        #expect(result.status == 200)
        #expect(result.header("Content-Type")?.hasPrefix("text/event-stream") == true)
        #expect(result.header("Cache-Control") == "no-store")
        #expect(try waitForStreams(c, 0))
    }

    @Test func heartbeatsAndClientsThatLeave() throws {
        let server = try InProcessServer { $0.heartbeatSeconds = 0.2 }
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let reader = EventReader(url: c.base + s.path + "/events?access_token=" + s.token)
        #expect(reader.next()?.id == "1")
        #expect(eventually(within: 10) { reader.commentCount > 0 }, "no keep-alive comment line")
        #expect(reader.pending.isEmpty, "comments are not events")
        // The client goes away: the server notices and closes its side.
        reader.stop()
        #expect(reader.waitUntilFinished(within: 10))
        #expect(try waitForStreams(c, 0), "the stream was not cleaned up after the client left")
        // The session is fine and still answers.
        #expect(try c.route(s, "next").status == 200)
    }

    @Test func headerWinsOverAccessToken() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession(), other = try c.createSession()
        let path = s.path + "/events?access_token=" + s.token
        // A wrong header with the right query token: the header wins, 404.
        let wrong = try c.call("GET", path, token: other.token)
        #expect(wrong.status == 404)
        #expect(wrong.code == "not_found")
        // A malformed header with the right query token: 401.
        let malformed = try c.call("GET", path, headers: [("Authorization", "Basic abc")])
        #expect(malformed.status == 401)
        #expect(malformed.header("WWW-Authenticate")?.lowercased().hasPrefix("bearer") == true)
        // A wrong query token alone: 404; none at all: 401.
        #expect(try c.call("GET", s.path + "/events?access_token=" + other.token).status == 404)
        #expect(try c.call("GET", s.path + "/events").status == 401)
        // Only the events endpoint takes access_token.
        let read = try c.call("GET", s.path + "?access_token=" + s.token)
        #expect(read.status == 401)
        // The right header with a wrong query token: the header wins, the stream opens.
        let reader = EventReader(url: c.base + s.path + "/events?access_token=" + other.token, headers: [s.auth])
        let first = try #require(reader.next())
        #expect(first.json["session"].string == s.id)
        #expect(try c.call("DELETE", s.path, token: s.token).status == 204)
        #expect(reader.waitUntilFinished(within: 10))
    }
}
