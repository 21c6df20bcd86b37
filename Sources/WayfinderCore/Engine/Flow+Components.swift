/// Components that trigger a flow's own routes, checked by the compiler against its `Route`.
extension Flow {
    /// A button that triggers `route` with its associated values as params.
    public func button(_ title: String, _ style: Component.ButtonStyle = .primary, route: Route) -> Component {
        .button(title: title, style: style, action: action(route), submit: false)
    }

    /// A button that submits the screen's fields as the params of route `name`.
    public func button(_ title: String, _ style: Component.ButtonStyle = .primary, submitting name: Route.Name) -> Component {
        .button(title: title, style: style, action: Component.Action(name.stringValue), submit: true)
    }

    /// What a list item or a button does: trigger `route` with its associated values as params.
    public func action(_ route: Route) -> Component.Action {
        guard let (name, params) = try? route.parts() else { return Component.Action(Route.name(of: route)) }
        return Component.Action(name, params: params)
    }
}
