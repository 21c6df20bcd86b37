/// Components that trigger the flow's own routes, checked by the compiler against its `Route`.
extension FlowContext {
    /// A button that triggers `route` with its associated values as params.
    public func button(_ title: String, _ style: Component.ButtonStyle = .primary, route: F.Route) -> Component {
        .button(title: title, style: style, action: action(route), submit: false)
    }

    /// A button that submits the screen's fields as the params of route `name`.
    public func button(_ title: String, _ style: Component.ButtonStyle = .primary, submitting name: F.Route.Name) -> Component {
        .button(title: title, style: style, action: Component.Action(name.stringValue), submit: true)
    }

    /// What a list item or a button does: trigger `route` with its associated values as params.
    public func action(_ route: F.Route) -> Component.Action {
        guard let (name, params) = try? routes.parts(of: route) else { return Component.Action(F.Route.name(of: route)) }
        return Component.Action(name, params: params)
    }
}
