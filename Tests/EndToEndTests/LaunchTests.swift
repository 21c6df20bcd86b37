import Testing
import WayfinderCore

/// Creating sessions reuses the first state of an earlier launch with the same context and link
/// (the engine is pure); every new session must still be its own.
@Suite struct LaunchTests {
    @Test func sessionsStartedAlikeAreEachTheirOwn() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let body = #"{"context":{"onboarded":true,"authenticated":true,"user":"a@b.c"}}"#
        let a = try c.createSession(body), b = try c.createSession(body)
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
    private struct WelcomeFlow: Flow {
        let name = "welcome"
        let screens = ["hello"]
        let routes: [RouteSpec] = []
        func start(_ context: inout FlowContext, option: JSONValue) throws {
            context.data = .string(context.state.session)
            context.show("hello")
        }
        func render(_ screen: ScreenInstance, _ context: FlowContext) -> ScreenContent {
            ScreenContent(title: "Hello", components: [.text(context.data.stringValue ?? "")])
        }
    }

    private struct AppFlow: Flow {
        let name = "app"
        let isContainer = true
        let routes: [RouteSpec] = []
        func start(_ context: inout FlowContext, option: JSONValue) throws {
            try context.startChild("welcome", placement: .root)
        }
    }

    @Test func aLaunchThatDependsOnTheSessionIdIsNeverShared() throws {
        let engine = Engine(Application(scheme: "welcome", root: AppFlow(), flows: [WelcomeFlow()], deepLinks: []))
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
