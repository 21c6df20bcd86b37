/// An application: its flows, the root flow (the launch instructor), deep-link patterns and
/// how a session's context is read. A team registers its own flows here, as `DemoApp` does.
public struct Application: Sendable {
    public let scheme: String
    public let rootFlow: String
    /// Flows in registration order (the catalog's order).
    public let flows: [any Flow]
    public let deepLinks: [DeepLinkPattern]
    let flowsByName: [String: any Flow]
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
        self.flowsByName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.normalizeContext = context
    }

    public func flow(named name: String) -> (any Flow)? { flowsByName[name] }

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
