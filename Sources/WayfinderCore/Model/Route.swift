/// A route triggered by a client: a name and its parameters.
public struct Route: Sendable, Hashable {
    public var name: String
    public var params: JSONObject

    public init(_ name: String, params: JSONObject = [:]) {
        self.name = name
        self.params = params
    }

    /// A parameter's value; `null` counts as absent (the contract's rule).
    public subscript(_ param: String) -> JSONValue? {
        guard let value = params[param], !value.isNull else { return nil }
        return value
    }

    public func string(_ param: String) -> String? { self[param]?.stringValue }
    public func bool(_ param: String) -> Bool? { self[param]?.boolValue }
    public func int(_ param: String) -> Int? { self[param]?.intValue }
}

/// The JSON type a route parameter must have.
public enum ParamType: String, Sendable, Codable, Hashable {
    case string, boolean, integer

    func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.boolean, .bool), (.integer, .int): true
        default: false
        }
    }
}

public struct ParamSpec: Sendable, Hashable {
    public var name: String
    public var type: ParamType
    public var required: Bool

    public init(_ name: String, _ type: ParamType = .string, required: Bool = true) {
        self.name = name
        self.type = type
        self.required = required
    }
}

/// A route a flow declares: its parameters and the screens on which it is offered.
///
/// The engine checks parameter presence and JSON types before the flow sees the route, so a
/// flow's `handle` only deals with well-typed input; rules a user can fix (a short password)
/// stay with the flow.
public struct RouteSpec: Sendable, Hashable {
    public var name: String
    public var params: [ParamSpec]
    /// Names of screens that, when on top, make this route available through this flow.
    public var screens: Set<String> {
        didSet { screenList = Array(screens) }
    }
    /// `screens` as an array: a route is offered on one screen or two, and comparing short names
    /// costs less than hashing one (this is asked for every route of every flow in the responder
    /// chain, on every trigger and every rendering).
    private var screenList: [String]

    public init(_ name: String, params: [ParamSpec] = [], on screens: Set<String>) {
        self.name = name
        self.params = params
        self.screens = screens
        self.screenList = Array(screens)
    }

    /// Whether the route is offered while screen `name` is on top.
    public func isOffered(on name: String) -> Bool {
        screenList.contains(name)
    }

    public static func == (lhs: RouteSpec, rhs: RouteSpec) -> Bool {
        lhs.name == rhs.name && lhs.params == rhs.params && lhs.screens == rhs.screens
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(params)
        hasher.combine(screens)
    }

    /// Every missing or ill-typed parameter, in declaration order.
    public func invalidParams(in route: Route) -> [InvalidParam] {
        var problems: [InvalidParam] = []
        for spec in params {
            guard let value = route[spec.name] else {
                if spec.required { problems.append(InvalidParam(name: spec.name, reason: "is required")) }
                continue
            }
            if !spec.type.accepts(value) {
                problems.append(InvalidParam(name: spec.name, reason: "must be \(JSONValue.article(spec.type.rawValue)), not \(value.typeNameWithArticle)"))
            }
        }
        return problems
    }
}

/// One bad parameter: its name and why.
public struct InvalidParam: Sendable, Hashable, Codable {
    public var name: String
    public var reason: String

    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}
