/// A flow as the engine drives it: names, JSON params and screen instances. ``TypedFlow`` is
/// the only kind; the engine's navigator, rendering and catalog need nothing else.
protocol AnyFlow: Sendable {
    var name: String { get }
    /// The Swift type's name, for messages.
    var typeName: String { get }
    /// Owns no screens (the application coordinator, a tab bar): never pruned.
    var isContainer: Bool { get }
    /// Every screen name, in declaration order.
    var screens: [String] { get }
    /// Each screen's values (its case's associated values), by screen name: what clients get in
    /// a screen's `values` and the catalog describes.
    var screenValues: [String: [ParamSpec]] { get }
    /// Every route, with its params and the screens that offer it.
    var routes: [RouteSpec] { get }
    /// Flows it may start (children, then tab flows).
    var children: [String] { get }
    /// Deep-link patterns it opens itself.
    var deepLinks: [String] { get }
    /// What reading its declarations found wrong.
    var problems: [String] { get }

    func start(_ context: inout NavigationContext) throws
    func handle(_ route: RouteRequest, on screen: ScreenInstance, _ context: inout NavigationContext) throws
    func childDidFinish(_ child: FinishedChild, _ context: inout NavigationContext) throws
    /// An effect's result for the flow that asked; `screen` is the asking screen if still shown.
    func complete(_ effect: PendingEffect, _ completion: EffectCompletion, screen: ScreenInstance?, _ context: inout NavigationContext) throws
    /// What happens to a result whose asking screen is gone.
    var staleEffects: StaleEffectRule { get }
    /// Every effect name, in declaration order.
    var effects: [String] { get }
    /// The reply members it declares secret (``Flow/secretReplyMembers``).
    var secretReplyMembers: Set<String> { get }
    /// The signals it wants (``Flow/signals``).
    var signals: [String] { get }
    /// A signal it wants, checked against the app's declaration.
    func receive(_ signal: SignalRequest, _ context: inout NavigationContext) throws
    func openDeepLink(_ link: DeepLink, _ context: inout NavigationContext) throws -> DeepLinkOutcome
    func render(_ screen: ScreenInstance, _ context: NavigationContext) -> ScreenContent
    /// The flow's fallback for a component a client cannot render on `screen`.
    func fallback(for component: Component, on screen: ScreenInstance, _ context: NavigationContext) -> ComponentFallback
    /// Why `screen` is not one of this flow's screens as they are declared now; nil if it is.
    func screenProblem(_ screen: ScreenInstance) -> String?
    /// The routes it accepts while `screen` (its own or a descendant's) is on top.
    func availableRoutes(whenOnTop screen: ScreenInstance, _ context: NavigationContext) -> [RouteSpec]
}

/// A typed ``Flow`` behind the engine's untyped interface: it decodes requests into the flow's
/// route and screen cases, and turns the flow's declarations into the specs the engine checks.
struct TypedFlow<F: Flow>: AnyFlow {
    let flow: F
    let name = F.name
    let typeName = String(describing: F.self)
    let isContainer = F.Screen.self == NoScreens.self
    let screens = F.Screen.caseNames
    let routes: [RouteSpec]
    let screenValues: [String: [ParamSpec]]
    let children: [String]
    let deepLinks: [String]
    let problems: [String]
    /// Each screen's routes, by screen name (a flow has a handful: compared, not hashed).
    private let offered: [(screen: String, routes: [RouteSpec])]
    private let overDescendants: [RouteSpec]
    private let screenCases = CaseTable<F.Screen>()
    private let routeCases = CaseTable<F.Route>()

    init(_ flow: F) {
        self.flow = flow
        var problems: [String] = []
        var params: [String: [ParamSpec]] = [:]
        for name in F.Route.caseNames {
            do {
                let members = try ShapeProbe.members(of: F.Route.self, case: name)
                for member in members where member.name.hasPrefix("_") {
                    problems.append("route '\(name)' of \(F.self) has an unlabelled associated value: label it (the label is the param's name)")
                }
                params[name] = members
            } catch {
                problems.append("route '\(name)' of \(F.self) cannot be read: \(error)")
                params[name] = []
            }
        }
        var screenValues: [String: [ParamSpec]] = [:]
        for name in F.Screen.caseNames {
            let members = (try? ShapeProbe.members(of: F.Screen.self, case: name)) ?? []
            // A screen's values are stored and sent to clients: a secret belongs in a route or an effect.
            for member in members where member.secret {
                problems.append("screen '\(name)' of \(F.self) holds a Secret ('\(member.name)'): screens are stored and shown to clients; keep secrets in routes and effects")
            }
            screenValues[name] = members
        }
        self.screenValues = screenValues
        var onScreens: [String: [String]] = [:]
        var offered: [(String, [String])] = []
        for screen in F.Screen.CodingKeys.allCases {
            var names: [String] = []
            for route in flow.routes(on: screen) {
                if names.contains(route.stringValue) {
                    problems.append("screen '\(screen.stringValue)' of \(F.self) offers route '\(route.stringValue)' twice")
                } else {
                    names.append(route.stringValue)
                    onScreens[route.stringValue, default: []].append(screen.stringValue)
                }
            }
            offered.append((screen.stringValue, names))
        }
        let overNames = flow.routesOverDescendants.map(\.stringValue)
        var specs: [RouteSpec] = []
        for name in F.Route.caseNames {
            specs.append(RouteSpec(name, params: params[name] ?? [], on: Set(onScreens[name] ?? [])))
            if onScreens[name] == nil, !overNames.contains(name) {
                problems.append("route '\(name)' of \(F.self) is offered on no screen")
            }
        }
        self.routes = specs
        self.offered = offered.map { screen, names in (screen, names.compactMap { name in specs.first { $0.name == name } }) }
        self.overDescendants = overNames.compactMap { name in specs.first { $0.name == name } }
        var children: [String] = []
        for name in flow.children.map({ $0.name }) + flow.tabs.map(\.flow) where !children.contains(name) {
            children.append(name)
        }
        self.children = children
        self.deepLinks = flow.deepLinks.map(\.stringValue)
        self.problems = problems
    }

    // MARK: Calling the flow

    /// Runs `body` with a typed context that takes over `context`'s navigator (moved, not copied).
    private func withTyped<T>(
        _ context: inout NavigationContext, screen: ScreenInstance?, _ body: (inout FlowContext<F>) throws -> T
    ) throws -> T {
        let placeholder = NavigationContext(
            coordinator: context.coordinator,
            navigator: Navigator(app: context.navigator.app, state: Navigator.placeholder, decoded: context.navigator.decoded))
        var typed = FlowContext<F>(base: placeholder, screen: screen, declaredChildren: children, screens: screenCases, routes: routeCases)
        swap(&typed.base, &context)
        defer { swap(&typed.base, &context) }
        let result = try body(&typed)
        if let failure = typed.failure { throw failure }
        return result
    }

    func start(_ context: inout NavigationContext) throws {
        try withTyped(&context, screen: nil) { try flow.start(&$0) }
    }

    func handle(_ request: RouteRequest, on screen: ScreenInstance, _ context: inout NavigationContext) throws {
        let route: F.Route
        do {
            route = try routeCases.decode(request.name, request.params)
        } catch let error as JSONValueDecodingError {
            // The engine checked every param's JSON type; what is left is inside a param's value.
            throw NavigationError.invalidParam(error.path.dropFirst().joined(separator: "."), error.reason)
        }
        if screen.coordinator == context.coordinator {
            let own = try decodeScreen(screen)
            try withTyped(&context, screen: screen) { try flow.handle(route, on: own, &$0) }
        } else {
            try withTyped(&context, screen: screen) { try flow.handle(route, overDescendant: screen, &$0) }
        }
    }

    func childDidFinish(_ child: FinishedChild, _ context: inout NavigationContext) throws {
        try withTyped(&context, screen: nil) { try flow.childDidFinish(child, &$0) }
    }

    var staleEffects: StaleEffectRule { flow.staleEffects }
    var effects: [String] { F.Effect.caseNames }
    var secretReplyMembers: Set<String> { F.secretReplyMembers }
    var signals: [String] { flow.signals.map(\.stringValue) }

    func receive(_ request: SignalRequest, _ context: inout NavigationContext) throws {
        let signal: F.App.Signal
        do {
            signal = try CaseTable<F.App.Signal>().decode(request.name, request.params)
        } catch let error as JSONValueDecodingError {
            throw NavigationError.invalidParam(error.path.dropFirst().joined(separator: "."), error.reason)
        }
        try withTyped(&context, screen: nil) { try flow.receive(signal, &$0) }
    }

    func complete(_ effect: PendingEffect, _ completion: EffectCompletion, screen: ScreenInstance?, _ context: inout NavigationContext) throws {
        // Secrets were never stored: the flow gets them empty (it has no use for them now).
        var params = effect.params
        for key in effect.secrets where params[key] == nil { params[key] = .string("") }
        let asked: F.Effect
        do { asked = try F.Effect.decode(case: effect.name, params: params) } catch {
            throw FlowDeclarationError("effect '\(effect.name)' \(effect.params) is not a case of \(F.self).Effect: \(error)")
        }
        let result: EffectResult<F.EffectReply>
        switch completion {
        case .failure(let failure):
            result = .failure(failure)
        case .success(let json):
            if F.EffectReply.self == NoResult.self, let none = NoResult() as? F.EffectReply {
                result = .success(none)
            } else {
                do { result = .success(try JSONValueDecoder().decode(F.EffectReply.self, from: json)) } catch {
                    result = .failure(.unavailable("the reply does not decode as \(F.EffectReply.self): \(error)"))
                }
            }
        }
        try withTyped(&context, screen: screen) { try flow.complete(asked, with: result, &$0) }
    }

    func openDeepLink(_ link: DeepLink, _ context: inout NavigationContext) throws -> DeepLinkOutcome {
        let params = link.params.mapValues(JSONValue.string)
        guard let destination = try? F.App.Link.decode(case: link.pattern, params: params, readsScalarsFromStrings: true) else {
            throw NavigationError.unknownDeepLink(link.url)
        }
        return try withTyped(&context, screen: nil) { try flow.openDeepLink(destination, &$0) }
    }

    func render(_ screen: ScreenInstance, _ context: NavigationContext) -> ScreenContent {
        let own: F.Screen
        do { own = try decodeScreen(screen) } catch { return ScreenContent(title: screen.name, components: []) }
        return flow.render(own, FlowContext<F>(base: context, screen: screen, declaredChildren: children, screens: screenCases, routes: routeCases))
    }

    func fallback(for component: Component, on screen: ScreenInstance, _ context: NavigationContext) -> ComponentFallback {
        guard let own = try? decodeScreen(screen) else { return .generic }
        return flow.fallback(
            for: component, on: own,
            FlowContext<F>(base: context, screen: screen, declaredChildren: children, screens: screenCases, routes: routeCases))
    }

    func screenProblem(_ screen: ScreenInstance) -> String? {
        guard screens.contains(screen.name) else { return "flow '\(name)' has no screen '\(screen.name)'" }
        do { _ = try screenCases.decode(screen.name, screen.params) } catch {
            return "screen '\(screen.name)' of flow '\(name)' does not read its values \(JSONValue.object(screen.params).canonicalString): \(error)"
        }
        return nil
    }

    func availableRoutes(whenOnTop screen: ScreenInstance, _ context: NavigationContext) -> [RouteSpec] {
        guard screen.coordinator == context.coordinator else { return overDescendants }
        for entry in offered where entry.screen == screen.name { return entry.routes }
        return []
    }

    private func decodeScreen(_ screen: ScreenInstance) throws -> F.Screen {
        do {
            return try screenCases.decode(screen.name, screen.params)
        } catch {
            throw FlowDeclarationError("screen '\(screen.name)' \(screen.params) is not a case of \(F.self).Screen: \(error)")
        }
    }
}
