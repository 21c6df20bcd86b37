@testable import DemoApp
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

    @Test func signUpMailsACodeAndTheAccountExistsOnceItIsEntered() throws {
        var d = try loggedOut()
        try d.route("register")
        try d.route("signUp", ["name": "Ada", "email": "new@example.com", "password": "12345678"])
        #expect(d.stack == ["login", "register", "confirmSignUp"])
        #expect(d.lastTransitions == [t(.push, ["s3"])])
        #expect(d.context["authenticated"] == false)
        let code = try #require(d.code(to: "new@example.com"))
        try d.route("confirmSignUp", ["code": "000000" == code ? "111111" : "000000"])
        #expect(d.notices == [Notice(.error, AuthFlow.wrongCode)])
        try d.route("confirmSignUp", ["code": .string(code)])
        #expect(d.stack == ["dashboard"])
        #expect(d.context["user"] == "new@example.com")
        #expect(d.context["authenticated"] == true)
        #expect(d.tree == "app(main(home,todos,profile))")
    }

    @Test func signUpWithATakenAddressAnswersTheSameAndMailsNoCode() throws {
        var taken = try loggedOut(), free = try loggedOut()
        try taken.route("register")
        try taken.route("signUp", ["name": "Eve", "email": "ada@example.com", "password": "12345678"])
        try free.route("register")
        try free.route("signUp", ["name": "Eve", "email": "new@example.com", "password": "12345678"])
        #expect(taken.stack == free.stack)
        #expect(taken.lastTransitions == free.lastTransitions)
        #expect(taken.top.components.map { "\($0)".replacingOccurrences(of: "ada@example.com", with: "new@example.com") }
            == free.top.components.map { "\($0)" })
        #expect(taken.code(to: "ada@example.com") == nil, "the owner gets a note, no code")
        #expect(taken.services.mailer.outbox.map(\.subject) == ["You already have an account"])
        try taken.route("confirmSignUp", ["code": "123456"])
        #expect(taken.notices == [Notice(.error, AuthFlow.wrongCode)])
        try taken.route("confirmSignUp", ["code": "123456"])
        #expect(taken.context["authenticated"] == false)
    }

    @Test func anUnknownAddressIsRefusedWithTheWrongPasswordsNotice() throws {
        var unknown = try loggedOut(), known = try loggedOut()
        try unknown.route("login", ["email": "nobody@example.com", "password": "12345678"])
        try known.route("login", ["email": "ada@example.com", "password": "not her password"])
        #expect(unknown.stack == ["login"])
        #expect(unknown.context["authenticated"] == false)
        #expect(unknown.notices == [Notice(.error, "That email and password do not match.")])
        #expect(known.notices == unknown.notices)
        #expect(known.lastTransitions == unknown.lastTransitions)
    }

    @Test func guessesAreThrottledThenTheAddressIsLockedUntilTheMailedCode() throws {
        var d = try loggedOut()
        for attempt in 1...Attempts.lockAfter - 1 {
            try d.route("login", ["email": "ada@example.com", "password": .string("wrong guess \(attempt)")])
            let expected = attempt <= Attempts.free ? AuthFlow.refused : AuthFlow.throttled
            #expect(d.notices == [Notice(.error, expected)], "attempt \(attempt)")
        }
        try d.route("login", ["email": "ada@example.com", "password": "one more guess"])
        #expect(d.stack == ["login", "unlock"])
        try d.back()
        // Locked: the right password does not get in either.
        try d.route("login", ["email": "ada@example.com", "password": .string(Driver.password)])
        #expect(d.stack == ["login", "unlock"])
        #expect(d.context["authenticated"] == false)
        let code = try #require(d.code(to: "ada@example.com"))
        try d.route("unlock", ["code": "not it", "password": .string(Driver.password)])
        #expect(d.notices == [Notice(.error, AuthFlow.wrongCode)])
        try d.route("unlock", ["code": .string(code), "password": .string(Driver.password)])
        #expect(d.stack == ["dashboard"])
    }

    @Test func anUnknownAddressLocksTheSameWayAndNoMailGoesOut() throws {
        var d = try loggedOut()
        for attempt in 1...Attempts.lockAfter { try d.route("login", ["email": "nobody@example.com", "password": .string("wrong guess \(attempt)")]) }
        #expect(d.stack == ["login", "unlock"])
        #expect(d.services.mailer.outbox.isEmpty)
    }

    @Test func theWaitDoublesAndAttemptsGoAheadOnceItPassed() throws {
        let time = ManualClock()
        var d = try Driver(["onboarded": true], clock: time.clock)
        for attempt in 1...Attempts.free { try d.route("login", ["email": "ada@example.com", "password": .string("wrong guess \(attempt)")]) }
        try d.route("login", ["email": "ada@example.com", "password": .string(Driver.password)])
        #expect(d.notices == [Notice(.error, AuthFlow.throttled)])
        time.advance(by: .seconds(2))  // the second throttled attempt doubled the wait to 2 s
        try d.route("login", ["email": "ada@example.com", "password": .string(Driver.password)])
        #expect(d.stack == ["dashboard"])
    }

    @Test func oneSessionGuessingManyAddressesWaitsToo() throws {
        var d = try loggedOut()
        for n in 1...UserStore.sessionFree { try d.route("login", ["email": .string("user\(n)@example.com"), "password": "12345678"]) }
        try d.route("login", ["email": "ada@example.com", "password": .string(Driver.password)])
        #expect(d.notices == [Notice(.error, AuthFlow.throttled)])
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
        #expect(d.stack == ["login", "forgotPassword"])
        #expect(d.lastTransitions == [t(.push, ["s2"])])
        #expect(d.tree == "app(auth(changePassword))")
        #expect(d.top.coordinator == "c2")
        #expect(d.top.routes == ["sendCode"])
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
