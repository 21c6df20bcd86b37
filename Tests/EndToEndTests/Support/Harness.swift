import DemoApp
import Foundation
import Testing
import WayfinderAPI
import WayfinderCore
import WayfinderHTTP
import WayfinderStore
import WayfinderLiveTesting

extension UserStore {
    /// The accounts the tests sign in with: `password1` but for the journal's walkthrough.
    static func testAccounts(mailer: Mailer = Mailer()) throws -> UserStore {
        let accounts = ["a@b.c", "b@b.c", "ada@example.com", "slow@b.c"].map { ($0, "password1") } + [("walk@b.c", "Pw-Walk-Through-1")]
        return try inMemory(accounts: Dictionary(uniqueKeysWithValues: accounts), mailer: mailer)
    }
}

/// Writes the sample app's accounts file in `folder` (a SQLite store's) with `ada@example.com`,
/// password `password1`: an account the real binary starts with.
func seedDemoAccount(in folder: String) throws {
    let line = #"{"email":"ada@example.com","name":"Ada","hash":"$y$j9T$hK9H4XJLW1kiZCdZ3dWP3.$rJzkZvJ0Yn2M0PPTSTzbhL97ncExS9ZPstaZC5QHcmB"}"#
    try (line + "\n").write(toFile: folder + "/demo-users.jsonl", atomically: true, encoding: .utf8)
}

/// The six-digit code in the newest message of a sample app's mail file (sign-up, reset, unlock).
func mailedCode(in path: String) -> String? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8), let last = text.split(separator: "\n").last else { return nil }
    return last.split(whereSeparator: { !$0.isNumber }).first { $0.count == 6 }.map(String.init)
}

/// One answer, with its body parsed as JSON when it is JSON.
struct Reply: CustomStringConvertible {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    init(_ response: CurlClient.Response) {
        status = response.status
        headers = response.headers
        body = response.body
    }

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: J { J(bytes: body) }
    /// `code` of a problem body.
    var code: String? { json["code"].string }
    /// The state of a state or action answer.
    var state: J { json["state"].exists ? json["state"] : json }
    var contentType: String? { header("Content-Type") }

    var description: String { "\(status) \(headers.map { "\($0.name): \($0.value)" }.joined(separator: "; ")) \(text.prefix(600))" }
}

/// A session as created: its id, token and the creation answer.
struct Session {
    var id: String
    var token: String
    var created: Reply
    var path: String { "/v1/sessions/\(id)" }
    var auth: (String, String) { ("Authorization", "Bearer \(token)") }
}

/// Talks to one server through libcurl (one `CurlClient`, so not for sharing between threads).
final class Client {
    let base: String
    let curl: CurlClient

    init(port: Int, timeoutMilliseconds: Int = 15_000) {
        base = "http://127.0.0.1:\(port)"
        curl = CurlClient(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Any request; `json` is sent as `application/json` unless `headers` names another type.
    func call(
        _ method: String, _ path: String, token: String? = nil, json: String? = nil,
        headers: [(String, String)] = []
    ) throws -> Reply {
        var all = headers
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        if json != nil, !all.contains(where: { $0.0.lowercased() == "content-type" }) {
            all.append(("Content-Type", "application/json"))
        }
        let response: CurlClient.Response
        if let json {
            response = try curl.request(method, base + path, headers: all, body: Array(json.utf8))
        } else {
            response = try curl.request(method, base + path, headers: all)
        }
        return Reply(response)
    }

    /// A new session; `identity` is the bearer JWT of the user it is for (nil: nobody).
    func createSession(_ body: String = "{}", identity: String? = nil, headers: [(String, String)] = []) throws -> Session {
        let reply = try call("POST", "/v1/sessions", token: identity, json: body, headers: headers)
        try #require(reply.status == 201, "create: \(reply)")
        let id = try #require(reply.json["id"].string)
        let token = try #require(reply.json["token"].string)
        return Session(id: id, token: token, created: reply)
    }

    /// A session that starts signed in (a verified JWT of `a@b.c`), on the dashboard.
    func signedInSession(platform: String = "phone", subject: String = "user-a", email: String = "a@b.c") throws -> Session {
        try createSession(
            jsonText(["context": ["onboarded": true, "platform": platform]]),
            identity: TestIdentity.token(subject: subject, email: email))
    }

    func get(_ s: Session, headers: [(String, String)] = []) throws -> Reply {
        try call("GET", s.path, token: s.token, headers: headers)
    }

    func route(_ s: Session, _ name: String, _ params: [String: Any]? = nil, headers: [(String, String)] = []) throws -> Reply {
        var body: [String: Any] = ["route": name]
        if let params { body["params"] = params }
        return try call("POST", s.path + "/routes", token: s.token, json: jsonText(body), headers: headers)
    }

    func tab(_ s: Session, _ tab: String, headers: [(String, String)] = []) throws -> Reply {
        try call("POST", s.path + "/tab", token: s.token, json: jsonText(["tab": tab]), headers: headers)
    }

    func back(_ s: Session, screen: String? = nil, headers: [(String, String)] = []) throws -> Reply {
        try call("POST", s.path + "/back", token: s.token, json: screen.map { jsonText(["screen": $0]) } ?? "{}", headers: headers)
    }

    func deepLink(_ s: Session, _ url: String, headers: [(String, String)] = []) throws -> Reply {
        try call("POST", s.path + "/deeplinks", token: s.token, json: jsonText(["url": url]), headers: headers)
    }

    /// `wayfinder_sessions_active` from `/metrics`.
    func activeSessions() throws -> Int? {
        let metrics = try call("GET", "/metrics")
        for line in metrics.text.split(separator: "\n") where line.hasPrefix("wayfinder_sessions_active ") {
            return Int(line.split(separator: " ").last ?? "")
        }
        return nil
    }
}

/// The API and HTTP server in this process, on an ephemeral port.
final class InProcessServer {
    let api: WayfinderAPI
    let server: HTTPServer
    let port: Int
    /// The sample app's mail, where its codes go (unless the test gave services of its own).
    let mailer = Mailer()
    private var stopped = false

    enum StoreKind {
        /// The memory store; a Redis (`redis://…` or `redis+cluster://…`) when the environment
        /// names one in `WAYFINDER_E2E_REDIS`, so the suite runs again against it.
        case memory
        case sqlite
        /// This store (its own configuration applies; `ttlMillis` still sets the API's).
        case given(any SessionStore)
    }

    init(
        store kind: StoreKind = .memory, ttlMillis: Int64 = StoreConfiguration.day, engine: Engine = demoEngine,
        services: EffectServices? = nil, configure: (inout APIConfiguration) -> Void = { _ in }
    ) throws {
        let storeConfiguration = StoreConfiguration(ttlMillis: ttlMillis)
        let store: any SessionStore
        switch kind {
        case .memory:
            if let url = Self.redisURL {
                // Keys of their own per server: counts and limits see this server's sessions only.
                store = try RedisStore(url: url, configuration: storeConfiguration, keyPrefix: "e2e-\(UUID().uuidString):")
            } else {
                store = MemoryStore(configuration: storeConfiguration)
            }
        case .sqlite:
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-e2e-\(UUID().uuidString)")
            store = try SQLiteStore(path: dir.appendingPathComponent("s.sqlite").path, configuration: storeConfiguration)
        case .given(let given):
            store = given
        }
        var configuration = APIConfiguration()
        configuration.sessionTTLMillis = ttlMillis
        configuration.publicDirectory = Self.packageRoot + "/Public"
        configuration.openAPIDocument = Array(FileManager.default.contents(atPath: Self.packageRoot + "/openapi.yaml") ?? Data())
        configuration.createRatePerSecond = nil  // the tests create sessions in bursts from one address
        configuration.authenticator = TestIdentity.authenticator
        configuration.operatorKey = TestIdentity.operatorKey
        configure(&configuration)
        // The sample app's accounts, in memory, one store per server.
        let services = try services ?? DemoServices(users: .testAccounts(mailer: mailer)).effects
        api = WayfinderAPI(engine: engine, store: store, configuration: configuration, logger: Logger(level: .error), services: services)
        server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2), handler: api)
        try server.start()
        api.start()
        port = server.boundPort
        // On Redis the server is ready once its change subscription is up (what `/readyz` waits
        // for, as a deploy does); the tests start from a ready server.
        if let redis = store as? RedisStore, !eventually(within: 15, { redis.isReceivingChanges }) {
            stop()
            throw StoreError.unavailable("redis: the change subscription did not come up within 15 s")
        }
    }

    func client(timeoutMilliseconds: Int = 15_000) -> Client { Client(port: port, timeoutMilliseconds: timeoutMilliseconds) }

    func stop() {
        guard !stopped else { return }
        stopped = true
        api.shutdown()
        server.shutdown()
        server.waitUntilStopped()
    }

    deinit { stop() }

    /// The Redis the suite runs against instead of the memory store (scripts/test sets it).
    static let redisURL: String? = ProcessInfo.processInfo.environment["WAYFINDER_E2E_REDIS"].flatMap { $0.isEmpty ? nil : $0 }

    /// The package root (this file is Tests/EndToEndTests/Support/Harness.swift).
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()
}

/// Waits until `condition` holds, checking every `interval`, for at most `seconds`.
func eventually(within seconds: Double, interval: Double = 0.05, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: interval)
    }
    return try condition()
}

/// A transition as (op, screens, tab).
struct T: Equatable, CustomStringConvertible {
    var op: String
    var screens: [String]
    var tab: String?
    var description: String { "\(op)\(screens)\(tab.map { " tab:\($0)" } ?? "")" }
}

extension J {
    var transitions: [T] {
        self["transitions"].array.map { T(op: $0["op"].string ?? "?", screens: $0["screens"].array.compactMap(\.string), tab: $0["tab"].string) }
    }
}

/// The sample app's engine, built once for every test.
let demoEngine: Engine = {
    do { return Engine(try DemoApp.makeApplication()) } catch { fatalError("the sample app does not build: \(error)") }
}()
