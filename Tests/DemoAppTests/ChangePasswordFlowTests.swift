@testable import DemoApp
import Testing
import WayfinderCore

@Suite struct ChangePasswordFlowTests {
    /// Signed in as `a@b.c`, the profile's change password: `s4` changePassword (coordinator `c5`).
    private func fromProfile() throws -> Driver {
        var d = try Driver.signedIn()
        try d.tab("profile")
        try d.route("changePassword")
        #expect(d.stack == ["profile", "changePassword"])
        return d
    }

    /// Login, then forgot password: `s1` login, `s2` forgotPassword (coordinator `c2`).
    private func fromLogin() throws -> Driver {
        var d = try Driver(["onboarded": true])
        try d.route("forgotPassword")
        #expect(d.stack == ["login", "forgotPassword"])
        return d
    }

    @Test func passwordsThatDifferShowANotice() throws {
        var d = try fromProfile()
        try d.route("savePassword", ["current": "12345678", "password": "12345678", "confirm": "12345679"])
        #expect(d.stack == ["profile", "changePassword"])
        #expect(d.notices == [Notice(.error, "The passwords do not match.")])
        #expect(d.field("password") == "")
        #expect(d.field("confirm") == "")
        try d.expectNoOp(.trigger(RouteRequest("savePassword", params: ["current": "x", "password": "abcdefgh", "confirm": "abcdefgi"])))
    }

    @Test func aShortPasswordShowsANotice() throws {
        var d = try fromProfile()
        try d.route("savePassword", ["current": "12345678", "password": "1234567", "confirm": "1234567"])
        #expect(d.notices == [Notice(.error, "Use at least 8 characters.")])
        try d.route("savePassword", ["current": "12345678", "password": "1", "confirm": "2"])
        #expect(d.notices == [Notice(.error, "The passwords do not match.")])
    }

    @Test func aWrongCurrentPasswordChangesNothing() throws {
        var d = try fromProfile()
        try d.route("savePassword", ["current": "not mine", "password": "abcdefgh", "confirm": "abcdefgh"])
        #expect(d.stack == ["profile", "changePassword"])
        #expect(d.notices == [Notice(.error, "That is not your current password.")])
        var other = try Driver(["onboarded": true])
        try other.route("login", ["email": "a@b.c", "password": "12345678"])
        #expect(other.stack == ["dashboard"], "the old password still works")
    }

    @Test func savingReallyChangesThePassword() throws {
        var d = try fromProfile()
        try d.route("savePassword", ["current": "12345678", "password": "abcdefgh", "confirm": "abcdefgh"])
        #expect(d.stack == ["profile", "changePassword", "passwordChanged"])
        #expect(d.top.routes == ["done"])
        try d.route("done")
        #expect(d.stack == ["profile"])
        #expect(d.tree == "app(main(home,todos,profile))")
        try d.route("logout")
        try d.route("login", ["email": "a@b.c", "password": "12345678"])
        #expect(d.notices == [Notice(.error, AuthFlow.refused)])
        try d.route("login", ["email": "a@b.c", "password": "abcdefgh"])
        #expect(d.stack == ["dashboard"])
    }

    @Test func forgotPasswordMailsACodeThatSetsTheNewPassword() throws {
        var d = try fromLogin()
        try d.route("sendCode", ["email": "a@b.c"])
        #expect(d.stack == ["login", "forgotPassword", "resetPassword"])
        #expect(d.top.routes == ["resetPassword"])
        let code = try #require(d.code(to: "a@b.c"))
        try d.route("resetPassword", ["code": "999999" == code ? "111111" : "999999", "password": "abcdefgh", "confirm": "abcdefgh"])
        #expect(d.notices == [Notice(.error, AuthFlow.wrongCode)])
        try d.route("resetPassword", ["code": .string(code), "password": "abcdefgh", "confirm": "abcdefgh"])
        #expect(d.stack == ["login", "forgotPassword", "resetPassword", "passwordChanged"])
        try d.route("done")
        #expect(d.ids == ["s1"])
        #expect(d.tree == "app(auth)")
        try d.route("login", ["email": "a@b.c", "password": "abcdefgh"])
        #expect(d.stack == ["dashboard"])
    }

    @Test func forgotPasswordOfAnUnknownAddressLooksTheSameAndNoCodeWorks() throws {
        var d = try fromLogin()
        try d.route("sendCode", ["email": "nobody@example.com"])
        #expect(d.stack == ["login", "forgotPassword", "resetPassword"])
        #expect(d.services.mailer.outbox.isEmpty)
        try d.route("resetPassword", ["code": "123456", "password": "abcdefgh", "confirm": "abcdefgh"])
        #expect(d.notices == [Notice(.error, AuthFlow.wrongCode)])
    }

    @Test func resettingThePasswordLiftsALock() throws {
        var d = try Driver(["onboarded": true])
        for attempt in 1...Attempts.lockAfter { try d.route("login", ["email": "a@b.c", "password": .string("wrong guess \(attempt)")]) }
        #expect(d.stack == ["login", "unlock"])
        try d.back()
        try d.route("forgotPassword")
        try d.route("sendCode", ["email": "a@b.c"])
        let code = try #require(d.code(to: "a@b.c"))
        try d.route("resetPassword", ["code": .string(code), "password": "abcdefgh", "confirm": "abcdefgh"])
        try d.route("done")
        try d.route("login", ["email": "a@b.c", "password": "abcdefgh"])
        #expect(d.stack == ["dashboard"])
    }

    @Test func savePasswordNeedsEveryParam() throws {
        var d = try fromProfile()
        d.expectRefused(
            route: "savePassword", ["password": "12345678"],
            .invalidParams([InvalidParam(name: "current", reason: "is required"), InvalidParam(name: "confirm", reason: "is required")]))
    }

    @Test func backFromTheConfirmationReturnsToTheForm() throws {
        var d = try fromProfile()
        try d.route("savePassword", ["current": "12345678", "password": "12345678", "confirm": "12345678"])
        try d.back()
        #expect(d.stack == ["profile", "changePassword"])
        #expect(d.tree == "app(main(home,todos,profile(changePassword)))")
    }

    @Test func backingOutOfForgotPasswordRemovesItsCoordinator() throws {
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
