/// What old clients send, read as this version of the app declares it: routes renamed by a
/// migration, and their parameters renamed, converted or given a default.
extension Application {
    /// The route among `available` (offered by flow `flow`) that `route` triggers — by its name,
    /// else by an old name a migration renamed — and the request as that route reads it.
    func resolve(_ route: RouteRequest, among available: [RouteSpec], flow: String) -> (spec: RouteSpec, request: RouteRequest)? {
        if let spec = available.first(where: { $0.name == route.name }) {
            return (spec, requestsUnchanged ? route : migrated(route, to: spec, flow: flow))
        }
        guard !requestsUnchanged, let new = migrations.routeRenames[flow]?[route.name],
            let spec = available.first(where: { $0.name == new })
        else { return nil }
        var renamed = route
        renamed.name = new
        return (spec, migrated(renamed, to: spec, flow: flow))
    }

    /// `route` with the parameter changes of the migrations of route `spec` of flow `flow`.
    private func migrated(_ route: RouteRequest, to spec: RouteSpec, flow: String) -> RouteRequest {
        guard let steps = migrations.params[Migrations.RouteKey(flow: flow, route: spec.name)] else { return route }
        var request = route
        for step in steps {
            switch step.change {
            case .renamed(let old):
                if request[step.param] == nil, let value = request.params.removeValue(forKey: old) { request.params[step.param] = value }
            case .removed:
                request.params.removeValue(forKey: step.param)
            case .converted(let convert):
                guard let value = request[step.param], let param = spec.params.first(where: { $0.name == step.param }),
                    !param.accepts(value), let converted = convert(value)
                else { continue }
                request.params[step.param] = converted
            case .defaulted(let value):
                if request[step.param] == nil { request.params[step.param] = value }
            }
        }
        return request
    }
}

extension ParamSpec {
    /// Whether `value` has this parameter's type (and is one of its values, for an enum).
    func accepts(_ value: JSONValue) -> Bool {
        type.accepts(value) && (values.map { $0.contains(value.scalarText) } ?? true)
    }
}
