/// The whole vocabulary a thin client must render (see the contract's "Components").
public enum Component: Sendable, Hashable {
    case heading(String)
    case text(String)
    case notice(Notice)
    case field(name: String, label: String, value: String, kind: FieldKind)
    case toggle(name: String, label: String, value: Bool)
    case button(title: String, style: ButtonStyle, action: Action, submit: Bool)
    case list([ListItem])
    case image(url: String, alt: String)

    public enum FieldKind: String, Sendable, Hashable, Codable { case text, email, password, multiline }
    public enum ButtonStyle: String, Sendable, Hashable, Codable { case primary, secondary, destructive, link }

    /// What a button or list item triggers.
    public struct Action: Sendable, Hashable {
        public var route: String
        public var params: JSONObject
        public init(_ route: String, params: JSONObject = [:]) {
            self.route = route
            self.params = params
        }
    }

    public struct ListItem: Sendable, Hashable {
        public var id: String
        public var title: String
        public var subtitle: String
        public var checked: Bool
        public var action: Action
        public init(id: String, title: String, subtitle: String = "", checked: Bool = false, action: Action) {
            self.id = id
            self.title = title
            self.subtitle = subtitle
            self.checked = checked
            self.action = action
        }
    }

    public static func button(_ title: String, _ style: ButtonStyle = .primary, route: String, params: JSONObject = [:], submit: Bool = false) -> Component {
        .button(title: title, style: style, action: Action(route, params: params), submit: submit)
    }
}

/// A message shown on a screen, typically after input the user can fix.
public struct Notice: Sendable, Hashable, Codable {
    public enum Style: String, Sendable, Hashable, Codable { case error, info, success }
    public var style: Style
    public var text: String
    public init(_ style: Style, _ text: String) {
        self.style = style
        self.text = text
    }
}
