/// One screen: what a client renders, and the routes it may trigger while the screen is on top.
public struct Screen: Codable, Sendable, Hashable, Identifiable {
    /// Unique within the session; a rebuilt screen gets a fresh id (send it with
    /// ``WayfinderSession/back(from:ifMatch:idempotencyKey:)`` so a double tap cannot pop twice).
    public var id: String
    /// The screen's name in the catalog (`todoDetail`).
    public var name: String
    /// The navigation title.
    public var title: String
    /// The id of the coordinator that owns the screen.
    public var coordinator: String
    /// How it came to be shown (by position: root, pushed, or the first screen of a modal).
    public var presentation: Presentation
    /// Every route the responder chain accepts while this screen is on top.
    public var routes: [String]
    /// What to render, in order.
    public var components: [Component]

    /// A screen as the server would send it.
    public init(
        id: String, name: String, title: String, coordinator: String, presentation: Presentation = .root,
        routes: [String] = [], components: [Component] = []
    ) {
        self.id = id
        self.name = name
        self.title = title
        self.coordinator = coordinator
        self.presentation = presentation
        self.routes = routes
        self.components = components
    }

    /// The values the screen's fields and toggles show (what a submit sends if nothing is edited).
    public var formValues: FormValues { FormValues(self) }
}

/// How a screen was presented: `root` (first of a stack or tab), `push`, or the first screen of a
/// modal (`sheet`, `fullScreen`).
public struct Presentation: OpenEnumeration {
    /// The raw value.
    public let rawValue: String
    /// Any value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The first screen of the root stack or of a tab.
    public static let root: Presentation = "root"
    /// Pushed onto a stack.
    public static let push: Presentation = "push"
    /// The first screen of a sheet.
    public static let sheet: Presentation = "sheet"
    /// The first screen of a full-screen modal.
    public static let fullScreen: Presentation = "fullScreen"

    /// Whether this starts a modal (a sheet, a full-screen cover, or a modal style added later).
    public var isModal: Bool { self != .root && self != .push }
}

/// What a button or a list item triggers: a route to send as is (see
/// ``WayfinderSession/trigger(_:ifMatch:idempotencyKey:)``).
public struct RouteAction: Codable, Sendable, Hashable {
    /// The route's name (`showTodo`).
    public var route: String
    /// The route's params (`{"id": "2"}`).
    public var params: [String: JSONValue]

    /// An action for `route` with `params`.
    public init(_ route: String, params: [String: JSONValue] = [:]) {
        self.route = route
        self.params = params
    }

    private enum CodingKeys: String, CodingKey { case route, params }

    /// Decodes; absent or `null` params are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        route = try container.decode(String.self, forKey: .route)
        params = try container.decodeIfPresent([String: JSONValue].self, forKey: .params) ?? [:]
    }

    /// This action with `values` merged into its params (a submit button: the screen's field and
    /// toggle values win over the button's own params, as in the contract).
    public func merging(_ values: [String: JSONValue]) -> RouteAction {
        RouteAction(route, params: params.merging(values) { _, value in value })
    }
}
