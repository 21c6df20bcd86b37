/// An application: its flows, the root flow (the launch instructor), deep-link patterns and
/// how a session's context is read. A team registers its own flows here, as `DemoApp` does.
public struct Application: Sendable {
    /// Everything, behind one reference: an application is copied into every navigator and
    /// flow context, and one retain costs less than one per field.
    private final class Storage: Sendable {
        let scheme: String
        let rootFlow: String
        let flows: [any Flow]
        let deepLinks: [DeepLinkPattern]
        /// `flows`' names, in the same order: a handful of short names are found faster by
        /// comparing them than by hashing one (a lookup per flow called, several per request).
        let flowNames: [String]
        let normalizeContext: @Sendable (JSONObject) throws -> JSONObject

        init(
            scheme: String, rootFlow: String, flows: [any Flow], deepLinks: [DeepLinkPattern],
            normalizeContext: @escaping @Sendable (JSONObject) throws -> JSONObject
        ) {
            self.scheme = scheme
            self.rootFlow = rootFlow
            self.flows = flows
            self.deepLinks = deepLinks
            self.flowNames = flows.map(\.name)
            self.normalizeContext = normalizeContext
        }
    }

    private let storage: Storage

    public var scheme: String { storage.scheme }
    public var rootFlow: String { storage.rootFlow }
    /// Flows in registration order (the catalog's order).
    public var flows: [any Flow] { storage.flows }
    public var deepLinks: [DeepLinkPattern] { storage.deepLinks }
    var normalizeContext: @Sendable (JSONObject) throws -> JSONObject { storage.normalizeContext }

    /// - Parameters:
    ///   - root: the application coordinator's flow (a container that picks the first flow).
    ///   - context: validates a client's context and fills defaults; throw
    ///     ``NavigationError/invalidParams(_:)`` for bad values.
    public init(
        scheme: String, root: any Flow, flows: [any Flow], deepLinks: [DeepLinkPattern],
        context: @escaping @Sendable (JSONObject) throws -> JSONObject = { $0 }
    ) {
        var all: [any Flow] = [root]
        for flow in flows where flow.name != root.name { all.append(flow) }
        storage = Storage(scheme: scheme, rootFlow: root.name, flows: all, deepLinks: deepLinks, normalizeContext: context)
    }

    /// The flow registered under `name` (the first, if two share it).
    public func flow(named name: String) -> (any Flow)? {
        storage.flowNames.firstIndex(of: name).map { storage.flows[$0] }
    }

    /// Matches `url` against the patterns (exact, case-sensitive, no query, no trailing slash).
    public func match(deepLink url: String) -> DeepLink? {
        let prefix = scheme + "://"
        guard url.hasPrefix(prefix) else { return nil }
        let path = url.dropFirst(prefix.count)
        guard !path.contains("?"), !path.contains("#") else { return nil }
        for pattern in storage.deepLinks {
            if let params = pattern.match(path) { return DeepLink(url: url, pattern: pattern.pattern, params: params) }
        }
        return nil
    }
}

/// A state names a flow the application does not have (a state from another app version).
public struct UnknownFlowError: Error, Sendable, Hashable {
    public var flow: String
}
