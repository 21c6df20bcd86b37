import DemoApp
import Testing
import WayfinderCore

/// Links into main while signed out or during onboarding wait in `pendingDeepLink`.
@Suite struct PendingDeepLinkTests {
    @Test func aLinkWhileSignedOutIsKeptAndTheLoginStays() throws {
        var d = try Driver(["onboarded": true])
        try d.link("wayfinder://todos/2")
        #expect(d.lastTransitions == [])
        #expect(d.state.revision == 2)
        #expect(d.ids == ["s1"])
        #expect(d.rendered.pendingDeepLink == "wayfinder://todos/2")
        try d.expectNoOp(.openDeepLink("wayfinder://todos/2"))
    }

    @Test func aNewerLinkReplacesTheOlder() throws {
        var d = try Driver(["onboarded": true])
        try d.link("wayfinder://todos/2")
        try d.link("wayfinder://profile/password")
        #expect(d.state.pendingDeepLink == "wayfinder://profile/password")
        #expect(d.state.revision == 3)
        try d.route("login", ["email": "a@b.c", "password": "12345678"])
        #expect(d.lastTransitions == [t(.setRoot, ["s2"]), t(.selectTab, ["s4"], tab: "profile"), t(.push, ["s5"])])
        #expect(d.stack == ["profile", "changePassword"])
        #expect(d.state.pendingDeepLink == nil)
    }

    @Test func itOpensRightAfterSignUp() throws {
        var d = try Driver(["onboarded": true])
        try d.link("wayfinder://todos/new")
        try d.route("register")
        try d.signUp("new@example.com")
        #expect(d.lastTransitions == [t(.setRoot, ["s4"]), t(.selectTab, ["s5"], tab: "todos"), t(.present, ["s7"])])
        #expect(d.stack == ["todoList", "todoAdd"])
        #expect(d.top.presentation == .fullScreen)
    }

    @Test func aFailedLoginKeepsItWaiting() throws {
        var d = try Driver(["onboarded": true])
        try d.link("wayfinder://todos")
        try d.route("login", ["email": "a@b.c", "password": "short"])
        #expect(d.state.pendingDeepLink == "wayfinder://todos")
        #expect(d.lastTransitions == [t(.update, ["s1"])])
    }

    @Test func duringOnboardingItWaitsUntilSignIn() throws {
        var d = try Driver()
        try d.link("wayfinder://todos/1")
        #expect(d.stack == ["walkthrough"])
        #expect(d.lastTransitions == [])
        try d.route("skip")
        // Auth takes the root; the link still waits for sign-in.
        #expect(d.lastTransitions == [t(.setRoot, ["s2"])])
        #expect(d.state.pendingDeepLink == "wayfinder://todos/1")
        try d.route("login", ["email": "a@b.c", "password": "12345678"])
        #expect(d.lastTransitions.map(\.op) == [.setRoot, .selectTab, .push])
        #expect(d.stack == ["todoList", "todoDetail"])
        #expect(d.top.title == "Buy milk")
    }

    @Test func signedInButNotOnboardedItOpensWhenMainTakesTheRoot() throws {
        var d = try Driver(["authenticated": true, "user": "a@b.c"])
        try d.link("wayfinder://todos/2")
        #expect(d.state.pendingDeepLink == "wayfinder://todos/2")
        try d.route("next")
        try d.route("skip")
        #expect(d.lastTransitions == [t(.setRoot, ["s3"]), t(.selectTab, ["s4"], tab: "todos"), t(.push, ["s6"])])
        #expect(d.stack == ["todoList", "todoDetail"])
        #expect(d.state.pendingDeepLink == nil)
    }

    @Test func aLinkAtSessionStartWhileSignedOutIsPending() throws {
        let d = try Driver(["onboarded": true], link: "wayfinder://profile")
        #expect(d.stack == ["login"])
        #expect(d.state.pendingDeepLink == "wayfinder://profile")
        #expect(d.state.revision == 1)
    }

    @Test func signupDuringOnboardingOpensWhenAuthTakesTheRoot() throws {
        var d = try Driver()
        try d.link("wayfinder://signup")
        #expect(d.state.pendingDeepLink == "wayfinder://signup")
        try d.route("skip")
        #expect(d.lastTransitions == [t(.setRoot, ["s2"]), t(.push, ["s3"])])
        #expect(d.stack == ["login", "register"])
        #expect(d.state.pendingDeepLink == nil)
    }

    @Test func signupWhileSignedOutDoesNotDropAPendingLink() throws {
        var d = try Driver(["onboarded": true])
        try d.link("wayfinder://todos/4")
        try d.link("wayfinder://signup")
        #expect(d.stack == ["login", "register"])
        #expect(d.state.pendingDeepLink == "wayfinder://todos/4")
        try d.signUp("new@example.com")
        #expect(d.stack == ["todoList", "todoDetail"])
    }

    @Test func anUnknownTodoIsRefusedEvenWhileSignedOut() throws {
        var d = try Driver(["onboarded": true])
        d.expectRefused(.openDeepLink("wayfinder://todos/6"), .unknownDeepLink("wayfinder://todos/6"))
        #expect(d.state.pendingDeepLink == nil)
    }
}
