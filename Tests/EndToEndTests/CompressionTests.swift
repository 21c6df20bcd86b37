import Foundation
import Testing
import WayfinderLiveTesting

/// Issue 45, part 3: gzip-coded answers for clients that send `Accept-Encoding: gzip`.
@Suite struct CompressionTests {
    /// A GET through libcurl asking for `coding` and decoding it as libcurl does.
    func decodedGet(_ c: Client, _ s: Session, _ coding: String, headers: [(String, String)] = []) throws -> Reply {
        Reply(try c.curl.request("GET", c.base + s.path, headers: [s.auth] + headers, decoding: coding))
    }

    @Test func gzipAnswersDecodeToTheBytesOfTheUncodedAnswer() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        _ = try c.tab(s, "todos")
        let plain = try c.get(s)
        #expect(plain.status == 200)
        #expect(plain.header("Content-Encoding") == nil)
        #expect(plain.header("ETag") == "\"2\"")
        #expect(plain.header("Vary") == nil, "a client that does not ask gets the answer as before")
        #expect(plain.body.count >= 1024)
        let identity = try c.get(s, headers: [("Accept-Encoding", "identity")])
        #expect(identity.header("Vary") == "Accept-Encoding")
        #expect(identity.body == plain.body)

        let decoded = try decodedGet(c, s, "gzip")
        #expect(decoded.status == 200)
        #expect(decoded.header("Content-Encoding") == "gzip")
        #expect(decoded.header("ETag") == "W/\"2\"")
        #expect(decoded.header("Vary") == "Accept-Encoding")
        #expect(decoded.body == plain.body)

        // As sent: a gzip member (RFC 1952's magic bytes), its length in Content-Length, smaller.
        let raw = try c.get(s, headers: [("Accept-Encoding", "gzip")])
        #expect(raw.body.starts(with: [0x1f, 0x8b]))
        #expect(raw.header("Content-Length") == String(raw.body.count))
        #expect(raw.body.count * 3 < plain.body.count, "\(raw.body.count) of \(plain.body.count)")

        // An action's answer too: decoded, it is the state a GET then reads.
        let action = Reply(try c.curl.request(
            "POST", c.base + s.path + "/routes", headers: [s.auth, ("Content-Type", "application/json")],
            upload: .bytes(Array(#"{"route":"addTodo"}"#.utf8)), decoding: "gzip"))
        #expect(action.status == 200)
        #expect(action.header("Content-Encoding") == "gzip")
        #expect(action.header("ETag") == "W/\"3\"")
        #expect(action.state.canonical == (try c.get(s)).json.canonical)
    }

    @Test func weakAndStrongTagsBothAnswerNotModified() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        for tag in ["\"1\"", "W/\"1\""] {
            let coded = try c.get(s, headers: [("Accept-Encoding", "gzip"), ("If-None-Match", tag)])
            #expect(coded.status == 304, "\(tag): \(coded)")
            #expect(coded.header("ETag") == "W/\"1\"")
            #expect(coded.header("Vary") == "Accept-Encoding")
            let plain = try c.get(s, headers: [("If-None-Match", tag)])
            #expect(plain.status == 304)
            #expect(plain.header("ETag") == "\"1\"")
        }
        // If-Match still takes the revision as a strong tag.
        let changed = try c.tab(s, "todos", headers: [("Accept-Encoding", "gzip"), ("If-Match", "\"1\"")])
        #expect(changed.status == 200)
        #expect(changed.header("ETag") == "W/\"2\"")
    }

    @Test(arguments: [
        ("gzip", true), ("x-gzip", true), ("GZIP;Q=0.5", true), ("*", true), ("br, gzip;q=0.001", true),
        ("gzip;q=0", false), ("gzip; q=0.000", false), ("identity;q=1, gzip;q=0.5", false), ("br, deflate", false),
        ("", false), ("*;q=0", false), ("gzip;q=2", false), ("gzip;q=abc", false), ("*, gzip;q=0", false),
        ("gzip, identity;q=0.5", true),
    ])
    func qualitiesChooseTheCoding(field: String, coded: Bool) throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        let reply = try c.get(s, headers: [("Accept-Encoding", field)])
        #expect(reply.status == 200)
        #expect((reply.header("Content-Encoding") == "gzip") == coded, "\(field): \(reply.header("Content-Encoding") ?? "none")")
    }

    @Test func shortAnswersGoUncodedUnlessIdentityIsRefused() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let health = try c.call("GET", "/healthz", headers: [("Accept-Encoding", "gzip")])
        #expect(health.body.count < 1024)
        #expect(health.header("Content-Encoding") == nil)
        #expect(health.header("Vary") == "Accept-Encoding")
        let refused = Reply(try c.curl.request("GET", c.base + "/healthz", headers: [("Accept-Encoding", "gzip, identity;q=0")]))
        #expect(refused.header("Content-Encoding") == "gzip")
        let decoded = Reply(try c.curl.request("GET", c.base + "/healthz", decoding: "gzip"))
        #expect(decoded.body == health.body)
    }

    @Test func theNewSessionsTokenIsNeverCoded() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession("{}", headers: [("Accept-Encoding", "gzip, identity;q=0")])
        #expect(s.created.header("Content-Encoding") == nil)
        #expect(s.created.json["token"].string == s.token)
    }

    @Test func eventStreamsAndTheirHeartbeatsGoUncoded() throws {
        let server = try InProcessServer { $0.heartbeatSeconds = 0.1 }
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        let reader = EventReader(url: c.base + s.path + "/events?access_token=" + s.token, headers: [("Accept-Encoding", "gzip")])
        let first = try #require(reader.next(), "no first event; \(String(describing: reader.error))")
        #expect(first.json["revision"].int == 1)
        #expect(eventually(within: 10) { reader.commentCount > 0 })
        reader.stop()
        #expect(reader.waitUntilFinished())
        #expect(reader.result?.headers.contains { $0.name.lowercased() == "content-encoding" } == false)
    }

    @Test func theWebClientsFilesAreCodedWithWeakTags() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let plain = try c.call("GET", "/app.js")
        let decoded = Reply(try c.curl.request("GET", c.base + "/app.js", decoding: "gzip"))
        #expect(decoded.header("Content-Encoding") == "gzip")
        #expect(decoded.body == plain.body)
        let tag = try #require(decoded.header("ETag"))
        #expect(tag == "W/" + (plain.header("ETag") ?? ""))
        #expect(try c.call("GET", "/app.js", headers: [("If-None-Match", tag), ("Accept-Encoding", "gzip")]).status == 304)
    }

    @Test func levelZeroNeverCodes() throws {
        let server = try InProcessServer { $0.gzipLevel = 0 }
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        let reply = try c.get(s, headers: [("Accept-Encoding", "gzip")])
        #expect(reply.header("Content-Encoding") == nil)
        #expect(reply.header("ETag") == "\"1\"")
    }
}
