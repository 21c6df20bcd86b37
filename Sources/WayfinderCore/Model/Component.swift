/// The whole vocabulary a thin client must render (see the contract's "Components").
public enum Component: Sendable, Hashable {
    /// A title within the screen.
    case heading(String)
    /// A paragraph.
    case text(String)
    /// A message in a style (an error the user can fix, a confirmation).
    case notice(Notice)
    /// A text input: its value is submitted as param `name`; `value` is what it shows at first.
    case field(name: String, label: String, value: String, kind: FieldKind)
    /// A switch: its value is submitted as the boolean param `name`.
    case toggle(name: String, label: String, value: Bool)
    /// A button that triggers `action`; with `submit`, the client adds the screen's field and
    /// toggle values to the action's params.
    case button(title: String, style: ButtonStyle, action: Action, submit: Bool)
    /// Rows the user can tap, each with its own action.
    case list([ListItem])
    /// A picture at `url` (absolute, or a path on the server), described by `alt`.
    case image(url: String, alt: String)

    /// How a field is edited.
    public enum FieldKind: String, Sendable, Hashable, Codable {
        /// One line of text.
        case text
        /// An email address (clients offer their address keyboard).
        case email
        /// Hidden while typed.
        case password
        /// Several lines of text.
        case multiline
    }

    /// How prominent a button is.
    public enum ButtonStyle: String, Sendable, Hashable, Codable {
        /// The screen's main action.
        case primary
        /// An alternative to the main action.
        case secondary
        /// An action that deletes or cannot be undone.
        case destructive
        /// A minor action, shown as a link.
        case link
    }

    /// What a button or list item triggers.
    public struct Action: Sendable, Hashable {
        /// The route's name.
        public var route: String
        /// The route's params, sent as they are (a submit button adds the form's values).
        public var params: JSONObject
        /// An action that triggers `route` with `params`; ``FlowContext/action(_:)`` builds one
        /// from a typed route.
        public init(_ route: String, params: JSONObject = [:]) {
            self.route = route
            self.params = params
        }
    }

    /// One row of a list.
    public struct ListItem: Sendable, Hashable {
        /// Tells rows apart (for example a to-do's id).
        public var id: String
        /// The row's main text.
        public var title: String
        /// A second line; empty when there is none.
        public var subtitle: String
        /// Whether the row is checked (a done to-do), for a row the app makes checkable; nil (the
        /// default) for a row that is not, which clients draw without a check mark.
        public var checked: Bool?
        /// What tapping the row triggers.
        public var action: Action
        /// A row; checkable when `checked` is given.
        public init(id: String, title: String, subtitle: String = "", checked: Bool? = nil, action: Action) {
            self.id = id
            self.title = title
            self.subtitle = subtitle
            self.checked = checked
            self.action = action
        }
    }

    /// A button that triggers route `route` by name (``FlowContext/button(_:_:route:)`` checks
    /// the route against the flow's own).
    public static func button(_ title: String, _ style: ButtonStyle = .primary, route: String, params: JSONObject = [:], submit: Bool = false) -> Component {
        .button(title: title, style: style, action: Action(route, params: params), submit: submit)
    }
}

/// A message shown on a screen, typically after input the user can fix.
public struct Notice: Sendable, Hashable, Codable {
    /// The notice's tone.
    public enum Style: String, Sendable, Hashable, Codable {
        /// Something the user must fix.
        case error
        /// Something worth knowing.
        case info
        /// Something that went through.
        case success
    }

    /// The notice's tone.
    public var style: Style
    /// The message.
    public var text: String
    /// A notice of `style` saying `text`.
    public init(_ style: Style, _ text: String) {
        self.style = style
        self.text = text
    }
}
