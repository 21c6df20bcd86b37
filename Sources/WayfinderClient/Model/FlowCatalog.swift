/// The flows a server knows (`GET /v1/flows`): screens, routes with their params, child flows,
/// and the deep-link patterns. Useful for tooling and for checking what a route expects.
public struct FlowCatalog: Codable, Sendable, Hashable {
    /// Every flow, the root's included.
    public var flows: [Flow]
    /// The deep links the server opens.
    public var deepLinks: [DeepLink]

    /// A catalog as the server would send it.
    public init(flows: [Flow], deepLinks: [DeepLink]) {
        self.flows = flows
        self.deepLinks = deepLinks
    }

    /// One flow (a coordinator type).
    public struct Flow: Codable, Sendable, Hashable {
        /// The flow's name (a coordinator's `flow` in the tree).
        public var name: String
        /// The names of the screens it shows.
        public var screens: [String]
        /// Each screen's values (a ``Screen/values``), by screen name, described as route params
        /// are (absent from older servers).
        public var screenValues: [String: [Param]]?
        /// The routes it handles.
        public var routes: [Route]
        /// The names of the flows it starts as children.
        public var children: [String]

        /// A flow as the server would send it.
        public init(name: String, screens: [String], screenValues: [String: [Param]]? = nil, routes: [Route], children: [String]) {
            self.name = name
            self.screens = screens
            self.screenValues = screenValues
            self.routes = routes
            self.children = children
        }
    }

    /// A route and its params, in the order `invalidParams` uses.
    public struct Route: Codable, Sendable, Hashable {
        /// The route's name.
        public var name: String
        /// Its params.
        public var params: [Param]

        /// A route as the server would send it.
        public init(name: String, params: [Param]) {
            self.name = name
            self.params = params
        }
    }

    /// A route's param, or a screen's value.
    public struct Param: Codable, Sendable, Hashable {
        /// The param's name.
        public var name: String
        /// Its JSON type: `string`, `boolean`, `integer` (or a type added later).
        public var type: String
        /// Whether the route needs it.
        public var required: Bool

        /// A param as the server would send it.
        public init(name: String, type: String, required: Bool) {
            self.name = name
            self.type = type
            self.required = required
        }
    }

    /// A deep-link pattern (`wayfinder://todos/{id}`).
    public struct DeepLink: Codable, Sendable, Hashable {
        /// The pattern; `{name}` matches one path segment.
        public var pattern: String
        /// What it opens.
        public var description: String

        /// A pattern as the server would send it.
        public init(pattern: String, description: String) {
            self.pattern = pattern
            self.description = description
        }
    }
}
