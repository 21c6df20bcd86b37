/// A change between a release's catalog and this application that can break what the release
/// left behind: its stored sessions, its clients, its links.
public struct BreakingChange: Sendable, Hashable, CustomStringConvertible {
    /// What kind of change: something gone (a flow, screen, route, parameter, deep-link
    /// pattern), a parameter whose type or allowed values changed, a parameter newly required.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A flow of the old catalog is gone.
        case flowRemoved
        /// A screen of a flow is gone.
        case screenRemoved
        /// A route of a flow is gone.
        case routeRemoved
        /// A parameter of a route is gone.
        case paramRemoved
        /// A parameter's type or allowed values changed.
        case paramRetyped
        /// A parameter that was optional (or absent) is now required.
        case paramRequired
        /// A deep-link pattern is gone.
        case deepLinkRemoved
    }

    /// What kind of change this is.
    public var kind: Kind
    /// What changed: `route 'signIn' of flow 'auth' is gone`.
    public var change: String
    /// How a migration covers it: `renamed to 'login' (migration to 2)`; nil when none does.
    public var migration: String?

    /// The change and how it is covered: `route 'signIn' of flow 'auth' is gone: renamed to 'login' (migration to 2)`.
    public var description: String { change + (migration.map { ": \($0)" } ?? ": no migration") }
}

extension Application {
    /// The breaking changes since `old` (a release's catalog, as `/v1/flows` gave it): flows,
    /// screens, routes, parameters and deep-link patterns it had that this application lacks, a
    /// parameter whose type or values changed, a parameter that became required. Each says which
    /// migration covers it, if one does: a migration to a version after `old`'s (every migration
    /// when `old` has no version).
    public func breakingChanges(since old: Catalog) -> [BreakingChange] {
        let coverage = Coverage(steps: migrations.labelledSteps(after: old.version.flatMap(AppVersion.init)))
        let covered = { (find: (MigrationStep) -> String?) in coverage.first(find) }
        let current = catalog
        var changes: [BreakingChange] = []
        func add(_ kind: BreakingChange.Kind, _ change: String, _ migration: String?) {
            changes.append(BreakingChange(kind: kind, change: change, migration: migration))
        }
        for oldFlow in old.flows {
            let name = migrations.currentFlowName(oldFlow.name)
            guard let flow = current.flows.first(where: { $0.name == name }) else {
                add(.flowRemoved, "flow '\(oldFlow.name)' is gone", covered { step in
                    guard case .removeFlow(oldFlow.name, let replacement) = step else { return nil }
                    return replacement.map { "replaced by '\($0)'" } ?? "removed, its parent decides"
                })
                continue
            }
            if name != oldFlow.name { add(.flowRemoved, "flow '\(oldFlow.name)' is gone", covered { renamed($0, flow: oldFlow.name) }) }
            for screen in oldFlow.screens where !flow.screens.contains(screen) {
                add(.screenRemoved, "screen '\(screen)' of flow '\(oldFlow.name)' is gone", covered { step in
                    switch step {
                    case .renameScreen(name, screen, let new) where flow.screens.contains(new): "renamed to '\(new)'"
                    case .removeScreen(name, screen, let replacement): replacement.map { "replaced by '\($0.name)'" } ?? "removed"
                    default: nil
                    }
                })
            }
            for oldRoute in oldFlow.routes {
                let at = "route '\(oldRoute.name)' of flow '\(oldFlow.name)'"
                let routeName = migrations.routeRenames[name]?[oldRoute.name] ?? oldRoute.name
                guard let route = flow.routes.first(where: { $0.name == routeName }) else {
                    add(.routeRemoved, "\(at) is gone", covered { step in
                        guard case .removeRoute(name, oldRoute.name) = step else { return nil }
                        return "removed"
                    })
                    continue
                }
                if routeName != oldRoute.name {
                    add(.routeRemoved, "\(at) is gone", covered { step in
                        guard case .renameRoute(name, oldRoute.name, let new) = step else { return nil }
                        return "renamed to '\(new)'"
                    })
                }
                changes += paramChanges(oldRoute.params, route.params, at: at, flow: name, route: routeName, coverage)
            }
        }
        let currentPatterns = Set(current.deepLinks.map(\.pattern))
        for link in old.deepLinks where !currentPatterns.contains(link.pattern) {
            let path = link.pattern.firstRange(of: "://").map { String(link.pattern[$0.upperBound...]) } ?? link.pattern
            add(.deepLinkRemoved, "deep link '\(link.pattern)' is gone", covered { step in
                switch step {
                case .renameDeepLink(path, let new): "renamed to '\(scheme)://\(new)'"
                case .removeDeepLink(path): "removed"
                default: nil
                }
            })
        }
        return changes
    }

    /// The breaking changes between a route's old and current parameters.
    private func paramChanges(
        _ old: [ParamSpec], _ new: [ParamSpec], at route: String, flow: String, route routeName: String,
        _ coverage: Coverage
    ) -> [BreakingChange] {
        var changes: [BreakingChange] = []
        func step(_ param: String, _ match: (ParamStep.Change) -> String?) -> String? {
            coverage.first(param: param, of: routeName, in: flow, match)
        }
        var matched: Set<String> = []
        for param in old {
            let at = "param '\(param.name)' of \(route)"
            let rename = migrations.params[Migrations.RouteKey(flow: flow, route: routeName)]?.first { change in
                if case .renamed(param.name) = change.change { return new.contains { $0.name == change.param } }
                return false
            }
            guard let current = new.first(where: { $0.name == (rename?.param ?? param.name) }) else {
                changes.append(BreakingChange(kind: .paramRemoved, change: "\(at) is gone", migration: step(param.name) { change in
                    if case .removed = change { return "removed" }
                    return nil
                }))
                continue
            }
            matched.insert(current.name)
            if let rename {
                changes.append(BreakingChange(kind: .paramRemoved, change: "\(at) is gone", migration: step(rename.param) { change in
                    if case .renamed(param.name) = change { return "renamed to '\(rename.param)'" }
                    return nil
                }))
            }
            let lostValues = current.values.map { values in param.values.map { !Set($0).isSubset(of: values) } ?? true } ?? false
            if current.type != param.type || lostValues {
                let was = param.values.map { "one of \($0.joined(separator: ", "))" } ?? param.type.rawValue
                let now = current.values.map { "one of \($0.joined(separator: ", "))" } ?? current.type.rawValue
                changes.append(BreakingChange(kind: .paramRetyped, change: "\(at) was \(was), is now \(now)", migration: step(current.name) { change in
                    if case .converted = change { return "converted" }
                    return nil
                }))
            }
            if current.required && !param.required {
                changes.append(requiredChange("\(at) became required", current.name, step))
            }
        }
        for param in new where param.required && !matched.contains(param.name) {
            changes.append(requiredChange("param '\(param.name)' of \(route) is new and required", param.name, step))
        }
        return changes
    }

    private func requiredChange(_ change: String, _ param: String, _ step: (String, (ParamStep.Change) -> String?) -> String?) -> BreakingChange {
        BreakingChange(kind: .paramRequired, change: change, migration: step(param) { change in
            if case .defaulted(let value) = change { return "defaults to \(value.canonicalString)" }
            return nil
        })
    }

    /// The migrations that apply to a release's states, searched for the one covering a change.
    private struct Coverage {
        let steps: [(version: String, step: MigrationStep)]

        /// How the first step that `find` recognises covers the change, with its version.
        func first(_ find: (MigrationStep) -> String?) -> String? {
            for (version, step) in steps { if let how = find(step) { return "\(how) (migration to \(version))" } }
            return nil
        }

        /// `first` among the changes to parameter `param` of route `route` of flow `flow`.
        func first(param: String, of route: String, in flow: String, _ match: (ParamStep.Change) -> String?) -> String? {
            for (version, step) in steps {
                guard case .param(let change) = step, change.flow == flow, change.route == route, change.param == param,
                    let how = match(change.change)
                else { continue }
                return "\(how) (migration to \(version))"
            }
            return nil
        }
    }

    private func renamed(_ step: MigrationStep, flow old: String) -> String? {
        guard case .renameFlow(old, let new) = step else { return nil }
        return "renamed to '\(new)'"
    }
}
