import Foundation
import Testing
import WayfinderClient

/// The event stream as an `AsyncSequence` of states: current state first, each change after it,
/// resumed with `Last-Event-ID` when the connection drops or the server closes it.
@Suite(.timeLimit(.minutes(1))) struct SessionEventsTests {
    @Test func theStreamDeliversTheCurrentStateThenEachChange() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let session = try await WayfinderSession.create(on: server.url)
        var events = session.events().makeAsyncIterator()
        #expect(try await events.next()?.revision == 1)
        try await session.trigger("next")
        let second = try #require(try await events.next())
        #expect(second.revision == 2)
        #expect(second.names == ["walkthrough", "walkthrough"])
        // Since a revision the caller has: only newer states.
        var since = session.events(since: 2).makeAsyncIterator()
        try await session.trigger("next")
        #expect(try await since.next()?.revision == 3)
        #expect(try await events.next()?.revision == 3)
    }

    @Test func aDroppedConnectionResumesWithLastEventIDAndMissesNothing() async throws {
        let setup = try await Proxied.start()
        defer { setup.stop() }
        let (proxy, direct, session) = (setup.proxy, setup.direct, setup.session)
        var events = session.events().makeAsyncIterator()
        #expect(try await events.next()?.revision == 1)

        // Cut while a change happens: the change arrives after the reconnection.
        proxy.cut(where: isEvents)
        try await direct.trigger("next")
        #expect(try await events.next()?.revision == 2)
        let streams = proxy.requests.filter(isEvents)
        #expect(streams.count == 2)
        #expect(header("Last-Event-ID", in: streams[0]) == nil)
        #expect(header("Last-Event-ID", in: streams[1]) == "1")

        // Cut with nothing new: the reconnection names revision 2, which is not sent again.
        proxy.cut(where: isEvents)
        #expect(proxy.waitForRequests(3, matching: isEvents))
        #expect(header("Last-Event-ID", in: try #require(proxy.requests.filter(isEvents).last)) == "2")
        try await direct.trigger("next")
        #expect(try await events.next()?.revision == 3)
    }

    @Test func aStreamTheServerClosedResumesOnTheServerThatTookOver() async throws {
        let setup = try await Proxied.start()
        defer { setup.proxy.stop() }
        let (first, proxy, direct, session) = (setup.server, setup.proxy, setup.direct, setup.session)
        var events = session.events().makeAsyncIterator()
        #expect(try await events.next()?.revision == 1)

        // A deploy: the first server shuts down (ending its streams), a second one serves the
        // same sessions.
        first.stop()
        let second = try LiveServer(store: first.store)
        defer { second.stop() }
        proxy.retarget(to: second.port)
        let moved = WayfinderSession(on: second.url, credentials: direct.credentials)
        try await moved.trigger("next")
        #expect(try await events.next()?.revision == 2)
        #expect(header("Last-Event-ID", in: try #require(proxy.requests.filter(isEvents).last)) == "1")
    }

    @Test func theStreamEndsWithNotFoundWhenTheSessionEnds() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let session = try await WayfinderSession.create(on: server.url, configuration: .fast)
        var events = session.events().makeAsyncIterator()
        #expect(try await events.next()?.revision == 1)
        try await session.end()
        do {
            let next = try await events.next()
            Issue.record("a state after the end: \(String(describing: next))")
        } catch {
            #expect(error.sessionIsGone)
        }
    }

    @Test func aSilentStreamCountsAsDroppedAndReconnects() async throws {
        var configuration = ClientConfiguration.fast
        configuration.eventIdleTimeout = 0.3
        let setup = try await Proxied.start(server: try LiveServer(api: { $0.heartbeatSeconds = 600 }), configuration: configuration)
        defer { setup.stop() }
        let (proxy, direct, session) = (setup.proxy, setup.direct, setup.session)
        var events = session.events().makeAsyncIterator()
        #expect(try await events.next()?.revision == 1)
        #expect(proxy.waitForRequests(2, matching: isEvents))
        try await direct.trigger("next")
        #expect(try await events.next()?.revision == 2)
    }

    @Test func cancellingTheConsumerEndsTheServersStream() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let session = try await WayfinderSession.create(on: server.url)
        let id = session.credentials.id
        let received = AsyncStream.makeStream(of: Int.self)
        let consumer = Task {
            for try await state in session.events() { received.continuation.yield(state.revision) }
        }
        var revisions = received.stream.makeAsyncIterator()
        #expect(await revisions.next() == 1)
        #expect(server.store.changes.subscriberCount(id) == 1)
        consumer.cancel()
        try await consumer.value  // the sequence ends (nil) for a cancelled consumer
        #expect(await eventually { server.store.changes.subscriberCount(id) == 0 })
    }
}
