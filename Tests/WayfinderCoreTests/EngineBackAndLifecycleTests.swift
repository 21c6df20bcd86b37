import Testing
import WayfinderCore

/// `back`, pruning coordinators whose last screen left, and `finish()`, on a tiny app.
@Suite struct EngineBackAndLifecycleTests {
    @Test func backPopsThePushedScreen() throws {
        var s = try TinySession()
        try s.route("open", ["id": 1])
        let outcome = try s.apply(.back(screen: "s2"))
        #expect(s.names == ["home"])
        #expect(outcome.transitions == [Transition(.pop, ["s2"])])
        #expect(s.state.revision == 3)
    }

    @Test func backDismissesTheTopModal() throws {
        var s = try TinySession()
        try s.route("present")
        #expect(s.tree == "c0:root(c1:list(c2:sheet))")
        #expect(s.transitions == [Transition(.present, ["s2"])])
        #expect(s.state.navigation.modals.map(\.style) == [.sheet])
        #expect(s.state.navigation.modals.map(\.stack.coordinator) == ["c2"])
        try s.route("more")
        #expect(s.names == ["home", "sheetA", "sheetB"])
        try s.apply(.back(screen: nil))
        #expect(s.transitions == [Transition(.pop, ["s3"])])
        try s.apply(.back(screen: "s2"))
        #expect(s.transitions == [Transition(.dismiss, ["s2"])])
        #expect(s.names == ["home"])
        // The sheet's coordinator lost its last screen: removed, and its parent told.
        #expect(s.tree == "c0:root(c1:list)")
        #expect(s.log == ["list:removed sheet c2"])
    }

    @Test func backAtTheRootIsNothingToPop() throws {
        let s = try TinySession()
        s.expectRefused(.back(screen: nil), .nothingToPop)
        s.expectRefused(.back(screen: "s1"), .nothingToPop)
    }

    @Test func backNamingAScreenNotOnTopIsStale() throws {
        var s = try TinySession()
        try s.route("open", ["id": 1])
        s.expectRefused(.back(screen: "s1"), .staleScreen(requested: "s1", top: "s2"))
        s.expectRefused(.back(screen: "s99"), .staleScreen(requested: "s99", top: "s2"))
        try s.apply(.back(screen: "s2"))
        // A double tap: the second back names a screen that is gone.
        s.expectRefused(.back(screen: "s2"), .staleScreen(requested: "s2", top: "s1"))
    }

    @Test func backingOutOfAPushedFlowRemovesItsCoordinator() throws {
        var s = try TinySession()
        try s.route("startChild")
        try s.route("next")
        #expect(s.names == ["home", "childA", "childB"])
        try s.apply(.back(screen: nil))
        #expect(s.tree == "c0:root(c1:list(c2:child))")
        #expect(s.log == [])
        try s.apply(.back(screen: nil))
        #expect(s.transitions == [Transition(.pop, ["s2"])])
        #expect(s.tree == "c0:root(c1:list)")
        #expect(s.log == ["list:removed child c2"])
    }

    @Test func finishingTellsTheParentWhichPopsBackToItsOwnScreen() throws {
        var s = try TinySession()
        try s.route("startChild")
        try s.route("next")
        try s.route("finish")
        #expect(s.names == ["home"])
        #expect(s.ids == ["s1"])
        #expect(s.transitions == [Transition(.pop, ["s2", "s3"])])
        #expect(s.tree == "c0:root(c1:list)")
        #expect(s.log == ["list:finished child c2 done"])
    }

    @Test func whatAFinishedChildLeavesOnScreenIsRemoved() throws {
        var s = try TinySession()
        try s.route("startChild")
        try s.route("next")
        try s.route("finishLeaving")
        #expect(s.names == ["home"])
        #expect(s.transitions == [Transition(.pop, ["s2", "s3"])])
        #expect(s.tree == "c0:root(c1:list)")
        #expect(s.log == ["list:finished child c2 leave"])
    }

    @Test func aFinishedModalFlowIsDismissed() throws {
        var s = try TinySession()
        try s.route("present")
        try s.route("more")
        try s.route("close")
        #expect(s.names == ["home"])
        #expect(s.transitions == [Transition(.dismiss, ["s2", "s3"])])
        #expect(s.tree == "c0:root(c1:list)")
        #expect(s.log == ["list:finished sheet c2 leave"])
    }

    @Test func idsComeFromTheSessionsGeneratorAndAreNeverReused() throws {
        var s = try TinySession()
        try s.route("startChild")
        try s.apply(.back(screen: nil))
        try s.route("startChild")
        #expect(s.tree == "c0:root(c1:list(c3:child))")
        #expect(s.ids == ["s1", "s3"])
    }
}
