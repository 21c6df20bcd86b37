/// The route params an application declares ``Secret`` (a password), by route name: what the
/// journal, the logs and replay bundles never hold in clear.
///
/// Built once from the catalog. A route name offered by several flows counts a param as secret
/// if any of them declares it so.
public struct SecretParams: Sendable, Hashable {
    private var byRoute: [String: Set<String>]

    /// The secret params of `app`'s routes.
    public init(_ app: Application) {
        var byRoute: [String: Set<String>] = [:]
        for flow in app.catalog.flows {
            for route in flow.routes {
                let secret = route.params.filter(\.secret).map(\.name)
                if !secret.isEmpty { byRoute[route.name, default: []].formUnion(secret) }
            }
        }
        self.byRoute = byRoute
    }

    /// No secrets at all.
    public init() { byRoute = [:] }

    /// Whether `param` of `route` is secret.
    public func isSecret(route: String, param: String) -> Bool { byRoute[route]?.contains(param) ?? false }

    /// `route`'s params with each secret one (that is present) replaced by ``JournalAction/redacted``.
    public func redact(_ route: RouteRequest) -> JSONObject {
        guard !route.params.isEmpty, let names = byRoute[route.name] else { return route.params }
        var params = route.params
        for name in names where params[name] != nil && params[name] != .null { params[name] = .string(JournalAction.redacted) }
        return params
    }

    /// Whether ``redact(_:)`` changes any of `route`'s params (without building the redacted copy).
    public func redacts(_ route: RouteRequest) -> Bool {
        guard !route.params.isEmpty, let names = byRoute[route.name] else { return false }
        return names.contains { name in
            guard let value = route.params[name] else { return false }
            return value != .null && value != .string(JournalAction.redacted)
        }
    }
}
