import Foundation
import Testing
@testable import WayfinderAPI
import WayfinderCore

/// Issue 42, point B1: an effect reaches the effect runner on every path that stores a state
/// asking for one, served live on each store (the memory one is Redis, then a Redis Cluster,
/// under `scripts/test-e2e-redis`). The launcher app's services answer at once, and the wait is
/// long, so an answer shows the results unless a test holds its service back; a long poll waits
/// for a result that is stored later (a hang fails it after 30 s, never a slow machine).
///
/// A rewind is not here: it runs no flow (``Engine/rewind(_:to:)`` only restores navigation)
/// and is refused while an effect is pending, so it cannot ask for one.
@Suite struct EffectPathTests {
    typealias Kind = InProcessServer.StoreKind
    static let kinds: [Kind] = [.memory, .sqlite]

    /// A server of the launcher app at `version` on `store`.
    func server(_ store: Kind, version: Int = 1, gate: EffectEndToEndTests.Gate? = nil, wait: Duration = .seconds(30)) throws -> InProcessServer {
        try InProcessServer(store: store, engine: Launcher.engine(version: version), services: Launcher.services(gate: gate)) {
            $0.effectWait = wait
        }
    }

    /// How often `flow`'s service ran `effect` successfully (`wayfinder_effect_calls_total`).
    func calls(_ c: Client, _ flow: String, _ effect: String) throws -> Int {
        let prefix = #"wayfinder_effect_calls_total{flow="\#(flow)",effect="\#(effect)",outcome="success"} "#
        let line = try c.call("GET", "/metrics").text.split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    /// A long poll for the revision after `revision`.
    func poll(_ c: Client, _ s: Session, after revision: Int) throws -> Reply {
        try c.get(s, headers: [("If-None-Match", "\"\(revision)\""), ("Prefer", "wait=30")])
    }

    /// The texts of the top screen of a state or action answer.
    func texts(_ reply: Reply) -> [String] { reply.state.top["components"].array.compactMap { $0["text"].string } }

    // MARK: Create

    /// The reproduction: a splash screen whose `start` checks the stored login.
    @Test(arguments: kinds)
    func anEffectAskedForInStartRunsAndTheCreateAnswerShowsItsResult(store: Kind) throws {
        let server = try server(store)
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession(#"{"context": {"token": "t0k3n"}}"#)
        #expect(s.created.status == 201)
        #expect(s.created.header("ETag") == "\"1\"")
        #expect(s.created.state.revision == 1, "\(s.created)")
        #expect(s.created.state.stackNames == ["shop"], "\(s.created)")
        #expect(texts(s.created).first == "Welcome, Ada", "the service got the secret: \(s.created)")
        #expect(try calls(c, "launcher", "checkLogin") == 1)
        // One revision for the launch and its result, in the journal too.
        #expect(try c.get(s).json.stackNames == ["shop"])
        let entries = try c.call("GET", s.path + "/history", token: s.token).json["entries"].array
        #expect(entries.map { $0["actions"].array.compactMap { $0["kind"].string } } == [["start", "effect"]])

        // A context the app refuses creates nothing and runs nothing.
        let refused = try c.call("POST", "/v1/sessions", json: #"{"context": {"token": 5}}"#)
        #expect(refused.status == 422 && refused.code == "invalid_params", "\(refused)")
        #expect(refused.contentType == "application/problem+json")
        #expect(try calls(c, "launcher", "checkLogin") == 1)
    }

    @Test(arguments: kinds)
    func aLaunchEffectSlowerThanTheWaitIsAnswered201OnTheSplashAndItsResultArrivesByLongPoll(store: Kind) throws {
        let gate = EffectEndToEndTests.Gate()
        let server = try server(store, gate: gate, wait: .milliseconds(100))
        defer {
            gate.open()
            server.stop()
        }
        let c = server.client(timeoutMilliseconds: 45_000)
        let s = try c.createSession(#"{"context": {"token": "t0k3n"}}"#)
        #expect(s.created.state.revision == 1, "\(s.created)")
        #expect(s.created.state.stackNames == ["splash"], "\(s.created)")
        gate.open()
        let polled = try poll(c, s, after: 1)
        #expect(polled.status == 200, "\(polled)")
        #expect(polled.state.revision == 2)
        #expect(polled.state.stackNames == ["shop"])
        #expect(texts(polled).first == "Welcome, Ada", "the service got the secret: \(polled)")
        #expect(try calls(c, "launcher", "checkLogin") == 1)
    }

    @Test(arguments: kinds)
    func anEffectAskedForByADeepLinkAtCreationRuns(store: Kind) throws {
        let server = try server(store)
        defer { server.stop() }
        let c = server.client()
        // A guest's shop shows at once, and the link asks for the offer's price.
        let guest = try c.createSession(#"{"deepLink": "launcher://offers/ABC"}"#)
        #expect(guest.created.state.revision == 1, "\(guest.created)")
        #expect(guest.created.state.stackNames == ["shop", "offer"], "\(guest.created)")
        #expect(texts(guest.created) == ["ABC costs 12 €"])
        // With a stored login the link waits for the check, then asks: both in the answer.
        let ada = try c.createSession(#"{"context": {"token": "t0k3n"}, "deepLink": "launcher://offers/XYZ"}"#)
        #expect(ada.created.state.revision == 1, "\(ada.created)")
        #expect(ada.created.state.stackNames == ["shop", "offer"], "\(ada.created)")
        #expect(texts(ada.created) == ["XYZ costs 12 €"])
        #expect(try calls(c, "shop", "price") == 2)
        #expect(try calls(c, "launcher", "checkLogin") == 1)
    }

    // MARK: Mutations (these already ran their effects: `settle`)

    @Test(arguments: kinds)
    func anEffectAskedForByARouteRuns(store: Kind) throws {
        let server = try server(store)
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        let r = try c.route(s, "open", ["code": "R2"])
        try expectAction(r, revision: 2, stack: ["shop", "offer"])
        #expect(texts(r) == ["R2 costs 12 €"])
        #expect(try calls(c, "shop", "price") == 1)
    }

    /// Back, or a tap on the selected tab, ends the basket flow: the shop counts the basket.
    @Test(arguments: kinds, ["back", "tab"])
    func anEffectAskedForWhenBackOrATabEndsAChildFlowRuns(store: Kind, ending: String) throws {
        let server = try server(store)
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession()
        try expectAction(try c.route(s, "more"), revision: 2, stack: ["shop", "basket"])
        let r = ending == "back" ? try c.back(s) : try c.tab(s, "shop")
        try expectAction(r, revision: 3, stack: ["shop"])
        #expect(texts(r).last == "Basket: 3 items")
        #expect(try calls(c, "shop", "countBasket") == 1)
    }

    // MARK: Upgrades

    /// Version 2 replaced the basket flow with `news`, which asks for its headline in `start`:
    /// the session version 1 stored is migrated when version 2 loads it, and the effect runs.
    @Test(arguments: kinds)
    func anEffectAskedForByAMigrationOnLoadRuns(store: Kind) throws {
        let old = try server(store, version: 1)
        let a = old.client()
        let s = try a.createSession()
        try expectAction(try a.route(s, "more"), revision: 2, stack: ["shop", "basket"])
        old.stop()

        let new = try InProcessServer(store: .given(old.api.store), engine: Launcher.engine(version: 2), services: Launcher.services())
        defer { new.stop() }
        let b = new.client(timeoutMilliseconds: 45_000)
        let migrated = try b.get(s)
        #expect(migrated.status == 200, "\(migrated)")
        #expect(migrated.json.revision == 3)
        #expect(migrated.json.stackNames == ["shop", "news"])
        let polled = try poll(b, s, after: 3)
        #expect(polled.status == 200, "\(polled)")
        #expect(polled.state.revision == 4)
        #expect(texts(polled) == ["Wayfinder runs launch effects"])
        #expect(try calls(b, "news", "loadHeadline") == 1)
    }
}
