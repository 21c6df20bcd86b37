@testable import DemoApp
import Testing
import WayfinderCore
import WayfinderServer
import WayfinderLiveTesting

/// The server library as a team uses it: `Server(makeApplication)` started in-process on a free
/// port, driven through libcurl by the testing library's `LiveSession`.
@Suite struct ServerLibraryTests {
    private let arguments = ["--port", "0", "--store", "memory", "--log-level", "error", "--threads", "1"]

    @Test func aServedAppAnswersThroughLibcurl() throws {
        let server = try Server(DemoApp.makeApplication, services: { _ in try DemoServices(users: .testAccounts()).effects }).start(arguments: arguments)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let session = try LiveSession(baseURL: base, context: ["onboarded": true])
        #expect(session.stack == ["login"])
        #expect(throws: LiveSession.Problem.self) { try session.send(TodosFlow.Route.addTodo) }
        try session.send(AuthFlow.Route.login(email: "ada@example.com", password: "password1"))
        #expect(session.stack == ["dashboard"])
        #expect(session.transitions.first?["op"] == "setRoot")
        try session.selectTab("todos")
        try session.open(url: "wayfinder://todos/2")
        #expect(session.stack == ["todoList", "todoDetail"])
        try session.back()
        try session.refresh()
        #expect(session.stack == ["todoList"])
        try session.delete()
        #expect { try session.refresh() } throws: { ($0 as? LiveSession.Problem)?.status == 404 }
    }

    @Test func badSettingsAndABrokenAppStopTheStartWithTheirReason() throws {
        #expect { try Server(DemoApp.makeApplication).start(arguments: ["--port", "70000"]) } throws: { error in
            "\(error)" == "invalid --port '70000': must be an integer from 0 to 65535"
        }
        #expect { try Server(DemoApp.makeApplication).start(arguments: arguments) } throws: { error in
            "\(error)" == "no service is registered for the effects of auth, changePassword, profile"
        }
        #expect { try Server(BrokenApp.make).start(arguments: arguments) } throws: { error in
            "\(error)".contains("deep link 'broken://nowhere' is opened by no flow")
        }
    }
}

private enum Broken: AppSchema {
    typealias Link = BrokenLink
}

private enum BrokenLink: DeepLinkDestination {
    case nowhere
    enum CodingKeys: CodingKey, CaseIterable { case nowhere }
}

private struct BrokenApp: Flow {
    typealias App = Broken
    func start(_ flow: inout FlowContext<Self>) throws {}
    static func make() throws -> Application { try Application(scheme: "broken", root: BrokenApp(), flows: []) }
}
