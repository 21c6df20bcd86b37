import Testing
import WayfinderCore

// Small flows, each wrong in one way the compiler cannot see, for `Application`'s own check.

private enum Check: AppSchema {
    typealias Link = CheckLink
}

private enum CheckLink: DeepLinkDestination {
    case home, item(id: String), broken(itemID: String)
    enum CodingKeys: String, CodingKey, CaseIterable { case home, item = "items/{id}", broken = "broken/{id}" }
}

private enum OneScreen: FlowScreen {
    case main
    enum CodingKeys: CodingKey, CaseIterable { case main }
}

private struct RootFlow: Flow {
    typealias App = Check
    var children: [any Flow.Type] = [HomeFlow.self]
    var tabs: [TabSpec] = []
    func start(_ flow: inout FlowContext<Self>) throws {}
}

private struct HomeFlow: Flow {
    typealias App = Check
    typealias Screen = OneScreen
    enum Route: FlowRoute {
        case open, orphan
        enum CodingKeys: CodingKey, CaseIterable { case open, orphan }
    }
    var offered: [Route.Name] = [.open, .orphan]
    var deepLinks: [CheckLink.Name] = [.home, .item, .broken]
    func routes(on screen: Screen.Name) -> [Route.Name] { offered }
    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.main) }
    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {}
    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent { ScreenContent(title: "", components: []) }
}

/// Named like HomeFlow.
private struct ImpostorFlow: Flow {
    typealias App = Check
    static let name = "home"
    func start(_ flow: inout FlowContext<Self>) throws {}
}

private struct UnregisteredFlow: Flow {
    typealias App = Check
    func start(_ flow: inout FlowContext<Self>) throws {}
}

/// Keeps a password in a screen, which is stored and sent to clients.
private struct SecretScreenFlow: Flow {
    typealias App = Check
    enum Screen: FlowScreen {
        case confirm(user: String, password: Secret)
        enum CodingKeys: CodingKey, CaseIterable { case confirm }
    }
    func start(_ flow: inout FlowContext<Self>) throws {}
    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent { ScreenContent(title: "", components: []) }
}

private struct UnlabelledFlow: Flow {
    typealias App = Check
    typealias Screen = OneScreen
    enum Route: FlowRoute {
        case pick(String)
        enum CodingKeys: CodingKey, CaseIterable { case pick }
    }
    func routes(on screen: Screen.Name) -> [Route.Name] { [.pick] }
    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.main) }
    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {}
    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent { ScreenContent(title: "", components: []) }
}

@Suite struct ApplicationCheckTests {
    private func problems(_ build: () throws -> Application) -> [String] {
        do {
            _ = try build()
            return []
        } catch let error as ApplicationError {
            return error.problems
        } catch {
            return ["unexpected \(error)"]
        }
    }

    /// The one problem every app below has on top of its own: `broken/{id}` reads `itemID`.
    private let brokenLink = "deep link 'broken/{id}' captures id but its case CheckLink reads itemID"

    @Test func aDeepLinkWhoseCapturesAreNotItsLabelsIsNamed() {
        #expect(problems { try Application(scheme: "check", root: RootFlow(), flows: [HomeFlow()]) } == [brokenLink])
    }

    @Test func twoFlowsWithOneNameAreNamed() {
        let found = problems { try Application(scheme: "check", root: RootFlow(), flows: [HomeFlow(), ImpostorFlow()]) }
        #expect(found == ["HomeFlow and ImpostorFlow are both named 'home'", brokenLink])
    }

    @Test func aChildOrTabThatIsNotRegisteredIsNamed() {
        var root = RootFlow()
        root.children.append(UnregisteredFlow.self)
        root.tabs = [TabSpec(id: "more", title: "More", icon: "ellipsis", flow: UnregisteredFlow.self)]
        let found = problems { try Application(scheme: "check", root: root, flows: [HomeFlow()]) }
        #expect(found == ["RootFlow declares child flow 'unregistered', which is not registered in the application", brokenLink])
    }

    @Test func aDeepLinkNoFlowOpensIsNamed() {
        var home = HomeFlow()
        home.deepLinks = [.home, .broken]
        let found = problems { try Application(scheme: "check", root: RootFlow(), flows: [home]) }
        #expect(found == [
            brokenLink,
            "deep link 'check://items/{id}' is opened by no flow: list it in the deepLinks of the flow that shows it",
        ])
    }

    @Test func aRouteNoScreenOffersAndARouteOfferedTwiceAreNamed() {
        var home = HomeFlow()
        home.offered = [.open, .open]
        let found = problems { try Application(scheme: "check", root: RootFlow(), flows: [home]) }
        #expect(found == [
            brokenLink,
            "screen 'main' of HomeFlow offers route 'open' twice",
            "route 'orphan' of HomeFlow is offered on no screen",
        ])
    }

    @Test func anUnlabelledRouteValueIsNamed() {
        var root = RootFlow()
        root.children.append(UnlabelledFlow.self)
        let found = problems { try Application(scheme: "check", root: root, flows: [HomeFlow(), UnlabelledFlow()]) }
        #expect(found == [
            brokenLink,
            "route 'pick' of UnlabelledFlow has an unlabelled associated value: label it (the label is the param's name)",
        ])
    }

    @Test func aSecretInAScreenIsRefused() {
        var root = RootFlow()
        root.children.append(SecretScreenFlow.self)
        let found = problems { try Application(scheme: "check", root: root, flows: [HomeFlow(), SecretScreenFlow()]) }
        #expect(found == [
            brokenLink,
            "screen 'confirm' of SecretScreenFlow holds a Secret ('password'): screens are stored and shown to clients; keep secrets in routes and effects",
        ])
    }

    @Test func aSchemeThatIsNotAURLSchemeIsNamed() {
        let found = problems { try Application(scheme: "check me", root: RootFlow(), flows: [HomeFlow()]) }
        #expect(found == ["scheme 'check me' is not a URL scheme (letters, digits, +, - and . only)", brokenLink])
    }

    @Test func everyProblemIsListedAtOnceInTheMessage() {
        var home = HomeFlow()
        home.offered = [.open]
        home.deepLinks = [.broken]
        do {
            _ = try Application(scheme: "check", root: RootFlow(), flows: [home, ImpostorFlow()])
            Issue.record("the application was built")
        } catch {
            let message = "\(error)"
            #expect(message.hasPrefix("the application has 5 problems:\n  - "))
            for part in ["'home'", "'check://home'", "'check://items/{id}'", "'orphan'", "broken/{id}"] {
                #expect(message.contains(part), "\(part) in \(message)")
            }
        }
    }

    @Test func theTinyAppPassesTheCheck() {
        #expect(problems { try Application(scheme: "tiny", root: TinyRootFlow(), flows: [TinyListFlow(), TinyChildFlow(), TinySheetFlow()]) } == [])
    }
}
