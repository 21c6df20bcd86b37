import DemoApp
import Testing
import WayfinderCore

@Suite struct OnboardingFlowTests {
    private func pageText(_ d: Driver) -> [String] {
        d.top.components.compactMap { if case .text(let s) = $0, s.hasPrefix("Page") { s } else { nil } }
    }

    @Test func nextPushesEachPageAndTheLastFinishesOnboarding() throws {
        var d = try Driver()
        #expect(d.tree == "app(onboarding)")
        #expect(d.ids == ["s1"])
        #expect(pageText(d) == ["Page 1 of 3"])
        #expect(d.top.routes == ["next", "skip"])
        try d.route("next")
        #expect(d.lastTransitions == [t(.push, ["s2"])])
        #expect(pageText(d) == ["Page 2 of 3"])
        try d.route("next")
        #expect(d.stack == ["walkthrough", "walkthrough", "walkthrough"])
        #expect(d.rendered.stack.map(\.presentation) == [.root, .push, .push])
        #expect(pageText(d) == ["Page 3 of 3"])
        #expect(d.top.components.contains(.button("Get started", .primary, route: "next")))
        try d.route("next")
        #expect(d.stack == ["login"])
        #expect(d.lastTransitions == [t(.setRoot, ["s4"])])
        #expect(d.tree == "app(auth)")
        #expect(d.context["onboarded"] == true)
        #expect(d.state.revision == 4)
    }

    @Test func skipFinishesOnboardingFromAnyPage() throws {
        var d = try Driver()
        try d.route("next")
        try d.route("skip")
        #expect(d.stack == ["login"])
        #expect(d.lastTransitions == [t(.setRoot, ["s3"])])
        #expect(d.context["onboarded"] == true)
        #expect(d.tree == "app(auth)")
    }

    @Test func variantBHasASinglePage() throws {
        var d = try Driver(["variant": "B"])
        #expect(pageText(d) == ["Page 1 of 1"])
        #expect(d.top.components.contains(.heading("Welcome to Wayfinder")))
        #expect(!d.top.components.contains(.button("Skip", .link, route: "skip")))
        try d.route("next")
        #expect(d.stack == ["login"])
        #expect(d.lastTransitions == [t(.setRoot, ["s2"])])
        #expect(d.context["onboarded"] == true)
    }

    @Test func variantBCanStillSkip() throws {
        var d = try Driver(["variant": "B"])
        try d.route("skip")
        #expect(d.stack == ["login"])
    }

    @Test func backFromPageTwoReturnsToPageOne() throws {
        var d = try Driver()
        try d.route("next")
        try d.back("s2")
        #expect(d.ids == ["s1"])
        #expect(d.lastTransitions == [t(.pop, ["s2"])])
        #expect(pageText(d) == ["Page 1 of 3"])
        d.expectRefused(.back(screen: nil), .nothingToPop)
    }

    @Test func aSignedInUserWhoFinishesOnboardingLandsInMain() throws {
        var d = try Driver(["authenticated": true, "user": "a@b.c"])
        #expect(d.stack == ["walkthrough"])
        try d.route("skip")
        #expect(d.stack == ["dashboard"])
        #expect(d.tree == "app(main(home,todos,profile))")
        #expect(d.lastTransitions == [t(.setRoot, [d.topID])])
    }
}
