extension WireComponent {
    /// A message about the user's input.
    public struct Notice: Codable, Sendable, Hashable {
        /// How to show it.
        public var style: Style
        /// The message.
        public var text: String

        /// A notice as the server would send it.
        public init(style: Style, text: String) {
            self.style = style
            self.text = text
        }

        /// `error`, `info` or `success` (or a style added later).
        public struct Style: OpenEnumeration {
            /// The raw value.
            public let rawValue: String
            /// Any value, known or not.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// Something to fix.
            public static let error: Style = "error"
            /// For information.
            public static let info: Style = "info"
            /// Something went well.
            public static let success: Style = "success"
        }
    }

    /// A text input; a submit button sends its value as the param `name`.
    public struct Field: Codable, Sendable, Hashable {
        /// The param name its value is submitted as.
        public var name: String
        /// The label.
        public var label: String
        /// The value to show (the server never echoes passwords).
        public var value: String
        /// Which keyboard and masking to use.
        public var kind: Kind

        /// A field as the server would send it.
        public init(name: String, label: String, value: String = "", kind: Kind = .text) {
            self.name = name
            self.label = label
            self.value = value
            self.kind = kind
        }

        /// `text`, `email`, `password`, `multiline` (or a kind added later: treat it as text).
        public struct Kind: OpenEnumeration {
            /// The raw value.
            public let rawValue: String
            /// Any value, known or not.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// One line of text.
            public static let text: Kind = "text"
            /// An email address.
            public static let email: Kind = "email"
            /// A secret: mask it.
            public static let password: Kind = "password"
            /// Several lines of text.
            public static let multiline: Kind = "multiline"
        }
    }

    /// A switch; a submit button sends its value as the param `name`.
    public struct Toggle: Codable, Sendable, Hashable {
        /// The param name its value is submitted as.
        public var name: String
        /// The label.
        public var label: String
        /// On or off.
        public var value: Bool

        /// A toggle as the server would send it.
        public init(name: String, label: String, value: Bool) {
            self.name = name
            self.label = label
            self.value = value
        }
    }

    /// A button that triggers a route.
    public struct Button: Codable, Sendable, Hashable {
        /// The label.
        public var title: String
        /// How prominent it is.
        public var style: Style
        /// What it triggers.
        public var action: RouteAction
        /// Whether the screen's field and toggle values are merged into the action's params
        /// (see ``FormValues/action(for:)``).
        public var submit: Bool

        /// A button as the server would send it.
        public init(title: String, style: Style = .primary, action: RouteAction, submit: Bool = false) {
            self.title = title
            self.style = style
            self.action = action
            self.submit = submit
        }

        /// `primary`, `secondary`, `destructive`, `link` (or a style added later).
        public struct Style: OpenEnumeration {
            /// The raw value.
            public let rawValue: String
            /// Any value, known or not.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// The main action.
            public static let primary: Style = "primary"
            /// Another action.
            public static let secondary: Style = "secondary"
            /// An action that deletes or ends something.
            public static let destructive: Style = "destructive"
            /// A quiet action shown as a link.
            public static let link: Style = "link"
        }
    }

    /// One row of a list.
    public struct ListItem: Codable, Sendable, Hashable, Identifiable {
        /// Unique within the list.
        public var id: String
        /// The main line.
        public var title: String
        /// The second line (may be empty).
        public var subtitle: String
        /// Whether to show it as done, for a row the app makes checkable; nil for a row that is not
        /// (draw no check mark).
        public var checked: Bool?
        /// What tapping the row triggers.
        public var action: RouteAction

        /// A row as the server would send it.
        public init(id: String, title: String, subtitle: String = "", checked: Bool? = nil, action: RouteAction) {
            self.id = id
            self.title = title
            self.subtitle = subtitle
            self.checked = checked
            self.action = action
        }
    }

    /// A picture.
    public struct Image: Codable, Sendable, Hashable {
        /// Where it is: relative to the server (`/images/walkthrough-1.svg`) or absolute.
        public var url: String
        /// What it shows, for accessibility and text clients.
        public var alt: String

        /// An image as the server would send it.
        public init(url: String, alt: String) {
            self.url = url
            self.alt = alt
        }
    }
}
