/// One change of a ``Migration``, in the engine's untyped terms (flow, screen and route names).
enum MigrationStep: Sendable {
    case renameFlow(old: String, new: String)
    case removeFlow(name: String, replacement: String?)
    case renameScreen(flow: String, old: String, new: String)
    case renameScreenParam(flow: String, screen: String, old: String, new: String)
    case removeScreen(flow: String, name: String, replacement: ScreenReplacement?)
    case renameRoute(flow: String, old: String, new: String)
    case removeRoute(flow: String, name: String)
    case param(ParamStep)
    case renameDeepLink(old: String, new: String)
    case removeDeepLink(String)
    /// `type` names the old model type, for messages.
    case model(type: String, @Sendable (JSONObject) throws -> JSONObject)
    /// A change that could not be built (its problem, reported when the application is built).
    case invalid(String)
}

/// The screen shown where a removed one was.
struct ScreenReplacement: Sendable, Hashable {
    var name: String
    var params: JSONObject
}

/// A change to one parameter of one route of one flow, applied to the requests that trigger it.
struct ParamStep: Sendable {
    enum Change: Sendable {
        case renamed(from: String)
        case removed
        case converted(@Sendable (JSONValue) -> JSONValue?)
        case defaulted(JSONValue)
    }

    var flow: String
    var route: String
    /// The parameter's current name (the removed one's old name for `.removed`).
    var param: String
    var change: Change
}

/// An application's migrations, sorted by version, with the parts that apply to requests indexed
/// for the request path.
struct Migrations: Sendable {
    struct Version: Sendable {
        var version: AppVersion?
        var text: String
        var steps: [MigrationStep]
    }

    /// Ascending; a version that does not parse is kept (and reported) but never applies.
    let versions: [Version]
    /// Old flow name → the name it was given (every version).
    let flowRenames: [String: String]
    /// Old route name → current name, by flow (every version: requests carry none).
    let routeRenames: [String: [String: String]]
    /// Parameter changes by flow and route.
    let params: [RouteKey: [ParamStep]]
    /// Old deep-link patterns and the current pattern each leads to.
    let deepLinks: [(old: DeepLinkPattern, new: String)]
    /// No route, parameter or deep-link changes: the request path skips every lookup.
    let requestsUnchanged: Bool

    struct RouteKey: Hashable, Sendable {
        var flow: String
        var route: String
    }

    static let none = Migrations(versions: [])

    init(versions unsorted: [Version]) {
        versions = unsorted.enumerated().sorted { a, b in
            switch (a.element.version, b.element.version) {
            case (let x?, let y?): x < y || (x == y && a.offset < b.offset)
            case (nil, _?): false
            case (_?, nil): true
            case (nil, nil): a.offset < b.offset
            }
        }.map(\.element)
        var flowRenames: [String: String] = [:]
        var routeRenames: [String: [String: String]] = [:]
        var params: [RouteKey: [ParamStep]] = [:]
        var deepLinks: [(DeepLinkPattern, String)] = []
        for step in versions.flatMap(\.steps) {
            switch step {
            case .renameFlow(let old, let new): flowRenames[old] = new
            case .renameRoute(let flow, let old, let new): routeRenames[flow, default: [:]][old] = new
            case .param(let change): params[RouteKey(flow: change.flow, route: change.route), default: []].append(change)
            case .renameDeepLink(let old, let new): deepLinks.append((DeepLinkPattern(old, description: ""), new))
            default: break
            }
        }
        self.flowRenames = flowRenames
        self.routeRenames = routeRenames
        self.params = params
        self.deepLinks = deepLinks
        requestsUnchanged = routeRenames.isEmpty && params.isEmpty && deepLinks.isEmpty
    }

    /// `name` after every flow rename (a flow renamed twice gets its latest name).
    func currentFlowName(_ name: String) -> String {
        var current = name
        for _ in 0..<flowRenames.count {
            guard let next = flowRenames[current], next != current else { break }
            current = next
        }
        return current
    }

    /// The steps of every migration to a version after `version` (all of them when the state has
    /// no version, or one that does not parse: it predates versions), oldest first.
    func steps(after version: AppVersion?) -> [MigrationStep] {
        labelledSteps(after: version).map(\.step)
    }

    /// The steps that would apply to a state of `version`, with the version each belongs to.
    func labelledSteps(after version: AppVersion?) -> [(version: String, step: MigrationStep)] {
        versions.filter { migration in
            guard let target = migration.version else { return false }
            return version.map { target > $0 } ?? true
        }.flatMap { migration in migration.steps.map { (migration.text, $0) } }
    }
}
