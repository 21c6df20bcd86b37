/// The checks of an application's version, migrations and update-required screen: what the
/// compiler cannot see in them (an old name still in use, a flow that is not registered).
extension Application {
    func checkVersions() -> [String] {
        var problems: [String] = []
        let current = AppVersion(version)
        if current == nil {
            problems.append("version '\(version)' is not a version: use dotted numbers such as 2 or 1.4.0")
        }
        for migration in migrations.versions {
            let label = "migration to \(migration.text)"
            guard let target = migration.version else {
                problems.append("\(label): '\(migration.text)' is not a version: use dotted numbers such as 2 or 1.4.0")
                continue
            }
            if let current, target > current {
                problems.append("\(label) is for a version after this application's \(version)")
            }
            for step in migration.steps { problems += check(step).map { "\(label): \($0)" } }
        }
        let basic: Set<Component.Kind> = [.heading, .text, .notice]
        for component in updateRequired.components where !basic.contains(component.kind) {
            problems.append("the update-required screen shows a \(component.kind.rawValue): use headings, text and notices, which every client renders")
        }
        return problems
    }

    private func check(_ step: MigrationStep) -> [String] {
        switch step {
        case .renameFlow(let old, let new):
            return unregistered(new) + (flow(named: old) == nil ? [] : ["flow '\(old)' is renamed but a flow of that name is still registered"])
        case .removeFlow(let name, let replacement):
            return (replacement.map(unregistered) ?? [])
                + (flow(named: name) == nil ? [] : ["flow '\(name)' is removed but a flow of that name is still registered"])
        case .renameScreen(let flowName, let old, _):
            return inFlow(flowName) { flow in
                flow.screens.contains(old) ? ["screen '\(old)' of flow '\(flowName)' is renamed but the flow still has a screen of that name"] : []
            }
        case .renameScreenParam:
            return []
        case .removeScreen(let flowName, let name, _):
            return inFlow(flowName) { flow in
                flow.screens.contains(name) ? ["screen '\(name)' of flow '\(flowName)' is removed but the flow still has a screen of that name"] : []
            }
        case .renameRoute(let flowName, let old, _), .removeRoute(let flowName, let old):
            return inFlow(flowName) { flow in
                flow.routes.contains { $0.name == old } ? ["route '\(old)' of flow '\(flowName)' is renamed or removed but the flow still has a route of that name"] : []
            }
        case .param(let change):
            return inFlow(change.flow) { flow in
                let params = flow.routes.first { $0.name == change.route }?.params.map(\.name) ?? []
                let at = "of route '\(change.route)' of flow '\(change.flow)'"
                switch change.change {
                case .removed:
                    return params.contains(change.param) ? ["param '\(change.param)' \(at) is removed but the route still has it"] : []
                case .renamed(let old):
                    if params.contains(old) { return ["param '\(old)' \(at) is renamed but the route still has it"] }
                    fallthrough
                case .converted, .defaulted:
                    return params.contains(change.param) ? [] : ["the route has no param '\(change.param)' \(at)"]
                }
            }
        case .renameDeepLink(let old, let new):
            let captures = { (pattern: DeepLinkPattern) in Set(pattern.segments.filter { $0.hasPrefix("{") && $0.hasSuffix("}") }) }
            var problems: [String] = []
            if deepLinks.contains(where: { $0.pattern == old }) {
                problems.append("deep link '\(old)' is renamed but it is still a pattern of the application")
            }
            if let target = deepLinks.first(where: { $0.pattern == new }), captures(target) != captures(DeepLinkPattern(old, description: "")) {
                problems.append("deep link '\(old)' is renamed to '\(new)', which captures other values")
            }
            return problems
        case .removeDeepLink(let old):
            return deepLinks.contains { $0.pattern == old } ? ["deep link '\(old)' is removed but it is still a pattern of the application"] : []
        case .model:
            return []
        case .invalid(let problem):
            return [problem]
        }
    }

    private func unregistered(_ name: String) -> [String] {
        flow(named: name) == nil ? ["flow '\(name)' is not registered in the application"] : []
    }

    private func inFlow(_ name: String, _ body: (any AnyFlow) -> [String]) -> [String] {
        guard let flow = flow(named: name) else { return unregistered(name) }
        return body(flow)
    }
}
