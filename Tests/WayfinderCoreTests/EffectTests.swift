import Testing
import WayfinderCore

// A checkout of one screen and a confirmation, whose payment is an effect.

private enum Pay: AppSchema {}

private struct PayFlow: Flow {
    typealias App = Pay
    var staleEffects = StaleEffectRule.drop
    enum Screen: FlowScreen {
        case card, other, paid(reference: String)
        enum CodingKeys: CodingKey, CaseIterable { case card, other, paid }
    }
    enum Route: FlowRoute {
        case pay(amount: Int, number: Secret)
        case payTwice
        case elsewhere
        enum CodingKeys: CodingKey, CaseIterable { case pay, payTwice, elsewhere }
    }
    enum Effect: FlowEffect {
        case authorise(amount: Int, number: Secret)
        enum CodingKeys: CodingKey, CaseIterable { case authorise }
    }
    enum EffectReply: Codable, Hashable, Sendable {
        case approved(reference: String)
        case declined
    }

    func routes(on screen: Screen.Name) -> [Route.Name] { screen == .card ? [.pay, .payTwice, .elsewhere] : [] }
    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.card) }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .pay(let amount, let number): flow.perform(.authorise(amount: amount, number: number))
        case .payTwice:
            flow.perform(.authorise(amount: 1, number: "4000"))
            flow.perform(.authorise(amount: 2, number: "4000"))
        case .elsewhere: flow.push(.other)
        }
    }

    func complete(_ effect: Effect, with result: EffectResult<EffectReply>, _ flow: inout FlowContext<Self>) throws {
        switch result {
        case .success(.approved(let reference)): flow.push(.paid(reference: reference))
        case .success(.declined): flow.showNotice(Notice(.error, "The card was declined."))
        case .failure(.timedOut), .failure(.unavailable): flow.showNotice(Notice(.error, "The bank does not answer. Try again."))
        case .failure(.interrupted): flow.showNotice(Notice(.error, "Please enter your card again."))
        }
        let log = flow.model["log"]?.arrayValue ?? []
        if case .authorise(let amount, _) = effect { flow.model["log"] = .array(log + [.int(amount)]) }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        ScreenContent(title: Screen.name(of: screen), components: [flow.button("Pay", submitting: .pay)])
    }
}

@Suite struct EffectTests {
    private func engine(_ flow: PayFlow = PayFlow()) throws -> Engine {
        Engine(try Application(scheme: "pay", root: flow, flows: []))
    }

    private func paying(_ engine: Engine) throws -> Outcome {
        let state = try engine.start(session: "s", context: [:])
        return try engine.reduce(state, .trigger(RouteRequest("pay", params: ["amount": 30, "number": "4242"])))
    }

    @Test func aRouteAsksForAnEffectAsDataAndTheScreenWaits() throws {
        let engine = try engine()
        let outcome = try paying(engine)
        #expect(outcome.changed)
        #expect(outcome.transitions == [])
        let effect = try #require(outcome.state.effects.first)
        #expect(effect.id == "e1")
        #expect(effect.name == "authorise")
        #expect(effect.params == ["amount": 30], "the secret is not part of the state")
        #expect(effect.secrets == ["number"])
        #expect(outcome.effects == [EffectRequest(effect: effect, params: ["amount": 30, "number": "4242"])])
        let screen = try #require(engine.render(outcome.state).stack.last)
        #expect(screen.busy)
        #expect(screen.routes == [])
        let json = String(decoding: engine.render(outcome.state).jsonBytes, as: UTF8.self)
        #expect(json.contains(#""busy":true"#) && json.contains(#""disabled":true"#))
        #expect(!StateCodec.encode(outcome.state).contains(Array("4242".utf8)), "the stored form has no secret")
        #expect(throws: NavigationError.routeUnavailable(route: "pay", available: [])) {
            try engine.reduce(outcome.state, .trigger(RouteRequest("pay", params: ["amount": 1, "number": "1"])))
        }
    }

    @Test func aStoredStateWithAPendingEffectDecodesAsItWas() throws {
        let state = try paying(try engine()).state
        #expect(try StateCodec.decode(StateCodec.encode(state), session: "s") == state)
    }

    @Test func theResultGoesBackToTheFlowAsANewRevision() throws {
        let engine = try engine()
        let pending = try paying(engine).state
        let done = try engine.reduce(pending, .completeEffect(id: "e1", .success(["approved": ["reference": "R1"]])))
        #expect(done.state.revision == pending.revision + 1)
        #expect(done.state.effects == [])
        #expect(done.state.navigation.visibleScreens.map(\.name) == ["card", "paid"])
        #expect(done.state.navigation.visibleScreens.first?.waitingFor == [])
        #expect(done.state.model["log"] == [30])
        #expect(engine.render(done.state).stack.first?.busy == false)
    }

    @Test func failuresAreTheFlowsOwnNotices() throws {
        let engine = try engine()
        let pending = try paying(engine).state
        for (completion, text) in [
            (EffectCompletion.success(["declined": [:]]), "The card was declined."),
            (.failure(.timedOut), "The bank does not answer. Try again."),
            (.failure(.unavailable("connection refused")), "The bank does not answer. Try again."),
            (.failure(.interrupted), "Please enter your card again."),
            (.success(["nonsense": 1]), "The bank does not answer. Try again."),
        ] {
            let next = try engine.reduce(pending, .completeEffect(id: "e1", completion)).state
            #expect(next.navigation.topScreen?.notice == Notice(.error, text), "\(completion)")
            #expect(next.navigation.topScreen?.waitingFor == [])
        }
    }

    @Test func effectsAreKeptInTheOrderAskedAndAResultForNoPendingEffectChangesNothing() throws {
        let engine = try engine()
        let state = try engine.start(session: "s", context: [:])
        let outcome = try engine.reduce(state, .trigger(RouteRequest("payTwice")))
        #expect(outcome.state.effects.map(\.id) == ["e1", "e2"])
        #expect(outcome.state.effects.map(\.params) == [["amount": 1], ["amount": 2]])
        #expect(outcome.state.navigation.topScreen?.waitingFor == ["e1", "e2"])
        let first = try engine.reduce(outcome.state, .completeEffect(id: "e1", .success(["declined": [:]]))).state
        #expect(first.navigation.topScreen?.waitingFor == ["e2"], "still busy with the second")
        let again = try engine.reduce(first, .completeEffect(id: "e1", .success(["declined": [:]])))
        #expect(!again.changed)
    }

    @Test func aStaleResultIsDroppedOrDeliveredAsTheFlowDeclares() throws {
        for rule in [StaleEffectRule.drop, .deliver] {
            var flow = PayFlow()
            flow.staleEffects = rule
            let engine = try engine(flow)
            var state = try paying(engine).state
            // The user leaves the screen while the payment runs: back is not a route, and works.
            state.navigation.root = .stack(Stack(coordinator: "c0", screens: [ScreenInstance(id: "s9", name: "other", coordinator: "c0")]))
            let next = try engine.reduce(state, .completeEffect(id: "e1", .success(["approved": ["reference": "R1"]]))).state
            #expect(next.effects == [])
            #expect(next.model["log"] == (rule == .deliver ? [30] : nil), "\(rule)")
        }
    }
}
