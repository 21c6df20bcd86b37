/// A coordinator's behaviour: what a Swift developer writes for each flow of an app.
///
/// A flow is the server-side twin of an iOS coordinator. It declares its screens and routes as
/// Swift enums, shows its first screen when it starts, handles the routes its screens offer
/// (an exhaustive `switch`, as XCoordinator's `prepareTransition(for:)`), is told when a child
/// flow finishes, and renders its screens. It holds no state itself: everything it changes goes
/// through the ``FlowContext`` it is handed, which records the transitions.
///
/// ```swift
/// struct GreetingFlow: Flow {
///     typealias App = Greeting
///     enum Screen: FlowScreen { case hello, waved(name: String) … }
///     enum Route: FlowRoute { case wave(name: String) … }
///     func routes(on screen: Screen.Name) -> [Route.Name] { screen == .hello ? [.wave] : [] }
///     func start(_ flow: inout FlowContext<Self>) throws { flow.show(.hello) }
///     func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
///         switch route { case .wave(let name): flow.push(.waved(name: name)) }
///     }
///     func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent { … }
/// }
/// ```
///
/// The catalog (`/v1/flows`) is derived from these declarations, and ``Application`` checks at
/// start what the compiler cannot (see ``ApplicationError``).
public protocol Flow<App>: Sendable {
    /// The app-wide types this flow shares with the others: context, model, deep links.
    associatedtype App: AppSchema
    /// The screens this flow shows. A flow without screens is a container (the application
    /// coordinator, a tab bar): it only starts children and is never removed for owning nothing.
    associatedtype Screen: FlowScreen = NoScreens
    /// The routes this flow handles.
    associatedtype Route: FlowRoute = NoRoutes
    /// The coordinator's own data (MVVM-C's view model), kept in the coordinator tree.
    associatedtype Data: FlowData = NoData
    /// What the flow finishes with; its parent reads it with ``FinishedChild/result(of:)``.
    associatedtype Result: Codable & Sendable & Hashable = NoResult
    /// The work this flow asks the outside world to do (``FlowContext/perform(_:)``).
    associatedtype Effect: FlowEffect = NoEffects
    /// What the services answer to this flow's effects.
    associatedtype EffectReply: Codable & Sendable & Hashable = NoResult

    /// The members of this flow's replies that are secrets (a token the account service returns):
    /// at any depth of a reply's JSON, a member of one of these names reads `[redacted]` in the
    /// journal, history and replay bundles. The flow sees the reply as the service gave it.
    static var secretReplyMembers: Set<String> { get }

    /// The flow's name in the coordinator tree and the catalog. By default the type's name
    /// without a `Flow` suffix, starting in lower case: `ChangePasswordFlow` is `changePassword`.
    static var name: String { get }
    /// Flows this flow may start as children (tab flows are added from ``tabs``).
    var children: [any Flow.Type] { get }
    /// The tabs of the tab bar this flow shows (``FlowContext/showTabs(selected:)``).
    var tabs: [TabSpec] { get }
    /// The deep-link destinations this flow opens itself (not those it only forwards).
    var deepLinks: [App.Link.Name] { get }
    /// The app's signals this flow handles (``receive(_:_:)``). A signal goes to the deepest
    /// coordinator whose flow wants it: the top screen's chain first, then the rest of the tree.
    var signals: [App.Signal.Name] { get }

    /// The routes offered while `screen`, one of this flow's own, is on top.
    func routes(on screen: Screen.Name) -> [Route.Name]
    /// What happens to an effect's result when the screen that asked for it is gone:
    /// ``StaleEffectRule/drop`` by default. (A result whose coordinator is gone is always dropped.)
    var staleEffects: StaleEffectRule { get }

    /// Routes this flow also offers while a screen of one of its descendants is on top (the
    /// responder chain: the child is asked first). Handled by ``handle(_:overDescendant:_:)``.
    var routesOverDescendants: [Route.Name] { get }

    /// Shows the first screen (``FlowContext/show(_:)``) or starts children.
    func start(_ flow: inout FlowContext<Self>) throws
    /// Handles a route offered by `screen`, one of this flow's own, while it was on top.
    /// The route's parameters were decoded by the engine: a flow never sees a malformed route.
    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws
    /// Handles one of ``routesOverDescendants`` offered while a descendant's `screen` was on top.
    func handle(_ route: Route, overDescendant screen: ScreenInstance, _ flow: inout FlowContext<Self>) throws
    /// An effect this flow asked for came back: the reply, or why there is none. The screen
    /// that asked (``FlowContext/screen``) is on hand if it is still there.
    func complete(_ effect: Effect, with result: EffectResult<EffectReply>, _ flow: inout FlowContext<Self>) throws
    /// One of ``signals`` came: the backend's news, checked against its declaration. The flow
    /// changes what it likes, as for a route (no screen asked: ``FlowContext/screen`` is nil).
    func receive(_ signal: App.Signal, _ flow: inout FlowContext<Self>) throws
    /// A child finished by itself, or was removed because its last screen left.
    func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws
    /// Opens a deep link, defers it, forwards it to a child (``FlowContext/offer(_:to:)``), or declines it.
    func openDeepLink(_ link: App.Link, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome
    /// The title and components of one of this flow's screens. Keep it a pure function of the
    /// screen and what `flow` shows (context, model, data): the server reuses a screen's JSON
    /// while those are unchanged.
    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent
    /// What a client that cannot render `component` (an older app) is shown instead on `screen`,
    /// one of this flow's own. By default ``ComponentFallback/generic``; asked only for such clients.
    func fallback(for component: Component, on screen: Screen, _ flow: FlowContext<Self>) -> ComponentFallback
}

extension Flow {
    public static var name: String { defaultFlowName(String(describing: Self.self)) }
    public static var secretReplyMembers: Set<String> { [] }
    public var children: [any Flow.Type] { [] }
    public var tabs: [TabSpec] { [] }
    public var deepLinks: [App.Link.Name] { [] }
    public var signals: [App.Signal.Name] { [] }
    public func receive(_ signal: App.Signal, _ flow: inout FlowContext<Self>) throws {
        throw FlowDeclarationError("\(Self.self) wants signal '\(App.Signal.name(of: signal))' but does not implement receive(_:_:)")
    }
    public func routes(on screen: Screen.Name) -> [Route.Name] { [] }
    public var routesOverDescendants: [Route.Name] { [] }
    public var staleEffects: StaleEffectRule { .drop }
    public func complete(_ effect: Effect, with result: EffectResult<EffectReply>, _ flow: inout FlowContext<Self>) throws {}

    public func handle(_ route: Route, overDescendant screen: ScreenInstance, _ flow: inout FlowContext<Self>) throws {
        throw FlowDeclarationError(
            "\(Self.self) offers route '\(Route.name(of: route))' over its descendants' screens but does not implement handle(_:overDescendant:_:)")
    }
    public func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws {}
    public func openDeepLink(_ link: App.Link, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome { .declined }
}

extension Flow where Route == NoRoutes {
    public func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
    }
}

extension Flow where Screen == NoScreens {
    public func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        ScreenContent(title: "", components: [])
    }
}

/// `AuthFlow` → `auth`, `ChangePasswordFlow` → `changePassword`.
func defaultFlowName(_ typeName: String) -> String {
    var name = Substring(typeName)
    if name.hasSuffix("Flow"), name.count > 4 { name = name.dropLast(4) }
    guard let first = name.first else { return typeName }
    return first.lowercased() + name.dropFirst()
}

/// A flow's declarations contradict what it did (an undeclared child, a route case its
/// `CodingKeys` leaves out): a programming error, refused like any failed action.
public struct FlowDeclarationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    /// A refusal that says which declaration contradicts what the flow did.
    public init(_ description: String) { self.description = description }
}

/// What a flow renders for a screen.
public struct ScreenContent: Sendable, Hashable {
    /// The screen's title (the navigation bar's).
    public var title: String
    /// What the screen shows, top to bottom, in the vocabulary clients render.
    public var components: [Component]
    /// A screen's content.
    public init(title: String, components: [Component]) {
        self.title = title
        self.components = components
    }
}

/// A child coordinator that is gone, as its parent learns of it.
public struct FinishedChild: Sendable, Hashable {
    /// How the child went.
    public enum Reason: Sendable, Hashable {
        /// The child called ``FlowContext/finish(_:)``; its screens are still shown until the
        /// parent replaces or pops them (leftovers are removed after `childDidFinish`).
        case finished(JSONValue)
        /// The child's last screen left (back, a tab reset, a deep link); nothing of it is shown.
        case removed
    }
    /// The child's coordinator id.
    public var id: String
    /// The child's flow name.
    public var flow: String
    /// Whether it finished with a result or was removed.
    public var reason: Reason

    /// Whether the child ran flow `type`.
    public func ran<C: Flow>(_ type: C.Type) -> Bool { flow == C.name }

    /// What a child of flow `type` finished with; nil if it ran another flow or was removed.
    public func result<C: Flow>(of type: C.Type) -> C.Result? {
        guard ran(type), case .finished(let json) = reason else { return nil }
        if C.Result.self == NoResult.self { return NoResult() as? C.Result }
        return try? JSONValueDecoder().decode(C.Result.self, from: json)
    }
}

/// What became of a deep link offered to a flow.
public enum DeepLinkOutcome: Sendable, Hashable {
    /// Shown now.
    case opened
    /// Kept as the session's `pendingDeepLink`, to be offered again when the root changes.
    case deferred
    /// A valid link that needs nothing done (for example sign-up while signed in).
    case ignored
    /// Not this flow's business.
    case declined
}

/// One tab of a tab bar a container shows: its id (what `POST …/tab` names), title, icon and
/// the flow that runs it.
public struct TabSpec: Sendable, Hashable {
    /// The tab's id: what `POST …/tab` names and ``FlowContext/selectTab(_:)`` takes.
    public var id: String
    /// The tab bar's label.
    public var title: String
    /// An icon name in the SF Symbols style (`house`, `person.circle`); clients map it to
    /// their own.
    public var icon: String
    /// The name of the flow that runs the tab.
    public var flow: String

    /// A tab run by flow `flow` (listing it in ``Flow/tabs`` makes that flow a child of the
    /// container).
    public init<F: Flow>(id: String, title: String, icon: String, flow: F.Type) {
        self.id = id
        self.title = title
        self.icon = icon
        self.flow = F.name
    }
}
