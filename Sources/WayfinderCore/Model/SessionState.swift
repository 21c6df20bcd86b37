/// A session's whole navigation state as one value: coordinator tree, navigation tree, the
/// app's model, context, pending deep link and the id generator.
///
/// - Important: nothing in here is a closure or a reference, so a state can be copied, compared,
///   stored, sent to another server and replayed. Flows are code; this is their data.
public struct SessionState: Sendable, Hashable, Codable {
    public var session: String
    public var revision: Int
    /// Who the user is and how the app should look (`onboarded`, `platform`, …); shown to clients.
    public var context: JSONObject
    /// The app's model data shared by flows across the session (for example the todos).
    public var model: JSONObject
    public var coordinators: Coordinator
    public var navigation: Navigation
    public var pendingDeepLink: String?
    /// The id generator: the next numbers for coordinators (`c1`, …) and screens (`s1`, …).
    public var nextCoordinator: Int
    public var nextScreen: Int
    /// Effects asked for and not yet completed, oldest first (they run in this order).
    public var effects: [PendingEffect]
    /// The next number for an effect id (`e1`, …).
    public var nextEffect: Int
    /// The version of the application that last saved this state (nil for states saved before
    /// applications had versions): how a server knows which migrations it needs, or that a newer
    /// version wrote it.
    public var appVersion: String?

    public init(session: String, context: JSONObject, root: Coordinator) {
        self.session = session
        self.revision = 1
        self.context = context
        self.model = [:]
        self.coordinators = root
        self.navigation = .empty
        self.pendingDeepLink = nil
        self.nextCoordinator = 1
        self.nextScreen = 1
        self.effects = []
        self.nextEffect = 1
        self.appVersion = nil
    }
}
