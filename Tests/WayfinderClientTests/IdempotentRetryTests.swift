import Foundation
import Testing
import WayfinderClient

/// Retries after a network failure: a change is sent again with the same `Idempotency-Key`, so
/// the server applies it once and answers the retry with its first answer.
@Suite(.timeLimit(.minutes(1))) struct IdempotentRetryTests {
    @Test func aChangeWhoseAnswerWasLostIsRetriedAndAppliedOnce() async throws {
        let setup = try await Proxied.start()
        defer { setup.stop() }
        let (proxy, direct, session) = (setup.proxy, setup.direct, setup.session)
        let isTrigger: @Sendable (String) -> Bool = { $0.hasPrefix("POST ") && $0.contains("/routes ") }
        proxy.on(isTrigger, .loseAnswer)

        let result = try await session.trigger("next")

        #expect(result.replayed, "the retry's answer is the server's stored first answer")
        #expect(result.state.revision == 2)
        #expect(result.state.names == ["walkthrough", "walkthrough"])
        let attempts = proxy.requests.filter(isTrigger)
        #expect(attempts.count == 2)
        let keys = attempts.map { header("Idempotency-Key", in: $0) }
        #expect(keys[0] != nil && keys[0] == keys[1], "\(keys)")
        let now = try await direct.refresh()
        #expect(now.revision == 2, "applied once")
        #expect(now.names == ["walkthrough", "walkthrough"])
        // The next change gets a key of its own.
        let next = try await session.trigger("next")
        #expect(!next.replayed)
        #expect(next.state.revision == 3)
        #expect(header("Idempotency-Key", in: try #require(proxy.requests.last)) != keys[0])
    }

    @Test func creatingASessionIsNotSentTwiceAfterALostAnswer() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let proxy = try TCPProxy(to: server.port)
        defer { proxy.stop() }
        let isCreate: @Sendable (String) -> Bool = { $0.hasPrefix("POST /v1/sessions ") }
        proxy.on(isCreate, .loseAnswer)
        do {
            _ = try await WayfinderSession.create(on: proxy.url, configuration: .fast)
            Issue.record("created without an answer")
        } catch {
            guard case .transport = error else { return #expect(Bool(false), "\(error)") }
        }
        #expect(proxy.requests.filter(isCreate).count == 1, "the server does not deduplicate creations")
    }

    @Test func anUnavailableStoreIsRetriedAndTheChangeAppliedOnce() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let session = try await WayfinderSession.create(on: server.url, configuration: .fast)
        server.store.fail(.unavailable, count: 2)
        let result = try await session.trigger("next")
        #expect(result.state.revision == 2)
        #expect(!result.replayed, "nothing was applied before")
        #expect(try await session.refresh().revision == 2)
    }

    @Test func noAnswerAfterEveryAttemptIsATransportFailure() async throws {
        let server = try LiveServer()
        let direct = try await WayfinderSession.create(on: server.url)
        let proxy = try TCPProxy(to: server.port)
        defer { proxy.stop() }
        server.stop()  // the proxy accepts, the server is gone: every answer is lost
        let session = WayfinderSession(on: proxy.url, credentials: direct.credentials, configuration: .fast)
        do {
            try await session.trigger("next")
            Issue.record("a change succeeded without a server")
        } catch {
            guard case .transport(let failure) = error else { return #expect(Bool(false), "\(error)") }
            #expect(!failure.message.isEmpty)
        }
        #expect(proxy.requests.count == 3, "three attempts, as configured")
        let keys = Set(proxy.requests.map { header("Idempotency-Key", in: $0) })
        #expect(keys.count == 1, "one key for every attempt")
    }
}
