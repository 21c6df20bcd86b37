import DemoApp
import Testing
import WayfinderCore

/// Thousands of random sessions: whatever a client sends, the engine answers with a valid state
/// or a typed refusal that changes nothing.
///
/// After every step of every sequence: the tree invariants, revisions, no-ops and refusals.
/// The costlier checks (rendering, `stack` versus `navigation`, the JSON parsing, and the Codable
/// round trip) run after every step of every 100th sequence and on every sequence's final state
/// (Codable: every 100th), which keeps the test near 10 s in a debug build.
@Suite struct NavigationPropertyTests {
    static let seed: UInt64 = 0x00C0_FFEE_2024
    static let sequences = 2_500
    static let maxActions = 40

    @Test func randomSessionsKeepEveryInvariant() {
        var rng = SplitMix64(seed: Self.seed)
        var stats = (steps: 0, refused: 0, noOps: 0)
        // One memo for every sequence (all sessions are "p"), so stale memos are exercised too.
        var memo = Memo()
        for sequence in 0..<Self.sequences {
            var log: [String] = []
            let thorough = sequence % 100 == 0
            memo.everyStep = sequence % 10 == 0
            if let failure = Self.run(&rng, thorough: thorough, log: &log, stats: &stats, memo: &memo) {
                Issue.record("""
                    seed \(String(Self.seed, radix: 16)), sequence \(sequence): \(failure)
                    actions:
                    \(log.joined(separator: "\n"))
                    """)
                return
            }
        }
        // The generator must actually exercise both successes and refusals.
        #expect(stats.steps > Self.sequences * 10)
        #expect(stats.refused > stats.steps / 10)
        #expect(stats.refused < stats.steps * 2 / 3)
        #expect(stats.noOps > 0)
        // The memo must actually be used, and checked often.
        #expect(memo.reused > 1_000)
        #expect(memo.checks > 4_500)
    }

    /// `renderJSON` with a memo carried from step to step must equal a fresh rendering.
    struct Memo {
        var memo = RenderMemo()
        var codec = StateCodec.Memo()
        var everyStep = false
        var reused = 0
        var checks = 0

        mutating func violation(_ state: SessionState, _ engine: Engine) -> String? {
            checks += 1
            let bytes = engine.renderJSON(state, memo: &memo)
            reused += memo.lastReused
            guard bytes == engine.render(state).jsonBytes else {
                return "renderJSON with a memo differs from render: \(String(decoding: bytes, as: UTF8.self))"
            }
            var shapeMemo = memo
            if let problem = NavigationPropertyTests.shapeViolation(full: bytes, ids: engine.renderJSON(state, memo: &shapeMemo, shape: .screenIDs), state) {
                return problem
            }
            let stored = StateCodec.encode(state, memo: &codec)
            guard stored == StateCodec.encode(state) else {
                return "StateCodec.encode with a memo differs: \(String(decoding: stored, as: UTF8.self))"
            }
            guard (try? StateCodec.decode(stored, session: state.session)) == state else {
                return "the stored state does not decode to the state"
            }
            return nil
        }
    }

    /// Shape 2 is shape 1 with `stack` as the visible screens' ids: the same JSON but for
    /// `stack`, and the same bytes before and after it.
    static func shapeViolation(full: [UInt8], ids: [UInt8], _ state: SessionState) -> String? {
        guard case .object(var expected)? = try? JSONParser.parse(full), let parsed = try? JSONParser.parse(ids) else {
            return "a shape does not parse: \(String(decoding: ids, as: UTF8.self))"
        }
        expected["stack"] = .array(state.navigation.visibleScreens.map { .string($0.id) })
        guard parsed.canonicalBytes == JSONValue.object(expected).canonicalBytes else {
            return "shape 2 is not shape 1 with screen ids: \(String(decoding: ids, as: UTF8.self))"
        }
        let stack = Array(#","stack":["#.utf8), tail = Array(#"],"pendingDeepLink":"#.utf8)
        guard let start = ids.firstRange(of: stack)?.lowerBound, let end = ids.ranges(of: tail).last?.lowerBound,
            let fullEnd = full.ranges(of: tail).last?.lowerBound, full.starts(with: ids[..<start]), full[fullEnd...] == ids[end...]
        else { return "shape 2 differs from shape 1 outside stack: \(String(decoding: ids, as: UTF8.self))" }
        return nil
    }

    /// One random session; returns the first broken invariant.
    static func run(
        _ rng: inout SplitMix64, thorough: Bool, log: inout [String], stats: inout (steps: Int, refused: Int, noOps: Int),
        memo: inout Memo
    ) -> String? {
        let engine = demoEngine
        var context: JSONObject = [
            "onboarded": .bool(rng.chance(50)), "authenticated": .bool(rng.chance(50)),
            "platform": .string(rng.pick(["phone", "tablet", "web"])), "variant": .string(rng.pick(["A", "B"])),
        ]
        if rng.chance(30) { context["user"] = "a@b.c" }
        if rng.chance(3) { context["platform"] = rng.pick(["watch", 1, true]) }
        let link: String? = rng.chance(15) ? randomLink(&rng) : nil
        log.append("start context=\(JSONValue.object(context).canonicalString) link=\(link ?? "nil")")

        var state: SessionState
        do {
            state = try engine.start(session: "p", context: context, deepLink: link)
        } catch is NavigationError {
            return nil  // a bad context or link creates no session
        } catch {
            return "start threw \(error)"
        }
        if state.revision != 1 { return "a new session has revision \(state.revision)" }
        if let problem = invariantViolations(of: state, engine: engine).first { return problem }

        for _ in 0..<(1 + rng.next(below: maxActions)) {
            let action = randomAction(&rng, state: state, engine: engine)
            log.append("\(action)")
            stats.steps += 1
            let before = state
            do {
                let outcome = try engine.reduce(state, action)
                if state != before { return "reduce changed its input" }
                if outcome.changed {
                    if outcome.state.revision != before.revision + 1 { return "revision \(before.revision) -> \(outcome.state.revision)" }
                    var same = outcome.state
                    same.revision = before.revision
                    if same == before { return "changed with an identical state" }
                } else {
                    stats.noOps += 1
                    if outcome.state != before { return "a no-op changed the state" }
                    if !outcome.transitions.isEmpty { return "a no-op gave transitions \(outcome.transitions)" }
                }
                state = outcome.state
                // Effects come back, each with a reply or a failure of any kind.
                while let effect = state.effects.first {
                    let completion: EffectCompletion = rng.chance(70)
                        ? .success(.string(rng.pick(["signedIn", "refused", "throttled", "locked", "codeSent", "registered", "wrongCode", "passwordChanged"])))
                        : .failure(rng.pick([.timedOut, .interrupted, .unavailable("down")]))
                    log.append("complete \(effect.id) \(completion)")
                    let done = try engine.reduce(state, .completeEffect(id: effect.id, completion))
                    if done.state.revision != state.revision + 1 { return "an effect's result did not make one revision" }
                    if done.state.effects.contains(where: { $0.id == effect.id }) { return "a completed effect is still pending" }
                    state = done.state
                }
            } catch let error as NavigationError {
                stats.refused += 1
                if state != before { return "a refused action (\(error)) changed the state" }
                continue
            } catch {
                return "threw a non-navigation error: \(error)"
            }
            if let problem = structuralViolations(of: state, engine: engine).first { return problem }
            if thorough, let problem = renderingViolations(of: state, engine: engine).first { return problem }
            if memo.everyStep, let problem = memo.violation(state, engine) { return problem }
        }
        if let problem = renderingViolations(of: state, engine: engine).first { return "final state: \(problem)" }
        if let problem = memo.violation(state, engine) { return "final state: \(problem)" }
        if thorough, let problem = storageViolations(of: state, engine: engine).first { return "final state: \(problem)" }
        return nil
    }

    // MARK: Generators

    static let validLinks = [
        "wayfinder://todos", "wayfinder://todos/new", "wayfinder://todos/1", "wayfinder://todos/2", "wayfinder://todos/3",
        "wayfinder://todos/6", "wayfinder://profile", "wayfinder://profile/password", "wayfinder://signup",
    ]
    static let badLinks = [
        "wayfinder://todos/", "wayfinder://Todos", "wayfinder://todos?x=1", "https://todos", "wayfinder://todos/99",
        "wayfinder://todos/%20", "", "wayfinder://profile/password/", "wayfinder://todos/😀",
    ]

    static func randomLink(_ rng: inout SplitMix64) -> String {
        rng.chance(70) ? rng.pick(validLinks) : rng.pick(badLinks)
    }

    static let allRoutes = ["next", "skip", "login", "register", "forgotPassword", "signUp", "savePassword", "done",
                            "openTodo", "addTodo", "showTodo", "saveTodo", "cancel", "updateTodo", "deleteTodo",
                            "changePassword", "logout", "", "nope", "LOGIN"]

    static func randomAction(_ rng: inout SplitMix64, state: SessionState, engine: Engine) -> Action {
        let roll = rng.next(below: 100)
        let top = state.navigation.topScreen
        switch roll {
        case 0..<60:
            let available = top.map { engine.routes(whenOnTop: $0, in: state) } ?? []
            guard let spec = available.isEmpty ? nil : rng.pick(available) else { return .back(screen: nil) }
            return .trigger(RouteRequest(spec.name, params: randomParams(&rng, spec.params)))
        case 60..<72:
            switch rng.next(below: 3) {
            case 0: return .back(screen: nil)
            case 1: return .back(screen: top?.id)
            default: return .back(screen: "s\(rng.next(below: 40))")
            }
        case 72..<82:
            return .selectTab(rng.pick(["home", "todos", "profile", "home", "todos", "profile", "nope", ""]))
        case 82..<92:
            return .openDeepLink(randomLink(&rng))
        default:
            let params: JSONObject = rng.chance(50) ? [:] : randomParams(&rng, [ParamSpec("id"), ParamSpec("title")])
            return .trigger(RouteRequest(rng.pick(allRoutes), params: params))
        }
    }

    static func randomParams(_ rng: inout SplitMix64, _ specs: [ParamSpec]) -> JSONObject {
        var params: JSONObject = [:]
        let password = rng.pick(["12345678", "short", "12345678", ""])
        for spec in specs {
            let roll = rng.next(below: 100)
            if roll < 6 { continue }  // missing
            if roll < 9 { params[spec.name] = .null; continue }  // null = absent
            if roll < 14 { params[spec.name] = rng.pick([.int(1), .bool(true), .double(1.5), .array([]), .object([:]), .string("x")]); continue }
            switch spec.name {
            case "id": params["id"] = .string(rng.pick(["1", "2", "3", "4", "5", "6", "7", "99", ""]))
            case "email": params["email"] = .string(rng.pick(["a@b.c", "ada@example.com", "nope", ""]))
            case "password": params["password"] = .string(password)
            case "confirm": params["confirm"] = .string(rng.chance(75) ? password : "different")
            case "name": params["name"] = .string(rng.pick(["Ada", "  ", ""]))
            case "title": params["title"] = .string(rng.pick(["Milk", "  ", "", String(repeating: "long ", count: 50)]))
            case "description": params["description"] = .string(rng.pick(["", "d", "é\n\"x\""]))
            case "completed": params["completed"] = .bool(rng.chance(50))
            default: params[spec.name] = "?"
            }
        }
        if rng.chance(5) { params["unexpected"] = [1, 2] }
        return params
    }
}
