import DemoApp
import Testing
import WayfinderCore

@Suite struct ChangePasswordFlowTests {
    /// Login, then forgot password: `s1` login, `s2` changePassword (coordinator `c2`).
    private func fromLogin() throws -> Driver {
        var d = try Driver(["onboarded": true])
        try d.route("forgotPassword")
        return d
    }

    @Test func passwordsThatDifferShowANotice() throws {
        var d = try fromLogin()
        try d.route("savePassword", ["password": "12345678", "confirm": "12345679"])
        #expect(d.ids == ["s1", "s2"])
        #expect(d.lastTransitions == [t(.update, ["s2"])])
        #expect(d.notices == [Notice(.error, "The passwords do not match.")])
        #expect(d.field("password") == "")
        #expect(d.field("confirm") == "")
        try d.expectNoOp(.trigger(RouteRequest("savePassword", params: ["password": "abcdefgh", "confirm": "abcdefgi"])))
    }

    @Test func aShortPasswordShowsANotice() throws {
        var d = try fromLogin()
        try d.route("savePassword", ["password": "1234567", "confirm": "1234567"])
        #expect(d.lastTransitions == [t(.update, ["s2"])])
        #expect(d.notices == [Notice(.error, "Use at least 8 characters.")])
        // Another failure replaces the notice: an update again.
        try d.route("savePassword", ["password": "1", "confirm": "2"])
        #expect(d.notices == [Notice(.error, "The passwords do not match.")])
        #expect(d.state.revision == 4)
    }

    @Test func savingPushesTheConfirmationAndDoneReturnsToLogin() throws {
        var d = try fromLogin()
        try d.route("savePassword", ["password": "12345678", "confirm": "12345678"])
        #expect(d.stack == ["login", "changePassword", "passwordChanged"])
        #expect(d.lastTransitions == [t(.push, ["s3"])])
        #expect(d.top.routes == ["done"])
        try d.route("done")
        #expect(d.ids == ["s1"])
        #expect(d.lastTransitions == [t(.pop, ["s2", "s3"])])
        #expect(d.tree == "app(auth)")
    }

    @Test func savePasswordNeedsBothParams() throws {
        var d = try fromLogin()
        d.expectRefused(
            route: "savePassword", ["password": "12345678"],
            .invalidParams([InvalidParam(name: "confirm", reason: "is required")]))
    }

    @Test func backFromTheConfirmationReturnsToTheForm() throws {
        var d = try fromLogin()
        try d.route("savePassword", ["password": "12345678", "confirm": "12345678"])
        try d.back()
        #expect(d.ids == ["s1", "s2"])
        #expect(d.tree == "app(auth(changePassword))")
    }

    @Test func backingOutOfChangePasswordRemovesItsCoordinator() throws {
        var d = try fromLogin()
        try d.back("s2")
        #expect(d.ids == ["s1"])
        #expect(d.lastTransitions == [t(.pop, ["s2"])])
        #expect(d.tree == "app(auth)")
    }

    @Test func backingOutOfChangePasswordInProfileRemovesItsCoordinator() throws {
        var d = try Driver.signedIn()
        try d.tab("profile")
        try d.route("changePassword")
        #expect(d.tree == "app(main(home,todos,profile(changePassword)))")
        try d.back()
        #expect(d.stack == ["profile"])
        #expect(d.lastTransitions == [t(.pop, ["s4"])])
        #expect(d.tree == "app(main(home,todos,profile))")
    }
}
