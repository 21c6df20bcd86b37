import Foundation
import Synchronization
import Testing
@testable import WayfinderAPI
import WayfinderCore
import WayfinderStore

// A parcel whose label is printed by the team's service: an effect with no secret in it.
private enum Parcels: AppSchema {}

private struct ParcelFlow: Flow {
    typealias App = Parcels
    typealias EffectReply = String

    enum Screen: FlowScreen {
        case parcel, shipped(label: String)
        enum CodingKeys: CodingKey, CaseIterable { case parcel, shipped }
    }
    enum Route: FlowRoute {
        case ship(weight: Int)
        enum CodingKeys: CodingKey, CaseIterable { case ship }
    }
    enum Effect: FlowEffect {
        case printLabel(weight: Int)
        enum CodingKeys: CodingKey, CaseIterable { case printLabel }
    }

    func routes(on screen: Screen.Name) -> [Route.Name] { screen == .parcel ? [.ship] : [] }
    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.parcel) }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        if case .ship(let weight) = route { flow.perform(.printLabel(weight: weight)) }
    }

    func complete(_ effect: Effect, with result: EffectResult<EffectReply>, _ flow: inout FlowContext<Self>) throws {
        switch result {
        case .success(let label): flow.push(.shipped(label: label))
        case .failure: flow.showNotice(Notice(.error, "No label could be printed."))
        }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        switch screen {
        case .parcel: ScreenContent(title: "Parcel", components: [flow.button("Ship", submitting: .ship)])
        case .shipped(let label): ScreenContent(title: "Shipped", components: [.text(label)])
        }
    }
}

/// Effects outlive the process that accepted them: a pending effect is stored with the session,
/// and the next server on the same store runs it (or, if it needs a secret that was never
/// stored, tells the flow it was interrupted) — no session stays busy forever.
@Suite struct EffectDurabilityTests {
    @Test func anEffectLeftPendingByAStoppedServerRunsWhenTheNextOneStarts() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-fx-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let engine = Engine(try Application(scheme: "parcels", root: ParcelFlow(), flows: []))
        let path = folder + "/s.sqlite"

        // The first server's label printer never answers before the server goes away.
        var stuck = EffectServices()
        stuck.register(ParcelFlow.self, timeout: .seconds(3600), retries: 0) { _, _ in
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
        let first = try InProcessServer(store: .given(try SQLiteStore(path: path, configuration: StoreConfiguration())), engine: engine, services: stuck) {
            $0.effectWait = .milliseconds(50)
        }
        let c1 = first.client()
        let s = try c1.createSession()
        let accepted = try c1.route(s, "ship", ["weight": 3])
        #expect(accepted.status == 202, "\(accepted)")
        #expect(accepted.state.top["busy"].bool == true)
        first.stop()

        // The next server on the same file prints it, once, and the session moves on.
        let calls = Atomic<Int>(0)
        var printer = EffectServices()
        printer.register(ParcelFlow.self, timeout: .seconds(10), retries: 0) { effect, _ in
            calls.add(1, ordering: .relaxed)
            guard case .printLabel(let weight) = effect else { return "?" }
            return "label for \(weight) kg"
        }
        let second = try InProcessServer(store: .given(try SQLiteStore(path: path, configuration: StoreConfiguration())), engine: engine, services: printer)
        defer { second.stop() }
        let c2 = second.client()
        let polled = try c2.get(s, headers: [("If-None-Match", "\"2\""), ("Prefer", "wait=10")])
        #expect(polled.status == 200, "\(polled)")
        #expect(polled.state.revision == 3)
        #expect(polled.state.stackNames == ["parcel", "shipped"])
        #expect(polled.state.top["busy"].bool != true)
        #expect(polled.state.top["components"].array.contains { $0["text"].string == "label for 3 kg" })
        #expect(calls.load(ordering: .relaxed) == 1)
        #expect(try second.api.store.sessionsWithPendingEffects(limit: 10) == [])
    }

    /// The sample app on the real binary: `kill -9` while the account service works on a sign-up.
    /// The password was never stored, so the next process cannot repeat the call: the flow hears
    /// `interrupted`, asks for the password again, and the user signs up.
    @Test func aSignUpInFlightAtKill9AsksForThePasswordAgainAfterTheRestart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-fx-kill-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = [
            "--store", "sqlite:\(folder)/s.sqlite", "--log-level", "info", "--effect-wait", "100ms",
            "--public", folder, "--openapi", folder + "/none.yaml",
        ]
        let first = try BinaryServer(arguments: arguments, environment: ["WAYFINDER_DEMO_SERVICE_DELAY": "600"])
        var c = Client(port: first.port)
        let s = try c.createSession(#"{"context": {"onboarded": true}}"#)
        _ = try c.route(s, "register")
        let accepted = try c.route(s, "signUp", ["name": "Ada", "email": "ada@example.com", "password": "correct-horse"])
        #expect(accepted.status == 202, "\(accepted)")
        #expect(accepted.state.revision == 3)
        #expect(accepted.state.top["busy"].bool == true)
        first.kill9()

        let log = folder + "/second.log"
        // This time the answer waits for the service (yescrypt takes its time on a busy machine).
        let second = try BinaryServer(arguments: arguments.map { $0 == "100ms" ? "30s" : $0 }, logFile: log)
        defer { second.kill9() }
        c = Client(port: second.port)
        let polled = try c.get(s, headers: [("If-None-Match", "\"3\""), ("Prefer", "wait=10")])
        #expect(polled.status == 200, "\(polled)")
        #expect(polled.state.revision == 4)
        #expect(polled.state.stackNames == ["login", "register"])
        #expect(polled.state.top["busy"].bool != true)
        #expect(polled.state.top["components"].array.contains {
            $0["text"].string == "The server restarted before your account was created: enter your password again."
        })
        let again = try c.route(s, "signUp", ["name": "Ada", "email": "ada@example.com", "password": "correct-horse"])
        try expectAction(again, revision: 5, stack: ["login", "register", "confirmSignUp"])
        let confirmed = try c.route(s, "confirmSignUp", ["code": try #require(mailedCode(in: folder + "/demo-mail.jsonl"))])
        try expectAction(confirmed, revision: 6, stack: ["dashboard"])
        let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(logged.contains(#""event":"effects_resumed""#), "\(logged)")
        #expect(!logged.contains("correct-horse"))
    }

    /// The sample app's mail service on the real binary: `kill -9` while it sends the to-dos; the
    /// next process runs the effect again from the store, the flow shows its result, and the
    /// message goes out once (the service keys it by the effect).
    @Test func aMailInFlightAtKill9IsSentAfterTheRestart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-fx-mail-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let arguments = [
            "--store", "sqlite:\(folder)/s.sqlite", "--log-level", "warn", "--effect-wait", "100ms",
            "--public", folder, "--openapi", folder + "/none.yaml",
        ]
        let first = try BinaryServer(arguments: arguments, environment: ["WAYFINDER_DEMO_SERVICE_DELAY": "600"])
        var c = Client(port: first.port)
        let s = try c.signedInSession()
        _ = try c.tab(s, "profile")
        let accepted = try c.route(s, "emailTodos")
        #expect(accepted.status == 202, "\(accepted)")
        let revision = try #require(accepted.state.revision)
        #expect(accepted.state.top["busy"].bool == true)
        first.kill9()
        let mail = folder + "/demo-mail.jsonl"
        #expect(!FileManager.default.fileExists(atPath: mail), "nothing was sent before the kill")

        let second = try BinaryServer(arguments: arguments.map { $0 == "100ms" ? "30s" : $0 })
        defer { second.kill9() }
        c = Client(port: second.port)
        let polled = try c.get(s, headers: [("If-None-Match", "\"\(revision)\""), ("Prefer", "wait=10")])
        #expect(polled.status == 200, "\(polled)")
        #expect(polled.state.revision == revision + 1)
        #expect(polled.state.stackNames == ["profile"])
        #expect(polled.state.top["busy"].bool != true)
        #expect(polled.state.top["components"].array.contains {
            $0["text"].string == "Your to-dos (4 open) are on their way to a@b.c."
        }, "\(polled)")
        let lines = try String(contentsOfFile: mail, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""to":"a@b.c""#) == true)
    }
}
