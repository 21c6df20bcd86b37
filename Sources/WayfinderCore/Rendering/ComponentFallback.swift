/// What a client that cannot render a component is shown instead: a flow's answer to
/// ``Flow/fallback(for:on:_:)``.
///
/// Clients live for months, so a screen may use a component (or a version of one) that an older
/// client does not know. Such a client names what it renders (``ClientComponents``) and the
/// server replaces the rest, screen by screen: with the flow's own fallback, else the generic
/// one. Where neither works, the screen cannot be shown: the client gets the application's
/// update-required screen in its place (same id and routes, so back still works).
public enum ComponentFallback: Sendable, Hashable {
    /// These components instead (none: leave it out). One of them that the client cannot
    /// render gets the generic fallback in turn.
    case components([Component])
    /// The generic fallback: a heading or a notice becomes text, an image its description (or
    /// nothing), a list one button per item; a text, field, toggle or button has none, as the
    /// user could not act on the screen without it.
    case generic
    /// The screen cannot be used without this component: show the update-required screen.
    case updateRequired
}

extension Flow {
    /// The generic fallback for every component (see ``ComponentFallback/generic``).
    public func fallback(for component: Component, on screen: Screen, _ flow: FlowContext<Self>) -> ComponentFallback {
        .generic
    }
}

extension ScreenContent {
    /// The update-required screen of an application that declares none.
    public static let updateRequired = ScreenContent(
        title: "Update required",
        components: [
            .heading("Update required"),
            .text("This screen needs a newer version of the app. Update the app to continue."),
        ])

    /// This content for a client that renders `client`; nil when a component has no fallback
    /// the client can render (the screen cannot be shown).
    func adapted(for client: ClientComponents, _ fallback: (Component) -> ComponentFallback) -> ScreenContent? {
        var components: [Component] = []
        components.reserveCapacity(self.components.count)
        for component in self.components {
            if client.renders(component) {
                components.append(component)
                continue
            }
            let replacement: [Component]?
            switch fallback(component) {
            case .components(let chosen):
                var kept: [Component]? = []
                for candidate in chosen {
                    guard let usable = client.renders(candidate) ? [candidate] : candidate.genericFallback(for: client) else {
                        kept = nil
                        break
                    }
                    kept?.append(contentsOf: usable)
                }
                replacement = kept
            case .generic:
                replacement = component.genericFallback(for: client)
            case .updateRequired:
                replacement = nil
            }
            guard let replacement else { return nil }
            components.append(contentsOf: replacement)
        }
        return ScreenContent(title: title, components: components)
    }
}

extension Component {
    /// The generic fallback of this component for `client` (see ``ComponentFallback/generic``);
    /// nil when there is none.
    func genericFallback(for client: ClientComponents) -> [Component]? {
        let text = client.renders(.text)
        switch self {
        case .heading(let heading): return text ? [.text(heading)] : nil
        case .notice(let notice): return text ? [.text(notice.text)] : nil
        case .image(_, let alt): return alt.isEmpty ? [] : text ? [.text(alt)] : nil
        case .list(let items):
            guard client.renders(.button) else { return nil }
            return items.map { .button(title: $0.title, style: .secondary, action: $0.action, submit: false) }
        case .text, .field, .toggle, .button:
            return nil
        }
    }
}
