/// An application: its version, its flows, the root flow (the launch instructor), its deep
/// links, how a session's context is read, and how sessions and clients of its earlier versions
/// are served (``Migration``, the update-required screen). A team registers its own flows here,
/// as `DemoApp` does.
///
/// Building one checks the declarations the compiler cannot (see ``ApplicationError``), so a
/// server refuses to start with a broken app, and an app's tests can call the same check by
/// building it.
public struct Application: Sendable {
    /// Everything, behind one reference: an application is copied into every navigator and
    /// flow context, and one retain costs less than one per field.
    private final class Storage: Sendable {
        let scheme: String
        let version: String
        let rootFlow: String
        let flows: [any AnyFlow]
        let deepLinks: [DeepLinkPattern]
        /// `flows`' names, in the same order: a handful of short names are found faster by
        /// comparing them than by hashing one (a lookup per flow called, several per request).
        let flowNames: [String]
        let normalizeContext: @Sendable (JSONObject) throws -> JSONObject
        let variantKey: String?
        let clientMembers: ContextMembers
        let secrets: SecretParams
        let signals: [RouteSpec]
        let migrations: Migrations
        let updateRequired: ScreenContent

        init(
            scheme: String, version: String, rootFlow: String, flows: [any AnyFlow], deepLinks: [DeepLinkPattern],
            normalizeContext: @escaping @Sendable (JSONObject) throws -> JSONObject, variantKey: String?,
            clientMembers: ContextMembers, secretMembers: Set<String>, signals: [RouteSpec], migrations: Migrations,
            updateRequired: ScreenContent
        ) {
            self.scheme = scheme
            self.version = version
            self.rootFlow = rootFlow
            self.flows = flows
            self.deepLinks = deepLinks
            self.flowNames = flows.map(\.name)
            self.normalizeContext = normalizeContext
            self.variantKey = variantKey
            self.clientMembers = clientMembers
            self.secrets = SecretParams(flows: flows, contextMembers: secretMembers)
            self.signals = signals
            self.migrations = migrations
            self.updateRequired = updateRequired
        }
    }

    private let storage: Storage

    /// The deep-link scheme (`wayfinder` in `wayfinder://todos/2`).
    public var scheme: String { storage.scheme }
    /// The application's version (dotted numbers, `2` or `1.4.0`): stored with every state it
    /// writes, shown by `/v1/flows` and `/healthz`.
    public var version: String { storage.version }
    /// What a client is shown instead of a screen it cannot render (see ``ComponentFallback``).
    public var updateRequired: ScreenContent { storage.updateRequired }
    /// The application coordinator's flow name.
    public var rootFlow: String { storage.rootFlow }
    /// The flows' names in registration order (the catalog's order), the root first.
    public var flowNames: [String] { storage.flowNames }
    /// The flows that ask for effects (whose `Effect` has cases): each needs a service.
    public var flowsWithEffects: [String] { storage.flows.filter { !$0.effects.isEmpty }.map(\.name) }
    /// The context member that names a session's experiment variant (``SessionContext/variantKey``).
    public var variantKey: String? { storage.variantKey }
    /// The context members a client may set (``SessionContext/clientMembers``).
    public var clientMembers: ContextMembers { storage.clientMembers }
    /// What the app declares secret: route params, context members and effect reply members.
    public var secrets: SecretParams { storage.secrets }
    /// The app's signals (``AppSchema/Signal``) with their params, in declaration order.
    public var signals: [RouteSpec] { storage.signals }
    /// The deep-link patterns, from the app's ``AppSchema/Link`` type.
    public var deepLinks: [DeepLinkPattern] { storage.deepLinks }
    var flows: [any AnyFlow] { storage.flows }
    var normalizeContext: @Sendable (JSONObject) throws -> JSONObject { storage.normalizeContext }
    var migrations: Migrations { storage.migrations }
    /// No migration renames or changes what clients send.
    var requestsUnchanged: Bool { storage.migrations.requestsUnchanged }

    /// - Parameters:
    ///   - scheme: the deep-link scheme.
    ///   - version: this release's version, dotted numbers that grow with every release (`2`,
    ///     `1.4.0`). States written by earlier versions are migrated; a state written by a later
    ///     one is left alone (``SessionVersionAhead``).
    ///   - root: the application coordinator's flow (a container that picks the first flow).
    ///   - flows: every other flow the app runs.
    ///   - migrations: how states and requests of earlier versions map to this one.
    ///   - updateRequired: the screen shown to a client that cannot render one of the app's
    ///     screens (use headings and text: every client renders those).
    /// - Throws: ``ApplicationError`` listing every problem found in the declarations.
    public init<Root: Flow>(
        scheme: String, version: String = "0", root: Root, flows: [any Flow<Root.App>],
        migrations: [Migration<Root.App>] = [], updateRequired: ScreenContent = .updateRequired
    ) throws {
        var all: [any AnyFlow] = [TypedFlow(root)]
        for flow in flows where type(of: flow) != Root.self { all.append(Self.box(flow)) }
        let links = Self.linkPatterns(Root.App.Link.self)
        let signals = Self.signalSpecs(Root.App.Signal.self)
        let versions = migrations.map { Migrations.Version(version: AppVersion($0.version), text: $0.version, steps: $0.changes.map(\.step)) }
        storage = Storage(
            scheme: scheme, version: version, rootFlow: Root.name, flows: all, deepLinks: links.patterns,
            normalizeContext: ContextReader<Root.App.Context>().read, variantKey: Root.App.Context.variantKey,
            clientMembers: Root.App.Context.clientMembers, secretMembers: Root.App.Context.secretMembers, signals: signals.specs,
            migrations: Migrations(versions: versions), updateRequired: updateRequired)
        let problems = check(linkProblems: links.problems) + checkVersions() + Self.checkContextMembers(Root.App.Context.self) + signals.problems
        if !problems.isEmpty { throw ApplicationError(problems: problems) }
    }

    private static func box<F: Flow>(_ flow: F) -> any AnyFlow { TypedFlow(flow) }

    /// Each signal's params (its case's labelled values), and what cannot be read.
    private static func signalSpecs<S: AppSignal>(_ type: S.Type) -> (specs: [RouteSpec], problems: [String]) {
        var specs: [RouteSpec] = []
        var problems: [String] = []
        for name in S.caseNames {
            do {
                let members = try ShapeProbe.members(of: S.self, case: name)
                for member in members where member.name.hasPrefix("_") {
                    problems.append("signal '\(name)' of \(S.self) has an unlabelled associated value: label it (the label is the param's name)")
                }
                specs.append(RouteSpec(name, params: members, on: []))
            } catch {
                problems.append("signal '\(name)' of \(S.self) cannot be read: \(error)")
            }
        }
        return (specs, problems)
    }

    /// The flow registered under `name` (the first, if two share it).
    func flow(named name: String) -> (any AnyFlow)? {
        storage.flowNames.firstIndex(of: name).map { storage.flows[$0] }
    }

    /// The URL of a deep link (`wayfinder://todos/2` for `.todo(id: "2")`).
    public func url<L: DeepLinkDestination>(for link: L) throws -> String {
        let (pattern, params) = try link.parts()
        let path = DeepLinkPattern(pattern, description: "").segments.map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? params[String(segment.dropFirst().dropLast())]?.scalarText ?? "" : String(segment)
        }
        return scheme + "://" + path.joined(separator: "/")
    }

    /// Matches `url` against the patterns (exact, case-sensitive, no query, no trailing slash),
    /// then against the old patterns of renamed deep links (``Migration/Change/renamed(deepLink:to:)``).
    public func match(deepLink url: String) -> DeepLink? {
        let prefix = scheme + "://"
        guard url.hasPrefix(prefix) else { return nil }
        let path = url.dropFirst(prefix.count)
        guard !path.contains("?"), !path.contains("#") else { return nil }
        for pattern in storage.deepLinks {
            if let params = pattern.match(path) { return DeepLink(url: url, pattern: pattern.pattern, params: params) }
        }
        for (old, new) in storage.migrations.deepLinks {
            if let params = old.match(path) { return DeepLink(url: url, pattern: new, params: params) }
        }
        return nil
    }
}

/// A state names a flow the application does not have (a state from another app version).
public struct UnknownFlowError: Error, Sendable, Hashable {
    /// The flow name the state has and the application does not.
    public var flow: String
}
