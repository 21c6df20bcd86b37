/// A screen on the navigation tree: which screen, whose, with what input.
///
/// Its title and components are not stored: they are rendered from this value and the owning
/// flow's data on every read, so nothing can drift from the tree.
public struct ScreenInstance: Sendable, Hashable, Codable {
    /// `s1`, `s2`, …: unique within the session, never reused; a client names it in `back`.
    public var id: String
    /// A case name of the owning flow's `Screen`.
    public var name: String
    /// The coordinator that owns (and renders) this screen.
    public var coordinator: String
    /// What the screen shows (for example a todo id or a walkthrough page).
    public var params: JSONObject
    /// Values the user submitted and that the screen shows again (never secrets).
    public var form: JSONObject
    /// A message after input the user can fix.
    public var notice: Notice?
    /// The effects this screen asked for that have no result yet: while there are any, the
    /// screen is busy and the routes it offers are blocked.
    public var waitingFor: [String]

    /// A screen instance; the engine makes them when flows show screens.
    public init(
        id: String, name: String, coordinator: String, params: JSONObject = [:], form: JSONObject = [:], notice: Notice? = nil,
        waitingFor: [String] = []
    ) {
        self.id = id
        self.name = name
        self.coordinator = coordinator
        self.params = params
        self.form = form
        self.notice = notice
        self.waitingFor = waitingFor
    }

    /// A value of `params`; nil if absent.
    public func param(_ key: String) -> JSONValue? { params[key] }
    /// A submitted form value, or `fallback`.
    public func formString(_ key: String, default fallback: String = "") -> String { form[key]?.stringValue ?? fallback }
}

/// How a screen came to be shown; derived from its position, never stored.
public enum Presentation: String, Sendable, Hashable, Codable {
    /// The first screen of the root stack or of a tab.
    case root
    /// Any screen above the first of its stack.
    case push
    /// The first screen of a modal presented as a sheet.
    case sheet
    /// The first screen of a modal that covers the whole window.
    case fullScreen
}

/// The two ways to present a modal.
public enum ModalStyle: String, Sendable, Hashable, Codable {
    /// A sheet over what is below it, as the client's platform shows one.
    case sheet
    /// Over the whole window.
    case fullScreen

    var presentation: Presentation { self == .sheet ? .sheet : .fullScreen }
}
