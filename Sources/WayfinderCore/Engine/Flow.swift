/// A coordinator's behaviour: what a Swift developer writes for each flow of an app.
///
/// A flow is the server-side twin of an iOS coordinator: it starts (shows its first screen),
/// handles the routes its screens offer, is told when a child flow finishes, and renders its
/// screens from its view-model data. It holds no state itself; everything it changes goes through
/// the ``FlowContext`` it is handed, which records the transitions. Decide-then-perform, as in
/// XCoordinator, but the "perform" is data.
public protocol Flow: Sendable {
    /// The flow's name in the coordinator tree and the catalog (`auth`, `todos`, …).
    var name: String { get }
    /// Containers (the application, a tab bar) own no screens themselves and are never pruned.
    var isContainer: Bool { get }
    /// Every screen this flow can show (for the catalog).
    var screens: [String] { get }
    /// Every route this flow handles, with its parameters and the screens that offer it.
    var routes: [RouteSpec] { get }
    /// Flows this flow may start as children (for the catalog).
    var children: [String] { get }

    /// Shows the first screen (``FlowContext/show(_:params:)``) or starts children.
    func start(_ context: inout FlowContext, option: JSONValue) throws
    /// Handles a route this flow declared, offered while `screen` is on top.
    /// Parameters are already present and well-typed per the route's ``RouteSpec``.
    func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws
    /// A child finished by itself, or was removed because its last screen left.
    func childDidFinish(_ child: FinishedChild, _ context: inout FlowContext) throws
    /// Opens a matched deep link, or defers it, or declines it.
    func openDeepLink(_ link: DeepLink, _ context: inout FlowContext) throws -> DeepLinkOutcome
    /// The title and components of one of this flow's screens.
    func render(_ screen: ScreenInstance, _ context: FlowContext) -> ScreenContent
    /// The routes this flow accepts while `screen` (its own or a descendant's) is on top.
    func availableRoutes(whenOnTop screen: ScreenInstance, _ context: FlowContext) -> [RouteSpec]
}

extension Flow {
    public var isContainer: Bool { false }
    public var screens: [String] { [] }
    public var children: [String] { [] }
    public func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws {}
    public func childDidFinish(_ child: FinishedChild, _ context: inout FlowContext) throws {}
    public func openDeepLink(_ link: DeepLink, _ context: inout FlowContext) throws -> DeepLinkOutcome { .declined }
    public func render(_ screen: ScreenInstance, _ context: FlowContext) -> ScreenContent {
        ScreenContent(title: screen.name, components: [])
    }
    /// By default: the declared routes whose `screens` name the screen on top.
    public func availableRoutes(whenOnTop screen: ScreenInstance, _ context: FlowContext) -> [RouteSpec] {
        routes.filter { $0.isOffered(on: screen.name) }
    }
}

/// What a flow renders for a screen.
public struct ScreenContent: Sendable, Hashable {
    public var title: String
    public var components: [Component]
    public init(title: String, components: [Component]) {
        self.title = title
        self.components = components
    }
}

/// A child coordinator that is gone, as its parent learns of it.
public struct FinishedChild: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// The child called ``FlowContext/finish(_:)``; its screens are still shown until the
        /// parent replaces or pops them (leftovers are removed after `childDidFinish`).
        case finished(JSONValue)
        /// The child's last screen left (back, a tab reset, a deep link); nothing of it is shown.
        case removed
    }
    public var id: String
    public var flow: String
    public var reason: Reason
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
