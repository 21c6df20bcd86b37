import Foundation
import Testing
import WayfinderCore
import WayfinderTesting

/// Time as input (issue 42, point 3): each action carries the server's clock when its request
/// arrived, flows read it as `flow.now`, the journal records it, and a replay decides the same.
@Suite struct TimeTests {
    @Test func aTestSetsAndAdvancesTheClock() throws {
        let app = try Application(scheme: "clock", root: ClockFlow(), flows: [])
        var session = try TestSession(app, now: Timestamp(millisecondsSince1970: 1_000))
        try session.send(ClockFlow.Route.stamp) {
            $0.stack = ["home", "stamped"]
            $0.navigation = "[home, stamped]"
            $0.transitions = ["push stamped"]
        }
        #expect(session.state.coordinators.data["stamps"] == [1_000])
        session.advance(by: .seconds(300))
        #expect(session.now == Timestamp(millisecondsSince1970: 301_000))
        try session.send(ClockFlow.Route.stamp) {
            $0.stack = ["home", "stamped", "stamped"]
            $0.navigation = "[home, stamped, stamped]"
            $0.transitions = ["push stamped"]
        }
        #expect(session.state.coordinators.data["stamps"] == [1_000, 301_000])
        #expect(TestSession.defaultStart == Timestamp(millisecondsSince1970: 1_767_225_600_000))
    }

    @Test func theServerGivesItsClockAndTheJournalKeepsIt() throws {
        let engine = Engine(try Application(scheme: "clock", root: ClockFlow(), flows: []))
        let server = try InProcessServer(engine: engine, services: EffectServices())
        defer { server.stop() }
        let c = server.client()
        let before = Int(Date().timeIntervalSince1970 * 1000)
        let s = try c.createSession()
        let stamped = try c.route(s, "stamp")
        let after = Int(Date().timeIntervalSince1970 * 1000)
        let text = try #require(stamped.json["state"].top["components"][0]["text"].string)
        let stamp = try #require(Int(text.split(separator: " ").last ?? ""), "\(text)")
        #expect(stamp >= before && stamp <= after, "\(stamp) not in [\(before), \(after)]")

        let history = try c.call("GET", s.path + "/history", token: s.token)
        #expect(history.json["entries"].array.last?["time"].int == stamp, "the entry's time is the flow's now")
        // A bundle replays exactly: the replay hands the flow the journaled time.
        let bundle = try c.call("GET", s.path + "/history?format=bundle", token: s.token)
        let report = Replay(engine).run(try ReplayBundle(bytes: bundle.body))
        #expect(report.divergence == nil, "\(report)")
        #expect(report.steps.map(\.verdict) == [.ok, .ok])
    }
}

/// Stamps the time of each `stamp` into its data.
struct ClockFlow: Flow {
    typealias App = ClockApp
    struct Data: FlowData {
        var stamps: [Int64] = []
    }
    enum Screen: FlowScreen {
        case home, stamped
        enum CodingKeys: CodingKey, CaseIterable { case home, stamped }
    }
    enum Route: FlowRoute {
        case stamp
        enum CodingKeys: CodingKey, CaseIterable { case stamp }
    }
    func routes(on screen: Screen.Name) -> [Route.Name] { [.stamp] }
    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.home) }
    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        flow.data.stamps.append(flow.now.millisecondsSince1970)
        flow.push(.stamped)
    }
    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        ScreenContent(title: "Clock", components: [.text("stamped at \(flow.data.stamps.last ?? 0)")])
    }
}

enum ClockApp: AppSchema {}
