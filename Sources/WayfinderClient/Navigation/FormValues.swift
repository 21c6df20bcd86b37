/// The values of a screen's fields and toggles as the user edits them, and the action a button
/// sends with them.
///
/// Starts from what the server rendered; a submit button merges every value into its action's
/// params (a value wins over a param of the same name), any other button sends its action as is.
public struct FormValues: Sendable, Hashable {
    /// The id of the screen these values belong to.
    public let screen: String
    /// Field values (strings) and toggle values (booleans) by param name.
    public var values: [String: WireValue]

    /// The values `screen` shows.
    public init(_ screen: Screen) {
        self.screen = screen.id
        var values: [String: WireValue] = [:]
        for component in screen.components {
            switch component {
            case .field(let field): values[field.name] = .string(field.value)
            case .toggle(let toggle): values[toggle.name] = .bool(toggle.value)
            default: break
            }
        }
        self.values = values
    }

    /// A value by param name.
    public subscript(name: String) -> WireValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// The text of a field (empty if absent or not text).
    public func text(_ name: String) -> String { values[name]?.stringValue ?? "" }

    /// Whether a toggle is on (false if absent or not a boolean).
    public func isOn(_ name: String) -> Bool { values[name]?.boolValue ?? false }

    /// What pressing `button` sends: its action, with these values merged in if it submits.
    public func action(for button: WireComponent.Button) -> RouteAction {
        button.submit ? button.action.merging(values) : button.action
    }
}
