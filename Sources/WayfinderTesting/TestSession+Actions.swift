import WayfinderCore

extension TestSession {
    /// Every parameter that a client, tapping an action of the top screen of `state` (a button,
    /// a list row), would send to a route that does not declare it, which the server refuses
    /// (`422 invalid_params`). A submit button sends the screen's fields and toggles too, so each
    /// of them must be a parameter of its route. Empty when every tap passes that check;
    /// ``send(_:sourceLocation:_:)`` and the other steps record each one as an issue.
    public static func undeclaredParams(in state: SessionState, engine: Engine) -> [String] {
        guard let top = state.navigation.topScreen, let screen = engine.render(state).stack.last else { return [] }
        var form: [String] = []
        var actions: [(action: Component.Action, submit: Bool)] = []
        for component in screen.components {
            switch component {
            case .field(let name, _, _, _), .toggle(let name, _, _): form.append(name)
            case .button(_, _, let action, let submit): actions.append((action, submit))
            case .list(let items): actions += items.map { ($0.action, false) }
            default: break
            }
        }
        let routes = engine.routes(whenOnTop: top, in: state)
        var problems: [String] = []
        for (action, submit) in actions {
            guard let route = routes.first(where: { $0.name == action.route }) else { continue }
            let sent = Set(action.params.filter { !$0.value.isNull }.keys).union(submit ? form : [])
            for name in sent.sorted() where !route.params.contains(where: { $0.name == name }) {
                problems.append("screen \(screen.id) (\(screen.name)) sends '\(name)' to route '\(route.name)', which does not declare it")
            }
        }
        return problems
    }
}
