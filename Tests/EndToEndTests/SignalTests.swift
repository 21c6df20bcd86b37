import Foundation
import Testing
import WayfinderAPI
import WayfinderCore

/// The team's backend tells live sessions something (issue 42, point 2): the sample app's
/// `todoShared` signal, sent with the operator key to one session or to every session of a user,
/// reaches the to-do list and the event stream; what the app does not declare, or no flow wants
/// now, is refused and leaves nothing behind. On the memory store (Redis when the suite runs on
/// it) and SQLite.
@Suite struct SignalTests {
    static let stores: [InProcessServer.StoreKind] = [.memory, .sqlite]
    let shared = #"{"signal":"todoShared","params":{"title":"Pick up the keys","from":"Grace"}}"#

    func problem(_ r: Reply, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == status, "\(r)", sourceLocation: sourceLocation)
        #expect(r.contentType?.hasPrefix("application/problem+json") == true, "\(r)", sourceLocation: sourceLocation)
        #expect(r.code == code, "\(r)", sourceLocation: sourceLocation)
    }

    func todos(_ c: Client, _ s: Session) throws -> [String] {
        let state = try c.get(s).json
        let list = state["navigation"]["tabs"].array.first { $0["id"].string == "todos" }
        let screen = list?["root"]["screens"][0]
        return screen?["components"].array.flatMap { $0["items"].array }.compactMap { $0["title"].string } ?? []
    }

    @Test(arguments: stores) func aSignalReachesTheScreenAndTheStream(store: InProcessServer.StoreKind) throws {
        let server = try InProcessServer(store: store)
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession(subject: "ada", email: "ada@example.com")
        let stream = EventReader(url: c.base + s.path + "/events", headers: [s.auth])
        defer { stream.stop() }
        #expect(stream.next()?.json.revision == 1)

        let sent = try c.call("POST", s.path + "/signals", token: TestIdentity.operatorKey, json: shared, headers: [("Idempotency-Key", "share-1")])
        #expect(sent.status == 200, "\(sent)")
        #expect(sent.json["state"].revision == 2)
        #expect(try todos(c, s).contains("Pick up the keys"), "the signal's to-do is on the list")
        let event = stream.next()
        #expect(event?.json.revision == 2, "\(String(describing: event))")

        // A retried delivery acts once.
        let again = try c.call("POST", s.path + "/signals", token: TestIdentity.operatorKey, json: shared, headers: [("Idempotency-Key", "share-1")])
        #expect(again.status == 200 && again.header("Idempotent-Replayed") == "true", "\(again)")
        #expect(try todos(c, s).filter { $0 == "Pick up the keys" }.count == 1)

        // The journal records it; a bundle replays it.
        let history = try c.call("GET", s.path + "/history", token: s.token)
        let action = history.json["entries"].array.last?["actions"][0]
        #expect(action?["kind"].string == "signal" && action?["signal"].string == "todoShared", "\(history)")
        #expect(action?["params"]["from"].string == "Grace")
        let bundle = try c.call("GET", s.path + "/history?format=bundle", token: s.token)
        let report = Replay(demoEngine).run(try ReplayBundle(bytes: bundle.body))
        #expect(report.divergence == nil, "\(report)")
    }

    @Test(arguments: stores) func refusedSignalsLeaveNothing(store: InProcessServer.StoreKind) throws {
        let server = try InProcessServer(store: store)
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession(subject: "ada", email: "ada@example.com")
        let signedOut = try c.createSession()
        let path = s.path + "/signals"

        problem(try c.call("POST", path, json: shared), 401, "operator_unauthorized")
        problem(try c.call("POST", path, token: s.token, json: shared), 401, "operator_unauthorized")
        let unknown = try c.call("POST", path, token: TestIdentity.operatorKey, json: #"{"signal":"driverArrived"}"#)
        problem(unknown, 422, "unknown_signal")
        #expect(unknown.json["param"].string == "signal")
        let untyped = try c.call("POST", path, token: TestIdentity.operatorKey, json: #"{"signal":"todoShared","params":{"title":7,"from":"Grace"}}"#)
        problem(untyped, 422, "invalid_params")
        #expect(untyped.json["param"].string == "title")
        problem(try c.call("POST", path, token: TestIdentity.operatorKey, json: #"{"signal":"todoShared","params":{"title":"  ","from":"Grace"}}"#), 422, "invalid_params")
        // Signed out, the to-do list is not there: no flow wants the signal.
        problem(try c.call("POST", signedOut.path + "/signals", token: TestIdentity.operatorKey, json: shared), 409, "signal_unwanted")
        problem(try c.call("POST", "/v1/sessions/nope/signals", token: TestIdentity.operatorKey, json: shared), 404, "not_found")

        #expect(try c.get(s).json.revision == 1, "nothing of a refused signal is stored")
        #expect(try c.get(signedOut).json.revision == 1)
        #expect(try c.call("GET", s.path + "/history", token: s.token).json["entries"].array.count == 1)
    }

    @Test(arguments: stores) func aSignalToAUserReachesEachOfTheirSessions(store: InProcessServer.StoreKind) throws {
        let server = try InProcessServer(store: store)
        defer { server.stop() }
        let c = server.client()
        let phone = try c.signedInSession(subject: "ada+work@example.com", email: "ada@example.com")
        let laptop = try c.signedInSession(platform: "tablet", subject: "ada+work@example.com", email: "ada@example.com")
        let bob = try c.signedInSession(subject: "bob", email: "bob@example.com")
        let path = "/v1/users/ada+work%40example.com/signals"

        problem(try c.call("POST", path, token: phone.token, json: shared), 401, "operator_unauthorized")
        problem(try c.call("POST", path, token: TestIdentity.operatorKey, json: #"{"signal":"nope"}"#), 422, "unknown_signal")

        let sent = try c.call("POST", path, token: TestIdentity.operatorKey, json: shared, headers: [("Idempotency-Key", "share-ada")])
        #expect(sent.status == 200, "\(sent)")
        #expect(sent.json["user"].string == "ada+work@example.com")
        #expect(Set(sent.json["sessions"].array.compactMap { $0["id"].string }) == [phone.id, laptop.id])
        #expect(sent.json["sessions"].array.allSatisfy { $0["status"].int == 200 && $0["revision"].int == 2 }, "\(sent)")
        #expect(try todos(c, phone).contains("Pick up the keys"))
        #expect(try todos(c, laptop).contains("Pick up the keys"))
        #expect(!(try todos(c, bob)).contains("Pick up the keys"))

        let again = try c.call("POST", path, token: TestIdentity.operatorKey, json: shared, headers: [("Idempotency-Key", "share-ada")])
        #expect(again.json["sessions"].array.allSatisfy { $0["status"].int == 200 && $0["revision"].int == 2 }, "\(again)")
        #expect(try c.get(phone).json.revision == 2, "a retried delivery acts once")
        #expect(try todos(c, phone).filter { $0 == "Pick up the keys" }.count == 1)
    }
}
