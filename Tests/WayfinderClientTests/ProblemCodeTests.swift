import Foundation
import Testing
import WayfinderCore
import WayfinderStore

@testable import WayfinderClient

/// Every problem code of the contract, provoked on the live server and decoded by the client
/// into ``WayfinderError/problem(_:)`` with its status and the members and headers that go with
/// it. The codes no well-behaved client can cause come from a proxy that mangles the request
/// (HTTP-layer errors) or from a store switched to failing (`internal`, `service_unavailable`).
@Suite(.timeLimit(.minutes(1))) struct ProblemCodeTests {
    /// Proves the user its `X-Test-User` header names.
    struct HeaderAuthenticator: Authenticator {
        func authenticate(_ request: AuthenticationRequest) -> Authentication {
            request.header("X-Test-User").map { .verified(Identity(subject: $0, issuer: "tests")) } ?? .none
        }
    }

    @Test func everyProblemCodeOfTheContractIsDecoded() async throws {
        let server = try LiveServer(http: { $0.headerTimeout = .milliseconds(300) })
        defer { server.stop() }
        let proxy = try TCPProxy(to: server.port)
        defer { proxy.stop() }
        var once = ClientConfiguration()
        once.retry = RetryPolicy(maxAttempts: 1)
        let session = try await WayfinderSession.create(on: server.url, configuration: once)
        let credentials = session.credentials
        let proxied = WayfinderSession(on: proxy.url, credentials: credentials, configuration: once)
        func other(id: String = credentials.id, token: String = credentials.token) -> WayfinderSession {
            WayfinderSession(on: server.url, credentials: SessionCredentials(id: id, token: token), configuration: once)
        }
        let raw = Transport(server: server.url, configuration: once)
        let auth = ["Authorization": "Bearer \(credentials.token)"]
        var seen: [ProblemCode] = []
        func expect(
            _ code: ProblemCode, _ status: Int, sourceLocation: SourceLocation = #_sourceLocation,
            _ call: () async throws -> Void
        ) async -> Problem? {
            do {
                try await call()
                Issue.record("\(code): the call succeeded", sourceLocation: sourceLocation)
                return nil
            } catch {
                let problem = (error as? WayfinderError)?.problem
                #expect(problem?.code == code, "\(error)", sourceLocation: sourceLocation)
                #expect(problem?.status == status, "\(error)", sourceLocation: sourceLocation)
                #expect(problem?.title.isEmpty == false, sourceLocation: sourceLocation)
                if problem?.code == code { seen.append(code) }
                return problem
            }
        }

        // What a client may do wrong through the library's own calls.
        _ = await expect(.unauthorized, 401) { try await other(token: "two words").refresh() }
        let notFound = await expect(.notFound, 404) { try await other(token: String(repeating: "A", count: 43)).refresh() }
        #expect(notFound?.instance == nil)
        _ = await expect(.nothingToPop, 422) { try await session.back() }
        let unavailable = await expect(.routeUnavailable, 422) { try await session.trigger("logout") }
        #expect(unavailable?.availableRoutes == ["next", "skip"])
        let first = try #require(await session.state?.top)
        try await session.trigger("next", idempotencyKey: "key-1")
        _ = await expect(.idempotencyKeyReused, 422) { try await session.trigger("skip", idempotencyKey: "key-1") }
        _ = await expect(.idempotencyKeyTooLong, 400) { try await session.trigger("skip", idempotencyKey: String(repeating: "k", count: 256)) }
        _ = await expect(.idempotencyKeyInvalid, 400) { try await session.trigger("skip", idempotencyKey: "two words") }
        _ = await expect(.staleScreen, 409) { try await session.back(from: first.id) }
        let mismatch = await expect(.revisionMismatch, 412) { try await session.trigger("next", ifMatch: 1) }
        #expect(mismatch?.currentRevision == 2)
        _ = await expect(.unknownDeepLink, 422) { try await session.openDeepLink("wayfinder://nowhere") }
        let invalid = await expect(.invalidParams, 422) {
            _ = try await WayfinderSession.create(on: server.url, context: ["platform": "watch"], configuration: once)
        }
        #expect(invalid?.param == "context.platform")
        #expect(invalid?.invalidParams.map { $0.name } == ["context.platform"])
        _ = await expect(.payloadTooLarge, 413) { try await session.trigger("next", params: ["pad": .string(String(repeating: "x", count: 1 << 20))]) }
        _ = await expect(.uriTooLong, 414) { try await other(id: String(repeating: "A", count: 9000)).refresh() }
        _ = await expect(.headersTooLarge, 431) { try await other(token: String(repeating: "A", count: 17 * 1024)).refresh() }

        // Requests the library never sends, through its transport.
        let method = await expect(.methodNotAllowed, 405) { _ = try await raw.send(HTTPCall(method: "PUT", path: "/v1/sessions", repeats: .never)) }
        #expect(method?.allow == ["POST"])
        let routes = "/v1/sessions/\(credentials.id)/routes"
        _ = await expect(.badJSON, 400) { _ = try await raw.send(HTTPCall(method: "POST", path: routes, headers: auth, body: Data("{".utf8), repeats: .never)) }
        _ = await expect(.unsupportedMediaType, 415) {
            var headers = auth
            headers["Content-Type"] = "text/plain"
            _ = try await raw.send(HTTPCall(method: "POST", path: routes, headers: headers, body: Data("{}".utf8), repeats: .never))
        }

        // Malformed HTTP, made so by the proxy on the way.
        let isRead: @Sendable (String) -> Bool = { $0.hasPrefix("GET ") }
        proxy.on(isRead, .rewriteHead { $0.replacingOccurrences(of: "\r\nHost:", with: "\r\nBad Header: x\r\nHost:") })
        _ = await expect(.badRequest, 400) { try await proxied.refresh() }
        proxy.on(isRead, .rewriteHead { $0.replacingOccurrences(of: " HTTP/1.1\r\n", with: " HTTP/2.0\r\n") })
        _ = await expect(.httpVersionNotSupported, 505) { try await proxied.refresh() }
        proxy.on(isRead, .rewriteHead { $0.replacingOccurrences(of: "\r\nHost:", with: "\r\nTransfer-Encoding: gzip, chunked\r\nHost:") })
        _ = await expect(.notImplemented, 501) { try await proxied.refresh() }
        proxy.on(isRead, .stall(bytes: 12))
        _ = await expect(.requestTimeout, 408) { try await proxied.refresh() }

        // A session saved by a newer version of the app (a deploy under way).
        let stored = try #require(server.store.base.load(id: credentials.id, now: Int64(Date().timeIntervalSince1970 * 1000)))
        var newer = stored
        newer.state = Array(String(decoding: stored.state, as: UTF8.self).replacingOccurrences(of: #"{"v":1,"app":"1","#, with: #"{"v":1,"app":"2","#).utf8)
        try server.store.base.save(newer, expectedRevision: stored.revision, idempotency: nil)
        let ahead = await expect(.versionAhead, 409) { try await session.refresh() }
        #expect(ahead?.retryAfter != nil)
        try server.store.base.save(stored, expectedRevision: stored.revision, idempotency: nil)

        // A store that fails.
        server.store.fail(.unexpected, count: 1)
        _ = await expect(.internal, 500) { try await session.refresh() }
        server.store.fail(.unavailable, count: 1)
        let down = await expect(.serviceUnavailable, 503) { try await session.refresh() }
        #expect(down?.retryAfter != nil)

        // A full server.
        let full = try LiveServer(api: { $0.maxSessions = 1 })
        defer { full.stop() }
        _ = try await WayfinderSession.create(on: full.url, configuration: once)
        let limit = await expect(.sessionLimit, 503) { _ = try await WayfinderSession.create(on: full.url, configuration: once) }
        #expect(limit?.retryAfter != nil)

        // Rewinds the journal cannot serve: off, and an effect awaited.
        func rewind(on server: LiveServer, _ session: WayfinderSession) async throws {
            let call = HTTPCall(
                method: "POST", path: "/v1/sessions/\(session.credentials.id)/rewind",
                headers: ["Authorization": "Bearer \(session.credentials.token)", "Content-Type": "application/json"],
                body: Data(#"{"revision":1}"#.utf8), repeats: .never)
            _ = try await Transport(server: server.url, configuration: once).send(call)
        }
        let unjournaled = try LiveServer(api: { $0.journal = false })
        defer { unjournaled.stop() }
        let plain = try await WayfinderSession.create(on: unjournaled.url, configuration: once)
        _ = await expect(.revisionNotJournaled, 410) { try await rewind(on: unjournaled, plain) }
        let slow = try LiveServer(api: { $0.effectWait = .milliseconds(20) }, serviceDelay: .seconds(2))
        defer { slow.stop() }
        let busy = try await WayfinderSession.create(on: slow.url, context: ["onboarded": true], configuration: once)
        try await busy.trigger("login", params: ["email": "slow@b.c", "password": "password1"])
        _ = await expect(.effectsPending, 409) { try await rewind(on: slow, busy) }

        // The limits a client meets: sessions created from one address, a session's size, event streams.
        let paced = try LiveServer(api: { $0.createBurst = 1; $0.createRatePerSecond = 0.001 })
        defer { paced.stop() }
        _ = try await WayfinderSession.create(on: paced.url, configuration: once)
        let rated = await expect(.rateLimited, 429) { _ = try await WayfinderSession.create(on: paced.url, configuration: once) }
        #expect(rated?.retryAfter != nil)
        let small = try LiveServer(api: { $0.maxSessionBytes = 256 })
        defer { small.stop() }
        _ = await expect(.sessionTooLarge, 422) { _ = try await WayfinderSession.create(on: small.url, configuration: once) }
        let streams = try LiveServer(api: { $0.maxStreamsPerSession = 1; $0.maxStreams = 2 })
        defer { streams.stop() }
        let watched = try await WayfinderSession.create(on: streams.url, configuration: once)
        var open = watched.events().makeAsyncIterator()
        _ = try await open.next()
        func events(of session: WayfinderSession) async throws {
            let call = HTTPCall(
                method: "GET", path: "/v1/sessions/\(session.credentials.id)/events",
                headers: ["Authorization": "Bearer \(session.credentials.token)", "Accept": "text/event-stream"], repeats: .never)
            _ = try await Transport(server: streams.url, configuration: once).send(call)
        }
        let perSession = await expect(.sessionStreamLimit, 429) { try await events(of: watched) }
        #expect(perSession?.retryAfter != nil)
        let other = try await WayfinderSession.create(on: streams.url, configuration: once)
        var second = other.events().makeAsyncIterator()
        _ = try await second.next()
        let third = try await WayfinderSession.create(on: streams.url, configuration: once)
        let total = await expect(.streamLimit, 503) { try await events(of: third) }
        #expect(total?.retryAfter != nil)
        let perAddress = try LiveServer(api: { $0.maxStreamsPerAddress = 1; $0.routeRatePerSecond = 0.001; $0.routeBurst = 1 })
        defer { perAddress.stop() }
        let streaming = try await WayfinderSession.create(on: perAddress.url, configuration: once)
        var held = streaming.events().makeAsyncIterator()
        _ = try await held.next()
        let addressed = await expect(.addressStreamLimit, 429) {
            let second = try await WayfinderSession.create(on: perAddress.url, configuration: once)
            let call = HTTPCall(
                method: "GET", path: "/v1/sessions/\(second.credentials.id)/events",
                headers: ["Authorization": "Bearer \(second.credentials.token)", "Accept": "text/event-stream"], repeats: .never)
            _ = try await Transport(server: perAddress.url, configuration: once).send(call)
        }
        #expect(addressed?.retryAfter != nil)
        try await streaming.trigger("next")
        let tooFast = await expect(.sessionRateLimited, 429) { try await streaming.trigger("next") }
        #expect(tooFast?.retryAfter != nil)

        // Identity: a claimed sign-in, a rewind across a sign-out, the operator key, another user's credential.
        let claimed = await expect(.contextNotSettable, 422) {
            _ = try await WayfinderSession.create(on: server.url, context: ["onboarded": true, "authenticated": true], configuration: once)
        }
        #expect(claimed?.param == "context.authenticated")
        let signedOut = try await WayfinderSession.create(on: server.url, context: ["onboarded": true], configuration: once)
        try await signedOut.trigger("login", params: ["email": "a@b.c", "password": "password1"])
        try await signedOut.selectTab("profile")
        try await signedOut.trigger("logout")
        _ = await expect(.rewindAcrossSignIn, 409) {
            let call = HTTPCall(
                method: "POST", path: "/v1/sessions/\(signedOut.credentials.id)/rewind",
                headers: ["Authorization": "Bearer \(signedOut.credentials.token)", "Content-Type": "application/json"],
                body: Data(#"{"revision":2}"#.utf8), repeats: .never)
            _ = try await raw.send(call)
        }
        let operated = try LiveServer(api: { $0.operatorKey = String(repeating: "k", count: 32); $0.authenticator = HeaderAuthenticator() })
        defer { operated.stop() }
        let operatorCall = Transport(server: operated.url, configuration: once)
        _ = await expect(.operatorUnauthorized, 401) { _ = try await operatorCall.send(HTTPCall(method: "GET", path: "/v1/users/ada/sessions", repeats: .never)) }
        let anonymous = try await WayfinderSession.create(on: operated.url, configuration: once)
        _ = await expect(.identityMismatch, 403) {
            let call = HTTPCall(
                method: "GET", path: "/v1/sessions/\(anonymous.credentials.id)",
                headers: ["Authorization": "Bearer \(anonymous.credentials.token)", "X-Test-User": "bob"], repeats: .never)
            _ = try await operatorCall.send(call)
        }

        // Signals from the backend: one the app does not declare, one no flow wants now.
        func signal(_ body: String, to session: WayfinderSession) async throws {
            let call = HTTPCall(
                method: "POST", path: "/v1/sessions/\(session.credentials.id)/signals",
                headers: ["Authorization": "Bearer " + String(repeating: "k", count: 32), "Content-Type": "application/json"],
                body: Data(body.utf8), repeats: .never)
            _ = try await operatorCall.send(call)
        }
        let unknownSignal = await expect(.unknownSignal, 422) { try await signal(#"{"signal":"nope"}"#, to: anonymous) }
        #expect(unknownSignal?.param == "signal")
        _ = await expect(.signalUnwanted, 409) {
            try await signal(#"{"signal":"todoShared","params":{"title":"Keys","from":"Grace"}}"#, to: anonymous)
        }

        _ = await expect(.streamTicketInvalid, 401) {
            let call = HTTPCall(
                method: "GET", path: "/v1/sessions/\(anonymous.credentials.id)/events?ticket=wft1.AAAA",
                headers: ["Accept": "text/event-stream"], repeats: .never)
            _ = try await operatorCall.send(call)
        }

        // A retry whose answer the store no longer keeps: a budget of 0 keeps none.
        let budgetless = try LiveServer(store: FaultyStore(base: MemoryStore(configuration: StoreConfiguration(idempotencyBytesPerSession: 0))))
        defer { budgetless.stop() }
        let applied = try await WayfinderSession.create(on: budgetless.url, configuration: once)
        try await applied.trigger("next", idempotencyKey: "key-1")
        _ = await expect(.idempotencyAnswerDropped, 409) { try await applied.trigger("next", idempotencyKey: "key-1") }

        #expect(Set(seen) == Set(ProblemCode.contract), "not provoked: \(Set(ProblemCode.contract).subtracting(seen))")
        #expect(ProblemCode.contract.count == 41)
    }

    @Test func theKnownCodesAreExactlyTheContracts() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let contract = try String(contentsOf: root.appendingPathComponent("openapi.yaml"), encoding: .utf8)
        // components.schemas.ProblemCode.enum: the "- code" lines after "ProblemCode:" and "enum:".
        let lines = contract.components(separatedBy: "\n").drop { $0 != "    ProblemCode:" }.dropFirst()
        let codes = lines.drop { !$0.hasPrefix("      enum:") }.dropFirst().prefix { $0.hasPrefix("        - ") }
        #expect(codes.map { ProblemCode(rawValue: String($0.dropFirst(10))) } == ProblemCode.contract)
    }

    @Test func theAPIReferenceListsEveryCodeOfTheContract() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let reference = try String(contentsOf: root.appendingPathComponent("docs/api.md"), encoding: .utf8)
        // The "Every code" table: its rows are "| `status` | `code` | when |".
        let table = reference.components(separatedBy: "### Every code")[1].components(separatedBy: "\n\n")[1]
        let codes = table.components(separatedBy: "\n").dropFirst(2).compactMap { row -> ProblemCode? in
            let cells = row.components(separatedBy: "|")
            return cells.count > 2 ? ProblemCode(rawValue: cells[2].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))) : nil
        }
        #expect(Set(codes) == Set(ProblemCode.contract), "docs/api.md lists \(Set(codes).symmetricDifference(ProblemCode.contract)) otherwise")
        #expect(codes.count == Set(codes).count, "a code listed twice")
    }

    @Test func aProblemCodeTheClientDoesNotKnowStillDecodes() throws {
        let body = #"{"type":"about:blank","title":"Too Early","status":425,"code":"too_early","detail":"later","extra":[1]}"#
        let error = Transport.refusal(HTTPAnswer(status: 425, headers: ["retry-after": "3"], body: Data(body.utf8)))
        #expect(error.code == ProblemCode(rawValue: "too_early"))
        #expect(error.problem?.retryAfter == 3)
        #expect(error.problem?.detail == "later")
    }

    @Test func anAnswerThatIsNotAProblemIsAnInvalidResponse() {
        let error = Transport.refusal(HTTPAnswer(status: 502, headers: [:], body: Data("<html>Bad Gateway</html>".utf8)))
        #expect(error == .invalidResponse(status: 502, detail: "<html>Bad Gateway</html>"))
    }
}
