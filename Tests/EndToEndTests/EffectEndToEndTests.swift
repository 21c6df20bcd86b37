@testable import DemoApp
import Foundation
import Synchronization
import Testing
@testable import WayfinderAPI
import WayfinderCore

/// Effects over HTTP: the sample app's account service, a service slower than the wait (202,
/// then the result by long poll and on the event stream), and one that hangs past its timeout.
@Suite struct EffectEndToEndTests {
    @Test func signUpThenSignInElsewhereWithTheWrongPasswordThenTheRightOne() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let first = try c.createSession(#"{"context": {"onboarded": true}}"#)
        _ = try c.route(first, "register")
        var r = try c.route(first, "signUp", ["name": "Ann", "email": "ann@example.com", "password": "correct-horse"])
        try expectAction(r, revision: 3, stack: ["login", "register", "confirmSignUp"])
        r = try c.route(first, "confirmSignUp", ["code": try #require(server.mailer.code(to: "ann@example.com"))])
        try expectAction(r, revision: 4, stack: ["dashboard"])
        #expect(r.state["context"]["user"].string == "ann@example.com")

        let second = try c.createSession(#"{"context": {"onboarded": true}}"#)
        r = try c.route(second, "login", ["email": "ANN@example.com", "password": "wrong-horse1"])
        try expectAction(r, revision: 2, stack: ["login"])
        #expect(r.json.ops == ["update"])
        #expect(r.state.top["components"].array.contains { $0["text"].string == "That email and password do not match." })
        r = try c.route(second, "login", ["email": "ann@example.com", "password": "correct-horse"])
        try expectAction(r, revision: 3, stack: ["dashboard"])
        // Signing up a taken address looks the same as a free one; its owner gets a note, no code.
        let third = try c.createSession(#"{"context": {"onboarded": true}}"#)
        _ = try c.route(third, "register")
        r = try c.route(third, "signUp", ["name": "Eve", "email": "ann@example.com", "password": "password1"])
        try expectAction(r, revision: 3, stack: ["login", "register", "confirmSignUp"])
        #expect(server.mailer.outbox.last?.subject == "You already have an account")
    }

    /// Counts a service's calls.
    final class Calls: Sendable {
        let count = Atomic<Int>(0)
    }

    /// Holds a service's answer until the test opens it.
    final class Gate: Sendable {
        private let waiting = Mutex<(open: Bool, continuations: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let proceed = waiting.withLock { state -> Bool in
                    if state.open { return true }
                    state.continuations.append(continuation)
                    return false
                }
                if proceed { continuation.resume() }
            }
        }

        func open() {
            let continuations = waiting.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.open = true
                defer { state.continuations = [] }
                return state.continuations
            }
            for continuation in continuations { continuation.resume() }
        }
    }

    /// The account service, answering `signedIn` once `gate` opens (or never, when nil).
    private func accounts(gate: Gate?, timeout: Duration, calls: Calls = Calls()) -> EffectServices {
        var services = EffectServices()
        services.register(AuthFlow.self, timeout: timeout, retries: 0) { _, _ in
            calls.count.add(1, ordering: .relaxed)
            guard let gate else {
                while true { try await Task.sleep(for: .seconds(3600)) }
            }
            await gate.wait()
            return UserStore.Answer.signedIn
        }
        return services
    }

    @Test func aServiceThatHangsPastItsTimeoutGivesTheFlowsFailureNotice() throws {
        let server = try InProcessServer(services: accounts(gate: nil, timeout: .milliseconds(200))) {
            $0.effectWait = .seconds(5)
        }
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession(#"{"context": {"onboarded": true}}"#)
        let r = try c.route(s, "login", ["email": "a@b.c", "password": "password1"])
        try expectAction(r, revision: 2, stack: ["login"])
        #expect(r.state.top["components"].array.contains {
            $0["text"].string == "Signing in is not possible right now. Try again in a moment."
        })
        #expect(r.state.top["routes"].array.count == 3, "the screen is usable again")
    }

    @Test func aSlowEffectIsAnswered202BusyAndItsResultArrivesByLongPollAndEvents() throws {
        let calls = Calls()
        let gate = Gate()
        let server = try InProcessServer(services: accounts(gate: gate, timeout: .seconds(30), calls: calls)) {
            $0.effectWait = .milliseconds(100)
        }
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession(#"{"context": {"onboarded": true}}"#)
        let events = EventReader(url: c.base + s.path + "/events?access_token=" + s.token)
        defer { events.stop() }
        #expect(events.next()?.id == "1")

        let r = try c.route(s, "login", ["email": "a@b.c", "password": "password1"])
        #expect(r.status == 202, "\(r)")
        #expect(r.state["revision"].int == 2)
        #expect(r.state.top["busy"].bool == true)
        #expect(r.state.top["routes"].array.isEmpty)
        #expect(r.state.top["components"].array.filter { $0["type"].string == "button" }.allSatisfy { $0["disabled"].bool == true })
        // A route on the busy screen is refused, and changes nothing.
        #expect(try c.route(s, "register").code == "route_unavailable")
        #expect(events.next()?.id == "2")

        // A long poll waits for the result: the service answers once the poll is waiting (the
        // stream's subscription and the poll's).
        let port = server.port, path = s.path, token = s.token
        let result = Mutex<Reply?>(nil)
        let polling = Thread {
            let reply = try? Client(port: port).call("GET", path, token: token, headers: [("If-None-Match", "\"2\""), ("Prefer", "wait=20")])
            result.withLock { $0 = reply }
        }
        polling.start()
        #expect(eventually(within: 10) { server.api.store.changes.subscriberCount(s.id) == 2 })
        gate.open()
        #expect(eventually(within: 20) { result.withLock { $0 != nil } })
        let polled = try #require(result.withLock { $0 })
        #expect(polled.status == 200)
        #expect(polled.header("Preference-Applied") == "wait=20")
        #expect(polled.state["revision"].int == 3)
        #expect(polled.state.stackNames == ["dashboard"])
        #expect(events.next()?.id == "3")
        #expect(calls.count.load(ordering: .relaxed) == 1, "the effect ran once")

        // With nothing to wait for, the long poll ends with 304 after its wait.
        let idle = try c.get(s, headers: [("If-None-Match", "\"3\""), ("Prefer", "wait=1")])
        #expect(idle.status == 304)
    }
}
