import Testing
import WayfinderCore

/// Creating sessions reuses the first state of an earlier launch with the same context and link
/// (the engine is pure); every new session must still be its own.
@Suite struct LaunchTests {
    @Test func sessionsStartedAlikeAreEachTheirOwn() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let body = #"{"context":{"onboarded":true}}"#
        let a = try c.createSession(body, identity: TestIdentity.token(subject: "user-a", email: "a@b.c"))
        let b = try c.createSession(body, identity: TestIdentity.token(subject: "user-a", email: "a@b.c"))
        #expect(a.id != b.id)
        #expect(a.created.state["session"].string == a.id)
        #expect(b.created.state["session"].string == b.id)
        // Same screens, and a change to one leaves the other alone.
        #expect(a.created.state["stack"].canonical == b.created.state["stack"].canonical)
        let changed = try c.call("POST", "/v1/sessions/\(a.id)/tab", token: a.token, json: #"{"tab":"todos"}"#)
        #expect(changed.status == 200)
        #expect(changed.json["state"]["revision"].int == 2)
        let other = try c.call("GET", "/v1/sessions/\(b.id)", token: b.token)
        #expect(other.json["revision"].int == 1)
        #expect(other.json["session"].string == b.id)
        #expect(other.json["stack"].canonical == b.created.state["stack"].canonical)
        // A different context starts differently.
        let phone = try c.createSession(#"{"context":{"platform":"web"}}"#)
        #expect(phone.created.state["context"]["platform"].string == "web")
    }

    /// A flow that copies the session id into what it renders: its launches differ by id, so they
    /// must not be shared between sessions.
    private enum Welcome: AppSchema {}

    private struct WelcomeFlow: Flow {
        typealias App = Welcome
        struct Data: FlowData { var session = "" }
        enum Screen: FlowScreen {
            case hello
            enum CodingKeys: CodingKey, CaseIterable { case hello }
        }
        func start(_ flow: inout FlowContext<Self>) throws {
            flow.data.session = flow.state.session
            flow.show(.hello)
        }
        func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
            ScreenContent(title: "Hello", components: [.text(flow.data.session)])
        }
    }

    private struct AppFlow: Flow {
        typealias App = Welcome
        let children: [any Flow.Type] = [WelcomeFlow.self]
        func start(_ flow: inout FlowContext<Self>) throws {
            try flow.startChild(WelcomeFlow.self, placement: .root)
        }
    }

    @Test func aLaunchThatDependsOnTheSessionIdIsNeverShared() throws {
        let engine = Engine(try Application(scheme: "welcome", root: AppFlow(), flows: [WelcomeFlow()]))
        let server = try InProcessServer(engine: engine)
        defer { server.stop() }
        let c = server.client()
        for _ in 0..<3 {
            let s = try c.createSession()
            #expect(s.created.state["stack"][0]["components"][0]["text"].string == s.id)
            let read = try c.call("GET", "/v1/sessions/\(s.id)", token: s.token)
            #expect(read.json["stack"][0]["components"][0]["text"].string == s.id)
        }
    }
}
