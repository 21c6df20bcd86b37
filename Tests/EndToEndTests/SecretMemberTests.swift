import Foundation
import Testing
import WayfinderAPI
import WayfinderCore
import WayfinderStore

/// Secrets besides route params (issue 41, point 5): a context member and a member of an effect's
/// reply declared secret read `[redacted]` in every state a client is shown, in the history, in
/// bundles and in everything the journal stores, and a bundle with them still replays.
@Suite struct SecretMemberTests {
    static let key = "k-7f3c9a-vault-key"

    @Test func theApplicationChecksItsSecretDeclarations() {
        func problems<F: Flow>(_ root: F) -> [String] {
            do {
                _ = try Application(scheme: "x", root: root, flows: [])
                return []
            } catch let error as ApplicationError {
                return error.problems
            } catch {
                return ["\(error)"]
            }
        }
        #expect(problems(LooseFlow()).contains { $0.contains("secretMembers names 'pin'") })
        #expect(problems(LooseFlow()).contains { $0.contains("LooseContext.code is a Secret: name it in LooseContext.secretMembers") })
        #expect(problems(LooseFlow()).contains { $0.contains("LooseContext.count is a secret member but a integer") })
        #expect(problems(LooseFlow()).contains { $0.contains("variantKey 'variant' is a secret member") })
        #expect(problems(VaultFlow()).isEmpty)
    }

    @Test func theEngineRedactsWhatLeavesTheServer() throws {
        let engine = try Vault.engine()
        let secrets = engine.app.secrets
        #expect(secrets.contextMembers == ["apiKey"])
        #expect(secrets.replyMembers == ["apiKey"])
        var state = try engine.start(session: "v", context: ["platform": "web"])
        state = try engine.reduce(state, .trigger(RouteRequest("unlock", params: ["password": "open sesame"]))).state
        let effect = try #require(state.effects.first)
        let reply: JSONValue = ["apiKey": .string(Self.key), "owner": ["name": "Ada", "apiKey": .string(Self.key)]]
        let completion = JournalAction.action(.completeEffect(id: effect.id, .success(reply)))
        let outcome = try engine.reduce(state, .completeEffect(id: effect.id, .success(reply)))
        #expect(outcome.state.context["apiKey"] == .string(Self.key), "the session itself keeps the secret")
        #expect(engine.render(outcome.state).context["apiKey"] == .string(JournalAction.redacted))
        var memo = RenderMemo()
        #expect(!String(decoding: engine.renderJSON(outcome.state, memo: &memo), as: UTF8.self).contains(Self.key))

        var w = JSONWriter()
        completion.write(to: &w, redacting: secrets)
        let written = String(decoding: w.bytes, as: UTF8.self)
        #expect(!written.contains(Self.key) && written.contains("Ada"), "\(written)")
        #expect(completion.carriesSecret(secrets))
        #expect(JournalRecord.keepsState(revision: 3, actions: [completion], secrets: secrets))
        let kept = secrets.digestBytes(outcome.state, stateBytes: StateCodec.encode(outcome.state))
        #expect(!String(decoding: kept, as: UTF8.self).contains(Self.key))
    }

    @Test(arguments: [false, true]) func secretsNeverLeaveInClear(onSQLite: Bool) throws {
        let engine = try Vault.engine()
        let store: any SessionStore
        if onSQLite {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-secrets-\(UUID().uuidString)")
            store = try SQLiteStore(path: dir.appendingPathComponent("s.sqlite").path, configuration: StoreConfiguration())
        } else {
            store = MemoryStore(configuration: StoreConfiguration())
        }
        let server = try InProcessServer(store: .given(store), engine: engine, services: Vault.services())
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession(#"{"context":{"platform":"web"}}"#)
        let refused = try c.call("POST", "/v1/sessions", json: #"{"context":{"apiKey":"mine"}}"#)
        #expect(refused.status == 422 && refused.code == "context_not_settable", "\(refused)")

        #expect(try c.route(s, "unlock", ["password": "open sesame"]).status == 200)
        var state = try c.get(s)
        #expect(try eventually(within: 10) {
            state = try c.get(s)
            return state.json.top["name"].string == "open"
        }, "\(state)")
        #expect(state.json["context"]["apiKey"].string == JournalAction.redacted)
        #expect(!state.text.contains(Self.key))
        #expect(state.json.top["components"].array.contains { $0["text"].string == "Ada's vault is open" }, "\(state)")

        // A route that reads the secret: the flow sees the real one.
        let checked = try c.route(s, "check")
        #expect(checked.json["state"].top["components"].array.contains { $0["text"].string == "the key is right" }, "\(checked)")

        let history = try c.call("GET", s.path + "/history", token: s.token)
        #expect(history.status == 200)
        #expect(!history.text.contains(Self.key), "\(history.text)")
        let entries = history.json["entries"].array
        let effect = try #require(entries.flatMap(\.["actions"].array).first { $0["kind"].string == "effect" })
        #expect(effect["reply"]["apiKey"].string == JournalAction.redacted)
        #expect(effect["reply"]["owner"]["name"].string == "Ada")
        #expect(entries.contains { $0["state"]["context"]["apiKey"].string == JournalAction.redacted })

        let bundle = try c.call("GET", s.path + "/history?format=bundle", token: s.token)
        #expect(bundle.status == 200)
        #expect(!bundle.text.contains(Self.key))
        let report = Replay(engine).run(try ReplayBundle(bytes: bundle.body))
        #expect(report.divergence == nil, "\(report)")
        #expect(report.steps.count == entries.count)

        // Nothing the journal stores holds the secret: only the session's own state does.
        for entry in try store.journal(id: s.id, since: 0) {
            let bytes: [UInt8] = entry.record + entry.state
            #expect(!String(decoding: bytes, as: UTF8.self).contains(Self.key), "entry \(entry.revision)")
        }
        let stored = try #require(try store.load(id: s.id, now: Int64(Date().timeIntervalSince1970 * 1000)))
        #expect(String(decoding: stored.state, as: UTF8.self).contains(Self.key))

        // A rewind to before the unlock keeps the key (it is the session's, not the navigation's);
        // the same rewind in a locked session would not restore the open vault.
        let rewound = try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision":1}"#)
        #expect(rewound.status == 200, "\(rewound)")
        #expect(try c.route(s, "lock").status == 200)
        let across = try c.call("POST", s.path + "/rewind", token: s.token, json: #"{"revision":3}"#)
        #expect(across.status == 409 && across.code == "rewind_across_sign_in", "\(across)")
    }
}

/// A vault: the account service turns a password into an API key, which the session keeps in a
/// secret context member (`apiKey`) and the service's reply carries in a secret member.
enum Vault: AppSchema {
    typealias Context = VaultContext

    static func engine() throws -> Engine { Engine(try Application(scheme: "vault", root: VaultFlow(), flows: [])) }

    static func services() -> EffectServices {
        var services = EffectServices()
        services.register(VaultFlow.self, timeout: .seconds(30), retries: 0) { effect, _ in
            guard case .unlock(let password) = effect, password.value == "open sesame" else { return VaultReply(apiKey: "", owner: .init(name: "", apiKey: "")) }
            return VaultReply(apiKey: SecretMemberTests.key, owner: .init(name: "Ada", apiKey: SecretMemberTests.key))
        }
        return services
    }
}

struct VaultContext: SessionContext {
    var platform = "web"
    var apiKey = ""
    static let clientMembers = ContextMembers.only(["platform"])
    static let secretMembers: Set<String> = ["apiKey"]
}

struct VaultReply: Codable, Sendable, Hashable {
    struct Owner: Codable, Sendable, Hashable {
        var name: String
        var apiKey: String
    }
    var apiKey: String
    var owner: Owner
}

struct VaultFlow: Flow {
    typealias App = Vault
    typealias EffectReply = VaultReply
    static let secretReplyMembers: Set<String> = ["apiKey"]

    enum Screen: FlowScreen {
        case locked, open(owner: String), checked(right: Bool)
        enum CodingKeys: CodingKey, CaseIterable { case locked, open, checked }
    }
    enum Route: FlowRoute {
        case unlock(password: Secret), check, lock
        enum CodingKeys: CodingKey, CaseIterable { case unlock, check, lock }
    }
    enum Effect: FlowEffect {
        case unlock(password: Secret)
        enum CodingKeys: CodingKey, CaseIterable { case unlock }
    }

    func routes(on screen: Screen.Name) -> [Route.Name] { screen == .locked ? [.unlock, .lock] : [.check, .lock] }
    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.locked) }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .unlock(let password): flow.perform(.unlock(password: password))
        case .check: flow.push(.checked(right: flow.context.apiKey == SecretMemberTests.key))
        case .lock:
            flow.context.apiKey = ""
            flow.show(.locked)
        }
    }

    func complete(_ effect: Effect, with result: EffectResult<EffectReply>, _ flow: inout FlowContext<Self>) throws {
        guard case .success(let reply) = result, !reply.apiKey.isEmpty else { return }
        flow.context.apiKey = reply.apiKey
        flow.push(.open(owner: reply.owner.name))
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        switch screen {
        case .locked: ScreenContent(title: "Locked", components: [.text("Locked")])
        case .open(let owner): ScreenContent(title: "Open", components: [.text("\(owner)'s vault is open")])
        case .checked(let right): ScreenContent(title: "Checked", components: [.text(right ? "the key is right" : "the key is wrong")])
        }
    }
}

/// Declarations the application refuses: a secret that is not a member, a `Secret` member not
/// declared, a secret that is not a string, a secret variant.
enum Loose: AppSchema { typealias Context = LooseContext }

struct LooseContext: SessionContext {
    var variant = "A"
    var code = Secret("")
    var count = 0
    static let secretMembers: Set<String> = ["pin", "count", "variant"]
    static let variantKey: String? = "variant"
}

struct LooseFlow: Flow {
    typealias App = Loose
    enum Screen: FlowScreen {
        case home
        enum CodingKeys: CodingKey, CaseIterable { case home }
    }
    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.home) }
    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent { ScreenContent(title: "", components: []) }
}
