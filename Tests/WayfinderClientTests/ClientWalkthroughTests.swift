import Foundation
import Testing
import WayfinderClient

/// The sample app from launch to logout through the client library, against the live server:
/// every state decodes exactly, every transition is the one the contract describes.
@Suite(.timeLimit(.minutes(1))) struct ClientWalkthroughTests {
    @Test func aUserGoesFromOnboardingThroughTodosToLogout() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let session = try await WayfinderSession.create(on: server.url)
        var state = try #require(await session.state)
        #expect(state.revision == 1)
        #expect(state.names == ["walkthrough"])
        #expect(state.top?.components.map(\.type) == ["image", "heading", "text", "text", "button", "button"])
        try await expectExact(session)

        // Onboarding: a page pushed and popped, then skipped (auth takes the root).
        var result = try await session.trigger("next")
        #expect(result.transitions.map(\.op) == [.push])
        #expect(result.state.names == ["walkthrough", "walkthrough"])
        #expect(NavigationLayers(result.state).base?.path.count == 1)
        let top = try #require(result.state.top)
        result = try await session.back(from: top.id)
        #expect(result.transitions == [ScreenTransition(.pop, screens: [top.id])])
        result = try await session.trigger("skip")
        #expect(result.transitions.map(\.op) == [.setRoot])
        state = result.state
        #expect(state.names == ["login"])
        try await expectExact(session)

        // A password the user can fix: the screen is updated with a notice.
        let login = try #require(state.top)
        var form = login.formValues
        form["email"] = "ada@example.com"
        form["password"] = "short"
        result = try await session.trigger(form.action(for: try #require(login.button("login"))))
        #expect(result.transitions.map(\.op) == [.update])
        #expect(result.transitions.first?.screens == [login.id])
        let notices = result.state.top?.components.compactMap { if case .notice(let notice) = $0 { notice } else { nil } }
        #expect(notices?.map(\.style) == [.error])
        try await expectExact(session)

        // Signed in: the tabs take the root.
        form["password"] = "correct horse battery"
        result = try await session.trigger(form.action(for: try #require(login.button("login"))))
        #expect(result.transitions.map(\.op) == [.setRoot])
        state = result.state
        #expect(state.context.authenticated == true)
        #expect(state.context.user == "ada@example.com")
        let tabs = try #require(NavigationLayers(state).tabBar)
        #expect(tabs.items.map(\.id) == ["home", "todos", "profile"])
        #expect(tabs.selected == "home")
        try await expectExact(session)

        // A to-do added in a modal over the todos tab.
        result = try await session.selectTab("todos")
        #expect(result.transitions.map(\.op) == [.selectTab])
        #expect(result.transitions.first?.tab == "todos")
        result = try await session.trigger(try #require(result.state.top?.button("addTodo")).action)
        #expect(result.transitions.map(\.op) == [.present])
        var snapshot = NavigationLayers(result.state)
        #expect(snapshot.modals.count == 1)
        #expect(snapshot.modals.first?.presentation.isModal == true)
        #expect(snapshot.tabBar?.selected == "todos")
        try await expectExact(session)
        let add = try #require(result.state.top)
        var values = add.formValues
        values["title"] = "Buy bread"
        result = try await session.trigger(values.action(for: try #require(add.button("saveTodo"))))
        #expect(result.transitions.map(\.op) == [.dismiss])
        snapshot = NavigationLayers(result.state)
        #expect(snapshot.modals.isEmpty)
        let row = try #require(result.state.top?.rows.first { $0.title == "Buy bread" })

        // Its detail pushed; a back naming a screen that is not on top changes nothing.
        let list = try #require(result.state.top)
        result = try await session.trigger(row.action)
        #expect(result.transitions.map(\.op) == [.push])
        #expect(result.state.top?.title == "Buy bread")
        await #expect(throws: WayfinderError.self) { try await session.back(from: list.id) }
        do {
            try await session.back(from: list.id)
        } catch {
            #expect(error.code == .staleScreen)
        }
        result = try await session.back(from: try #require(result.state.top).id)
        #expect(result.transitions.map(\.op) == [.pop])

        // A deep link to the profile, then logout.
        result = try await session.openDeepLink("wayfinder://profile")
        #expect(result.state.top?.name == "profile")
        #expect(NavigationLayers(result.state).tabBar?.selected == "profile")
        try await expectExact(session)
        result = try await session.trigger(try #require(result.state.top?.button("logout")).action)
        #expect(result.transitions.map(\.op) == [.setRoot])
        #expect(result.state.names == ["login"])
        #expect(result.state.context.authenticated == false)

        // Reads: unchanged (304) and resumed from the credentials alone.
        let read = try await session.refresh()
        #expect(read == result.state)
        let resumed = try await WayfinderSession.resume(on: server.url, credentials: session.credentials)
        #expect(await resumed.state == result.state)

        // The end: the session is gone for every client, and ending it again is fine.
        try await session.end()
        do {
            try await resumed.refresh()
            Issue.record("a read after the end succeeded")
        } catch {
            #expect(error.sessionIsGone)
        }
        try await session.end()
    }

    @Test func theCatalogAndTheHealthChecksDecode() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let client = ServerEndpoint(url: server.url)
        let catalog = try await client.catalog()
        #expect(catalog.flows.contains { $0.name == "app" })
        #expect(catalog.flows.flatMap(\.routes).contains { $0.params.contains { $0.required } })
        #expect(!catalog.deepLinks.isEmpty)
        #expect(try await client.isAlive())
        #expect(try await client.isReady())
        server.store.fail(.unavailable)
        #expect(try await client.isReady() == false)
    }

    @Test func aDeepLinkIntoMainIsKeptPendingUntilSignIn() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let session = try await WayfinderSession.create(on: server.url, context: ["onboarded": true], deepLink: "wayfinder://todos")
        let state = try #require(await session.state)
        #expect(state.pendingDeepLink == "wayfinder://todos")
        #expect(state.context.onboarded == true)
        try await expectExact(session)
    }

    /// The state as the server sends it round-trips through the models unchanged.
    /// Shape 1 round-trips exactly (the model encodes shape 1), and shape 2, what the client
    /// asks for, decodes to the same state.
    private func expectExact(_ session: WayfinderSession, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let full = try await Wire.raw(session, shape: 1)
        try Wire.roundTrips(WireState.self, full, sourceLocation: sourceLocation)
        let ids = try await Wire.raw(session)
        #expect(ids.count < full.count, sourceLocation: sourceLocation)
        #expect(
            try JSONDecoder().decode(WireState.self, from: ids) == JSONDecoder().decode(WireState.self, from: full),
            sourceLocation: sourceLocation)
    }
}
