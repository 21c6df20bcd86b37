import Testing
import WayfinderCore

/// Route resolution on a tiny app: the responder chain, parameter checks, no-ops, refusals.
@Suite struct EngineRouteResolutionTests {
    @Test func startShowsTheFirstScreenAtRevisionOne() throws {
        let s = try TinySession()
        #expect(s.tree == "c0:root(c1:list)")
        #expect(s.ids == ["s1"])
        #expect(s.names == ["home"])
        #expect(s.state.revision == 1)
        #expect(s.topRoutes == ["open", "startChild", "present", "noop", "refuse", "shared"])
    }

    @Test func theChildOfTheTopScreenIsAskedBeforeItsParent() throws {
        var s = try TinySession()
        try s.route("startChild")
        #expect(s.tree == "c0:root(c1:list(c2:child))")
        #expect(s.names == ["home", "childA"])
        #expect(s.transitions == [Transition(.push, ["s2"])])
        try s.route("shared")
        #expect(s.log == ["child:shared"])
        try s.route("parentOnly")
        #expect(s.log == ["child:shared", "list:parentOnly"])
    }

    @Test func routesListTheChildsRoutesFirstThenTheParentsWithoutDuplicates() throws {
        var s = try TinySession()
        try s.route("startChild")
        #expect(s.topRoutes == ["shared", "next", "finish", "finishLeaving", "parentOnly"])
    }

    @Test func aRouteNoCoordinatorAcceptsIsUnavailable() throws {
        var s = try TinySession()
        try s.route("startChild")
        s.expectRefused(
            .trigger(RouteRequest("open", params: ["id": 1])),
            .routeUnavailable(route: "open", available: ["shared", "next", "finish", "finishLeaving", "parentOnly"]))
        s.expectRefused(.trigger(RouteRequest("")), .routeUnavailable(route: "", available: s.topRoutes))
    }

    @Test func missingParamsAreListedInDeclarationOrder() throws {
        var s = try TinySession()
        try s.route("open", ["id": 7])
        #expect(s.names == ["home", "item"])
        #expect(s.state.navigation.topScreen?.params == ["id": 7])
        s.expectRefused(
            .trigger(RouteRequest("edit")),
            .invalidParams([InvalidParam(name: "title", reason: "is required"), InvalidParam(name: "count", reason: "is required")]))
    }

    @Test func illTypedParamsAreListedInDeclarationOrder() throws {
        var s = try TinySession()
        try s.route("open", ["id": 7])
        s.expectRefused(
            .trigger(RouteRequest("edit", params: ["count": .double(1.5), "done": "yes", "title": 5])),
            .invalidParams([
                InvalidParam(name: "title", reason: "must be a string, not an integer"),
                InvalidParam(name: "done", reason: "must be a boolean, not a string"),
                InvalidParam(name: "count", reason: "must be an integer, not a number"),
            ]))
        s.expectRefused(
            .trigger(RouteRequest("open", params: ["id": "7"])),
            .routeUnavailable(route: "open", available: ["edit"]))
    }

    @Test func nullCountsAsAbsent() throws {
        var s = try TinySession()
        try s.route("open", ["id": 7])
        s.expectRefused(
            .trigger(RouteRequest("edit", params: ["title": nil, "count": 1])),
            .invalidParams([InvalidParam(name: "title", reason: "is required")]))
        try s.route("edit", ["title": "t", "count": 1, "done": nil])
        #expect(s.log == ["list:edit"])
    }

    @Test func undeclaredParamsAreRefusedAfterTheDeclaredOnes() throws {
        var s = try TinySession()
        s.expectRefused(
            .trigger(RouteRequest("open", params: ["id": 3, "extra": [1, 2]])),
            .invalidParams([InvalidParam(name: "extra", reason: "is not a parameter of route 'open'")]))
        // A route without params takes none; the undeclared come by name, after the declared.
        s.expectRefused(
            .trigger(RouteRequest("noop", params: ["b": 1, "a": "x"])),
            .invalidParams([
                InvalidParam(name: "a", reason: "is not a parameter of route 'noop'"),
                InvalidParam(name: "b", reason: "is not a parameter of route 'noop'"),
            ]))
        try s.route("open", ["id": 7])
        s.expectRefused(
            .trigger(RouteRequest("edit", params: ["title": 5, "count": 1, "colour": "red"])),
            .invalidParams([
                InvalidParam(name: "title", reason: "must be a string, not an integer"),
                InvalidParam(name: "colour", reason: "is not a parameter of route 'edit'"),
            ]))
        // `null` counts as absent, declared or not.
        try s.route("edit", ["title": "t", "count": 1, "colour": nil])
        #expect(s.log == ["list:edit"])
    }

    @Test func aRouteThatChangesNothingKeepsTheRevisionAndGivesNoTransitions() throws {
        var s = try TinySession()
        let before = s.state
        let outcome = try s.route("noop")
        #expect(outcome.changed == false)
        #expect(outcome.transitions == [])
        #expect(outcome.state == before)
        #expect(outcome.state.revision == 1)
    }

    @Test func aChangeIncrementsTheRevisionByOne() throws {
        var s = try TinySession()
        let outcome = try s.route("open", ["id": 1])
        #expect(outcome.changed)
        #expect(outcome.state.revision == 2)
        try s.route("edit", ["title": "x", "count": 2])  // only the log changes
        #expect(s.state.revision == 3)
        #expect(s.transitions == [])
    }

    @Test func aRefusedActionLeavesNoTrace() throws {
        let s = try TinySession()
        // The handler pushed a screen and wrote the log before refusing: none of it sticks.
        s.expectRefused(.trigger(RouteRequest("refuse")), .invalidParam("why", "refused after changing things"))
        var again = s
        try again.route("open", ["id": 1])
        #expect(again.ids == ["s1", "s2"])  // the refused push used no id
    }
}
