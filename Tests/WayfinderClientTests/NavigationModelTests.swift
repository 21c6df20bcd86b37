import Foundation
import Testing
import WayfinderClient

/// The observable navigation model against the live server: states applied in revision order
/// from actions and events, layers for stacks, tabs and modals, refusals kept for the UI.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct NavigationModelTests {
    /// A signed-in session on the dashboard.
    func signedIn(_ server: LiveServer) async throws -> WayfinderSession {
        try await WayfinderSession.create(
            on: server.url, context: ["onboarded": true], identity: TestIdentity.token("ada@example.com"), configuration: .fast)
    }

    @Test func theModelFollowsChangesMadeElsewhere() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let session = try await WayfinderSession.create(on: server.url, configuration: .fast)
        let model = NavigationModel(session: session, state: await session.state)
        var updates = model.updates().makeAsyncIterator()
        let following = Task { await model.follow() }
        defer { following.cancel() }

        // Another device of the same user pushes a page.
        let elsewhere = WayfinderSession(on: server.url, credentials: session.credentials)
        try await elsewhere.trigger("next")
        let update = try #require(await updates.next())
        #expect(update.state.revision == 2)
        #expect(update.transitions.isEmpty, "an event carries no transitions")
        #expect(model.state?.revision == 2)
        #expect(model.snapshot.base?.screens.count == 2)
        #expect(model.snapshot.base?.path.count == 1)
    }

    @Test func anActionsAnswerIsAppliedWithItsTransitionsAndAnOlderStateIsIgnored() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let session = try await WayfinderSession.create(on: server.url, configuration: .fast)
        let first = try #require(await session.state)
        let model = NavigationModel(session: session, state: first)
        let result = try #require(await model.trigger(RouteAction("next")))
        #expect(model.state == result.state)
        #expect(model.transitions.map(\.op) == [.push])
        #expect(model.actionsInFlight == 0)
        #expect(model.apply(first) == false, "a late, older state never rolls the screen back")
        #expect(model.state?.revision == 2)
    }

    @Test func aRefusalIsKeptAsTheModelsProblem() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let session = try await WayfinderSession.create(on: server.url, configuration: .fast)
        let model = NavigationModel(session: session, state: await session.state)
        #expect(await model.trigger(RouteAction("logout")) == nil)
        #expect(model.problem?.code == .routeUnavailable)
        #expect(model.problem?.availableRoutes == ["next", "skip"])
        #expect(model.state?.revision == 1)
        model.dismissProblem()
        #expect(model.problem == nil)
    }

    @Test func actingOnAnOutdatedScreenIsRefusedAndTheScreenRefreshed() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let session = try await WayfinderSession.create(on: server.url, configuration: .fast)
        let model = NavigationModel(session: session, state: await session.state)
        model.actsOnDisplayedRevision = true
        try await WayfinderSession(on: server.url, credentials: session.credentials).trigger("next")
        #expect(await model.trigger(RouteAction("next")) == nil)
        #expect(model.problem?.code == .revisionMismatch)
        #expect(model.state?.revision == 2, "refreshed to what is current")
        #expect(try await session.refresh().revision == 2, "the tap on the outdated screen changed nothing")
    }

    @Test func tabsModalsAndWhatTheUIAlreadyRemovedBecomeBackRequests() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let session = try await signedIn(server)
        let model = NavigationModel(session: session)
        await model.refresh()
        #expect(model.snapshot.tabBar?.selected == "home")
        await model.selectTab("todos")
        #expect(model.snapshot.tabBar?.selected == "todos")

        // A row pushed its detail; the UI popped it (a swipe): one back, naming the screen.
        let row = try #require(model.top?.rows.first)
        await model.select(row)
        #expect(model.snapshot.base?.path.count == 1)
        await model.userPopped(toScreenCount: 1)
        #expect(model.snapshot.base?.path.isEmpty == true)

        // A modal; the UI dismissed it (swiped down).
        await model.trigger(try #require(model.top?.button("addTodo")).action)
        let modal = try #require(model.snapshot.modals.first)
        #expect(model.snapshot.layers.count == 2)
        #expect(model.snapshot.tabBar != nil, "the tab bar stays under the modal")
        await model.userDismissed(modal.id)
        #expect(model.snapshot.modals.isEmpty)
        #expect(model.top?.name == "todoList")
        #expect(model.problem == nil)
    }

    @Test func followingEndsWhenTheSessionIsGone() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let session = try await WayfinderSession.create(on: server.url, configuration: .fast)
        let model = NavigationModel(session: session, state: await session.state)
        let following = Task { await model.follow() }
        try await WayfinderSession(on: server.url, credentials: session.credentials).end()
        await following.value
        #expect(model.sessionIsGone)
        #expect(model.problem?.code == .notFound)
    }
}
