/// An application: its flows, the root flow (the launch instructor), deep-link patterns and
/// how a session's context is read. A team registers its own flows here, as `DemoApp` does.
public struct Application: Sendable {
    public let scheme: String
    public let rootFlow: String
    /// Flows in registration order (the catalog's order).
    public let flows: [any Flow]
    public let deepLinks: [DeepLinkPattern]
    /// `flows`' names, in the same order: a handful of short names are found faster by
    /// comparing them than by hashing one (a lookup per flow called, several per request).
    let flowNames: [String]
    let normalizeContext: @Sendable (JSONObject) throws -> JSONObject

    /// - Parameters:
    ///   - root: the application coordinator's flow (a container that picks the first flow).
    ///   - context: validates a client's context and fills defaults; throw
    ///     ``NavigationError/invalidParams(_:)`` for bad values.
    public init(
        scheme: String, root: any Flow, flows: [any Flow], deepLinks: [DeepLinkPattern],
        context: @escaping @Sendable (JSONObject) throws -> JSONObject = { $0 }
    ) {
        self.scheme = scheme
        self.rootFlow = root.name
        var all: [any Flow] = [root]
        for flow in flows where flow.name != root.name { all.append(flow) }
        self.flows = all
        self.deepLinks = deepLinks
        self.flowNames = all.map(\.name)
        self.normalizeContext = context
    }

    /// The flow registered under `name` (the first, if two share it).
    public func flow(named name: String) -> (any Flow)? {
        flowNames.firstIndex(of: name).map { flows[$0] }
    }

    /// Matches `url` against the patterns (exact, case-sensitive, no query, no trailing slash).
    public func match(deepLink url: String) -> DeepLink? {
        let prefix = scheme + "://"
        guard url.hasPrefix(prefix) else { return nil }
        let path = url.dropFirst(prefix.count)
        guard !path.contains("?"), !path.contains("#") else { return nil }
        for pattern in deepLinks {
            if let params = pattern.match(path) { return DeepLink(url: url, pattern: pattern.pattern, params: params) }
        }
        return nil
    }
}

/// A state names a flow the application does not have (a state from another app version).
public struct UnknownFlowError: Error, Sendable, Hashable {
    public var flow: String
}
