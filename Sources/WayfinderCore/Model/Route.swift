/// A route as a client triggers it: a name and its parameters, as JSON (`POST …/routes`).
///
/// The engine checks it against the route's declaration and decodes it into the flow's own
/// `Route` case; flows never see this untyped form.
public struct RouteRequest: Sendable, Hashable {
    /// The route's name (a case of a flow's `Route`).
    public var name: String
    /// Its parameters, as the client sent them.
    public var params: JSONObject

    /// A request for route `name` with `params`.
    public init(_ name: String, params: JSONObject = [:]) {
        self.name = name
        self.params = params
    }

    /// The request a client sends for `route`: its case name and its labelled values as params.
    public init<R: FlowRoute>(_ route: R) throws {
        let (name, params) = try route.parts()
        self.init(name, params: params)
    }

    /// A parameter's value; `null` counts as absent (the contract's rule).
    public subscript(_ param: String) -> JSONValue? {
        guard let value = params[param], !value.isNull else { return nil }
        return value
    }

}

/// The JSON type a route parameter must have (from its Swift type: `String`, `Bool`, `Int`,
/// `Double`, a `Codable` struct or array; an enum with raw values is a string or an integer).
public enum ParamType: String, Sendable, Codable, Hashable {
    /// A JSON string: `String`, or an enum with `String` raw values.
    case string
    /// `true` or `false`: `Bool`.
    case boolean
    /// A number without a fraction: `Int`, or an enum with `Int` raw values.
    case integer
    /// Any number: `Double` (an integer is accepted too).
    case number
    /// A JSON object: a `Codable` struct or a dictionary.
    case object
    /// A JSON array.
    case array

    func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.string, .string), (.boolean, .bool), (.integer, .int), (.number, .int), (.number, .double),
            (.object, .object), (.array, .array):
            true
        default: false
        }
    }
}

/// One parameter of a route, as the catalog lists it: derived from the associated value of the
/// flow's route case with that label.
public struct ParamSpec: Sendable, Hashable {
    /// The label of the associated value.
    public var name: String
    /// The JSON type its value must have.
    public var type: ParamType
    /// False for an optional associated value.
    public var required: Bool
    /// The allowed values of an enum-typed parameter (its raw values), in declaration order.
    public var values: [String]?
    /// A ``Secret`` (a password): never logged, stored or shown in a journal.
    public var secret: Bool

    /// A parameter; ``Application`` derives them from a flow's `Route` cases.
    public init(_ name: String, _ type: ParamType = .string, required: Bool = true, values: [String]? = nil, secret: Bool = false) {
        self.name = name
        self.type = type
        self.required = required
        self.values = values
        self.secret = secret
    }
}

/// A route as the engine and the catalog know it: its name, its parameters, and the screens of
/// its flow that offer it — all derived from the flow's typed declarations.
///
/// The engine checks a request's parameters against it before decoding the flow's route case, so
/// a flow's `handle` only deals with well-typed input; rules a user can fix (a short password)
/// stay with the flow.
public struct RouteSpec: Sendable, Hashable {
    /// The route's name (its case name).
    public var name: String
    /// Its parameters, in declaration order.
    public var params: [ParamSpec]
    /// Names of screens that, when on top, make this route available through this flow.
    public var screens: Set<String> {
        didSet { screenList = Array(screens) }
    }
    /// `screens` as an array: a route is offered on one screen or two, and comparing short names
    /// costs less than hashing one (this is asked for every route of every flow in the responder
    /// chain, on every trigger and every rendering).
    private var screenList: [String]

    /// A route named `name` with `params`, offered on `screens`.
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

    /// Every missing or ill-typed parameter, in declaration order, then every parameter the
    /// route does not declare (by name; one whose value is `null` counts as absent).
    public func invalidParams(in route: RouteRequest) -> [InvalidParam] {
        var problems: [InvalidParam] = []
        for spec in params {
            guard let value = route[spec.name] else {
                if spec.required { problems.append(InvalidParam(name: spec.name, reason: "is required")) }
                continue
            }
            if let reason = spec.mismatch(value) { problems.append(InvalidParam(name: spec.name, reason: reason)) }
        }
        return problems + undeclaredParams(in: route)
    }

    /// The parameters of `route` this route does not declare, by name (none allocated for a
    /// request that sends only declared ones).
    private func undeclaredParams(in route: RouteRequest) -> [InvalidParam] {
        var undeclared: [String] = []
        for (name, value) in route.params where !value.isNull && !params.contains(where: { $0.name == name }) {
            undeclared.append(name)
        }
        return undeclared.sorted().map { InvalidParam(name: $0, reason: "is not a parameter of route '\(self.name)'") }
    }
}

extension ParamSpec {
    /// Why `value` does not fit this parameter or context member, in the contract's words
    /// ("must be a string, not an integer", "must be one of a, b"); nil when it fits.
    func mismatch(_ value: JSONValue) -> String? {
        if let values, !type.accepts(value) || !values.contains(value.scalarText) {
            return "must be one of \(values.joined(separator: ", "))"
        }
        return type.accepts(value) ? nil : "must be \(JSONValue.article(type.rawValue)), not \(value.typeNameWithArticle)"
    }
}

/// One bad parameter: its name and why.
public struct InvalidParam: Sendable, Hashable, Codable {
    /// The parameter's name (`context.<member>` for a session's context).
    public var name: String
    /// Why, in the contract's words: "is required", "must be a string, not an integer".
    public var reason: String

    /// A bad parameter and why.
    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}
