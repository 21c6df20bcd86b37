@testable import DemoApp
import Foundation
import Synchronization
import Testing
import WayfinderAPI
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
        var r = try c.route(first, "signUp", ["name": "Ada", "email": "ada@example.com", "password": "correct-horse"])
        try expectAction(r, revision: 3, stack: ["dashboard"])
        #expect(r.state["context"]["user"].string == "ada@example.com")

        let second = try c.createSession(#"{"context": {"onboarded": true}}"#)
        r = try c.route(second, "login", ["email": "ADA@example.com", "password": "wrong-horse1"])
        try expectAction(r, revision: 2, stack: ["login"])
        #expect(r.json.ops == ["update"])
        #expect(r.state.top["components"].array.contains { $0["text"].string == "That is not the password of this account." })
        r = try c.route(second, "login", ["email": "ada@example.com", "password": "correct-horse"])
        try expectAction(r, revision: 3, stack: ["dashboard"])
        // The same address cannot sign up twice.
        let third = try c.createSession(#"{"context": {"onboarded": true}}"#)
        _ = try c.route(third, "register")
        r = try c.route(third, "signUp", ["name": "Eve", "email": "ada@example.com", "password": "password1"])
        try expectAction(r, revision: 3, stack: ["login", "register"])
        #expect(r.state.top["components"].array.contains { $0["text"].string == "This address already has an account: sign in instead." })
    }

    /// Counts a service's calls.
    final class Calls: Sendable {
        let count = Atomic<Int>(0)
    }

    /// The account service, answering `unknownAddress` after `delay` (or never, when nil).
    private func accounts(delay: Duration?, timeout: Duration, calls: Calls = Calls()) -> EffectServices {
        var services = EffectServices()
        services.register(AuthFlow.self, timeout: timeout, retries: 0) { _, _ in
            calls.count.add(1, ordering: .relaxed)
            guard let delay else {
                while true { try await Task.sleep(for: .seconds(3600)) }
            }
            try await Task.sleep(for: delay)
            return UserStore.Answer.unknownAddress
        }
        return services
    }

    @Test func aServiceThatHangsPastItsTimeoutGivesTheFlowsFailureNotice() throws {
        let server = try InProcessServer(services: accounts(delay: nil, timeout: .milliseconds(200))) {
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
        let server = try InProcessServer(services: accounts(delay: .milliseconds(700), timeout: .seconds(10), calls: calls)) {
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

        // A long poll waits for the result.
        let polled = try c.get(s, headers: [("If-None-Match", "\"2\""), ("Prefer", "wait=20")])
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
