import Foundation
import TallyApp
import Testing
import WayfinderClient
import WayfinderCore
import WayfinderLiveTesting
import WayfinderServer
import WayfinderTesting

/// The app served in this process on a free port.
func served() throws -> RunningServer {
    try Server(Tally.makeApplication).start(arguments: ["--host", "127.0.0.1", "--store", "memory", "--port", "0", "--log-level", "error"])
}

/// Driven through libcurl as a thin client drives it.
@Test func aLiveSessionAddsThroughTheServer() throws {
    let server = try served()
    defer { server.stop() }
    let session = try LiveSession(baseURL: "http://127.0.0.1:\(server.port)")
    #expect(session.stack == ["total"])
    try session.send(CountingFlow.Route.add(amount: 3))
    #expect(session.stack == ["total", "total"])
    #expect(session.topScreen?["title"]?.stringValue == "Total 3")
}

/// Every product imported at once, and every type below named without its module: the engine's
/// (`SessionState`, `Component`, `Presentation`, `JSONValue`), the testing library's
/// (`NavigationSnapshot`) and the client's (`WireState`, `WireComponent`, `WirePresentation`,
/// `WireContext`, `WireValue`, `NavigationLayers`, `ServerEndpoint`) see the same session.
@Test func theEngineAndTheClientNamesDoNotCollide() async throws {
    let test = try TestSession(Tally.makeApplication())
    let engineState: SessionState = test.state
    let snapshot: NavigationSnapshot = test.snapshot
    let engineTop = try #require(test.topScreen)
    let engineComponents: [Component] = engineTop.components
    let enginePresentation: Presentation = engineTop.presentation
    let engineContext: JSONValue = .object(engineState.context)

    let server = try served()
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
    #expect(try await ServerEndpoint(url: url).isReady())
    let session = try await WayfinderSession.create(on: url)
    let wireState: WireState = try #require(await session.state)
    let wireTop = try #require(wireState.top)
    let wireComponents: [WireComponent] = wireTop.components
    let wirePresentation: WirePresentation = wireTop.presentation
    let wireContext: WireContext = wireState.context

    #expect(wireTop.name == engineTop.name)
    #expect(wireTop.title == engineTop.title)
    #expect(snapshot.stack.count == wireState.stack.count)
    #expect(NavigationLayers(wireState).top?.name == engineTop.name)
    #expect(wireComponents.count == engineComponents.count)
    #expect(wirePresentation.rawValue == enginePresentation.rawValue)
    #expect(wireContext.values.isEmpty && engineContext == .object([:]))
    #expect(wireComponents.first == WireComponent.heading("0"))
    #expect(wireContext["missing"] == nil as WireValue?)
}
