@testable import DemoApp
import Testing
import WayfinderCore
import WayfinderTesting

/// A flow whose one route pushes two screens: a test must assert both.
private enum Steps: AppSchema {}

private struct StepsFlow: Flow {
    typealias App = Steps
    enum Screen: FlowScreen {
        case first, second, third
        enum CodingKeys: CodingKey, CaseIterable { case first, second, third }
    }
    enum Route: FlowRoute {
        case onwards
        enum CodingKeys: CodingKey, CaseIterable { case onwards }
    }
    func routes(on screen: Screen.Name) -> [Route.Name] { screen == .first ? [.onwards] : [] }
    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.first) }
    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        flow.push(.second)
        flow.push(.third)
    }
    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        ScreenContent(title: Screen.name(of: screen), components: [])
    }
}

/// A flow whose form sends more than its route declares: a field and a toggle beside the one
/// parameter of its submit button's route, and a row whose action names an extra parameter.
private enum Forms: AppSchema {}

private struct FormFlow: Flow {
    typealias App = Forms
    enum Screen: FlowScreen {
        case start, form
        enum CodingKeys: CodingKey, CaseIterable { case start, form }
    }
    enum Route: FlowRoute {
        case open
        case save(name: String)
        case show(id: String)
        enum CodingKeys: CodingKey, CaseIterable { case open, save, show }
    }
    func routes(on screen: Screen.Name) -> [Route.Name] { screen == .start ? [.open] : [.save, .show] }
    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.start) }
    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        if case .open = route { flow.push(.form) }
    }
    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        guard screen == .form else { return ScreenContent(title: "Start", components: [flow.button("Open", route: .open)]) }
        return ScreenContent(title: "Form", components: [
            .field(name: "name", label: "Name", value: "", kind: .text),
            .field(name: "nickname", label: "Nickname", value: "", kind: .text),
            .toggle(name: "subscribe", label: "Subscribe", value: false),
            flow.button("Save", submitting: .save),
            .list([.init(id: "1", title: "One", action: Component.Action("show", params: ["id": "1", "colour": "red", "size": nil]))]),
        ])
    }
}

@Suite struct TestSessionTests {
    private func steps() throws -> TestSession {
        try TestSession(try Application(scheme: "steps", root: StepsFlow(), flows: []))
    }

    @Test func aStepThatPushesOneScreenMoreThanAssertedFails() throws {
        var session = try steps()
        withKnownIssue("the second push is not asserted") {
            try session.send(StepsFlow.Route.onwards) {
                $0.stack = ["first", "second"]
                $0.navigation = "[first, second]"
                $0.transitions = ["push second"]
            }
        }
        #expect(session.snapshot.stack == ["first", "second", "third"], "the session moved on to the real state")
    }

    @Test func aStepWhoseEveryChangeIsAssertedPasses() throws {
        var session = try steps()
        try session.send(StepsFlow.Route.onwards) {
            $0.stack = ["first", "second", "third"]
            $0.navigation = "[first, second, third]"
            $0.transitions = ["push second", "push third"]
        }
    }

    @Test func anUnassertedChangeToTheContextFails() throws {
        var session = try TestSession(demoApplication)
        try session.send(OnboardingFlow.Route.next) {
            $0.stack.append("walkthrough(page: 2)")
            $0.navigation = "[walkthrough(page: 1), walkthrough(page: 2)]"
            $0.transitions = ["push walkthrough(page: 2)"]
        }
        withKnownIssue("onboarded changed, and the screens") {
            try session.send(OnboardingFlow.Route.skip) {
                $0.transitions = ["setRoot login"]
            }
        }
    }

    @Test func aWrongPasswordForARegisteredAddressIsTheFlowsNotice() throws {
        var session = try TestSession(demoApplication, context: ["onboarded": true])
        try session.send(AuthFlow.Route.login(email: "ada@example.com", password: "not-her-password")) {
            $0.effects = [#"auth: signIn(email: "ada@example.com")"#]
        }
        try session.complete(with: UserStore.Answer.refused) {
            $0.effects = []
            $0.notice = Notice(.error, "That email and password do not match.")
            $0.form = ["email": "ada@example.com"]
            $0.transitions = ["update login"]
        }
        withKnownIssue("an effect the test does not assert fails it") {
            try session.send(AuthFlow.Route.login(email: "ada@example.com", password: "12345678")) {
                $0.notice = nil
            }
        }
    }

    @Test func aServiceThatIsDownIsTheFlowsNoticeToo() throws {
        var session = try TestSession(demoApplication, context: ["onboarded": true])
        try session.send(AuthFlow.Route.register) {
            $0.stack = ["login", "register"]
            $0.navigation = "[login, register]"
            $0.transitions = ["push register"]
        }
        try session.send(AuthFlow.Route.signUp(name: "Ada", email: "ada@example.com", password: "12345678")) {
            $0.effects = [#"auth: signUp(email: "ada@example.com", name: "Ada")"#]
        }
        try session.fail(with: .timedOut) {
            $0.effects = []
            $0.notice = Notice(.error, "Creating the account is not possible right now. Try again in a moment.")
            $0.form = ["name": "Ada", "email": "ada@example.com"]
            $0.transitions = ["update register"]
        }
    }

    @Test func aScreenWhoseTapWouldSendAnUndeclaredParamFailsTheStep() throws {
        var session = try TestSession(try Application(scheme: "forms", root: FormFlow(), flows: []))
        #expect(TestSession.undeclaredParams(in: session.state, engine: session.engine) == [])
        withKnownIssue("the form sends nickname and subscribe to save, and colour to show") {
            try session.send(FormFlow.Route.open) {
                $0.stack = ["start", "form"]
                $0.navigation = "[start, form]"
                $0.transitions = ["push form"]
            }
        }
        #expect(TestSession.undeclaredParams(in: session.state, engine: session.engine) == [
            "screen s2 (form) sends 'nickname' to route 'save', which does not declare it",
            "screen s2 (form) sends 'subscribe' to route 'save', which does not declare it",
            "screen s2 (form) sends 'colour' to route 'show', which does not declare it",
        ])
    }

    @Test func aContextMemberAClientMayNotSetIsRefusedAsTheServerRefusesIt() throws {
        #expect(throws: NavigationError.self) { try TestSession(demoApplication, context: ["onboarded": true, "authenticated": true]) }
        #expect(throws: NavigationError.self) { try TestSession(demoApplication, context: ["user": "a@b.c"]) }
        let signedIn = try TestSession(demoApplication, context: ["onboarded": true], identity: Identity(subject: "ada", issuer: "tests", claims: ["email": "ada@example.com"]))
        #expect(signedIn.snapshot.context["user"] == "ada@example.com")
        #expect(signedIn.snapshot.stack == ["dashboard"])
    }

    @Test func aRefusedStepThrowsTheTypedErrorAndChangesNothing() throws {
        var session = try TestSession(demoApplication, context: ["onboarded": true], identity: Identity(subject: "a@b.c", issuer: "tests"))
        let before = session.snapshot
        #expect(throws: NavigationError.routeUnavailable(route: "next", available: ["openTodo"])) {
            try session.send(OnboardingFlow.Route.next)
        }
        #expect(session.snapshot == before)
    }

    @Test func theSampleAppsStoryStepByStep() throws {
        var session = try TestSession(demoApplication, context: ["onboarded": true])
        #expect(session.snapshot.stack == ["login"])
        try session.send(AuthFlow.Route.login(email: "ada@example.com", password: "short")) {
            $0.notice = Notice(.error, "Enter an email address with an @ and a password of at least 8 characters.")
            $0.form = ["email": "ada@example.com"]
            $0.transitions = ["update login"]
        }
        // Signing in asks the account service (an effect): the test sees it asked, then feeds
        // the service's answer.
        try session.send(AuthFlow.Route.login(email: "ada@example.com", password: "12345678")) {
            $0.effects = [#"auth: signIn(email: "ada@example.com")"#]
        }
        try session.complete(with: UserStore.Answer.signedIn) {
            $0.effects = []
            $0.stack = ["dashboard"]
            $0.navigation = "tabs(*home: [dashboard], todos: [todoList], profile: [profile])"
            $0.coordinators = "app(main(home, todos, profile))"
            $0.context["authenticated"] = true
            $0.context["user"] = "ada@example.com"
            $0.notice = nil
            $0.form = [:]
            $0.transitions = ["setRoot dashboard"]
        }
        try session.selectTab("todos") {
            $0.stack = ["todoList"]
            $0.navigation = "tabs(home: [dashboard], *todos: [todoList], profile: [profile])"
            $0.transitions = ["selectTab todos: todoList"]
        }
        try session.open(DemoLink.todo(id: "2")) {
            $0.stack = ["todoList", #"todoDetail(id: "2")"#]
            $0.navigation = #"tabs(home: [dashboard], *todos: [todoList, todoDetail(id: "2")], profile: [profile])"#
            $0.transitions = [#"push todoDetail(id: "2")"#]
        }
        try session.back {
            $0.stack = ["todoList"]
            $0.navigation = "tabs(home: [dashboard], *todos: [todoList], profile: [profile])"
            $0.transitions = [#"pop todoDetail(id: "2")"#]
        }
    }
}
