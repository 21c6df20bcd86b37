import DemoApp
import Testing
import WayfinderCore

@Suite struct AuthFlowTests {
    static let rule = Notice(.error, "Enter an email address with an @ and a password of at least 8 characters.")

    private func loggedOut() throws -> Driver {
        let d = try Driver(["onboarded": true])
        #expect(d.ids == ["s1"])
        #expect(d.tree == "app(auth)")
        return d
    }

    @Test func loginSucceedsAndMainTakesTheRoot() throws {
        var d = try loggedOut()
        try d.route("login", ["email": "ada@example.com", "password": "12345678"])
        #expect(d.stack == ["dashboard"])
        #expect(d.lastTransitions == [t(.setRoot, ["s2"])])
        #expect(d.tree == "app(main(home,todos,profile))")
        #expect(d.context["authenticated"] == true)
        #expect(d.context["user"] == "ada@example.com")
        #expect(d.state.revision == 2)
    }

    @Test func failedLoginShowsANoticeKeepsTheEmailButNotThePassword() throws {
        var d = try loggedOut()
        try d.route("login", ["email": "ada@example.com", "password": "short"])
        #expect(d.ids == ["s1"])
        #expect(d.lastTransitions == [t(.update, ["s1"])])
        #expect(d.state.revision == 2)
        #expect(d.notices == [Self.rule])
        #expect(d.field("email") == "ada@example.com")
        #expect(d.field("password") == "")
        #expect(d.state.navigation.topScreen?.form == ["email": "ada@example.com"])
        #expect(d.context["authenticated"] == false)
    }

    @Test func anEmailWithoutAnAtFails() throws {
        var d = try loggedOut()
        try d.route("login", ["email": "ada.example.com", "password": "long enough"])
        #expect(d.notices == [Self.rule])
        #expect(d.stack == ["login"])
    }

    @Test func sevenCharactersAreTooShortAndEightAreEnough() throws {
        var d = try loggedOut()
        try d.route("login", ["email": "a@b", "password": "1234567"])
        #expect(d.stack == ["login"])
        try d.route("login", ["email": "a@b", "password": "12345678"])
        #expect(d.stack == ["dashboard"])
    }

    @Test func repeatingTheSameFailureIsANoOp() throws {
        var d = try loggedOut()
        try d.route("login", ["email": "a@b.c", "password": "x"])
        try d.expectNoOp(.trigger(RouteRequest("login", params: ["email": "a@b.c", "password": "y"])))
        // A different email is a different screen: an update again.
        try d.route("login", ["email": "z@b.c", "password": "x"])
        #expect(d.lastTransitions == [t(.update, ["s1"])])
        #expect(d.state.revision == 3)
    }

    @Test func loginNeedsBothParamsAsStrings() throws {
        var d = try loggedOut()
        d.expectRefused(
            route: "login", [:],
            .invalidParams([InvalidParam(name: "email", reason: "is required"), InvalidParam(name: "password", reason: "is required")]))
        d.expectRefused(
            route: "login", ["email": 1, "password": nil],
            .invalidParams([
                InvalidParam(name: "email", reason: "must be a string, not an integer"),
                InvalidParam(name: "password", reason: "is required"),
            ]))
    }

    @Test func registerPushesTheRegisterScreen() throws {
        var d = try loggedOut()
        try d.route("register")
        #expect(d.stack == ["login", "register"])
        #expect(d.lastTransitions == [t(.push, ["s2"])])
        #expect(d.top.routes == ["signUp"])
        #expect(d.top.presentation == .push)
    }

    @Test(arguments: [
        (["name": "  ", "email": "a@b.c", "password": "12345678"] as JSONObject, "Enter your name."),
        (["name": "Ada", "email": "nope", "password": "12345678"] as JSONObject, AuthFlowTests.rule.text),
        (["name": "Ada", "email": "a@b.c", "password": "1234"] as JSONObject, AuthFlowTests.rule.text),
    ])
    func signUpRefusesWhatTheUserCanFix(params: JSONObject, message: String) throws {
        var d = try loggedOut()
        try d.route("register")
        try d.route("signUp", params)
        #expect(d.stack == ["login", "register"])
        #expect(d.lastTransitions == [t(.update, ["s2"])])
        #expect(d.notices == [Notice(.error, message)])
        #expect(d.field("name") == params["name"]?.stringValue)
        #expect(d.field("email") == params["email"]?.stringValue)
        #expect(d.field("password") == "")
        #expect(d.state.navigation.topScreen?.form["password"] == nil)
        try d.expectNoOp(.trigger(RouteRequest("signUp", params: params)))
    }

    @Test func signUpSucceedsAndSignsIn() throws {
        var d = try loggedOut()
        try d.route("register")
        try d.route("signUp", ["name": "Ada", "email": "ada@example.com", "password": "12345678"])
        #expect(d.stack == ["dashboard"])
        #expect(d.lastTransitions == [t(.setRoot, ["s3"])])
        #expect(d.context["user"] == "ada@example.com")
        #expect(d.context["authenticated"] == true)
        #expect(d.tree == "app(main(home,todos,profile))")
    }

    @Test func signUpListsEveryBadParamInCatalogOrder() throws {
        var d = try loggedOut()
        try d.route("register")
        d.expectRefused(
            route: "signUp", ["password": true],
            .invalidParams([
                InvalidParam(name: "name", reason: "is required"),
                InvalidParam(name: "email", reason: "is required"),
                InvalidParam(name: "password", reason: "must be a string, not a boolean"),
            ]))
    }

    @Test func forgotPasswordPushesTheChangePasswordFlow() throws {
        var d = try loggedOut()
        try d.route("forgotPassword")
        #expect(d.stack == ["login", "changePassword"])
        #expect(d.lastTransitions == [t(.push, ["s2"])])
        #expect(d.tree == "app(auth(changePassword))")
        #expect(d.top.coordinator == "c2")
        #expect(d.top.routes == ["savePassword"])
    }

    @Test func backFromRegisterReturnsToLogin() throws {
        var d = try loggedOut()
        try d.route("register")
        try d.back("s2")
        #expect(d.ids == ["s1"])
        #expect(d.lastTransitions == [t(.pop, ["s2"])])
        #expect(d.tree == "app(auth)")
    }
}
