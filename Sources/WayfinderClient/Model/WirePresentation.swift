/// How a screen was presented: `root` (first of a stack or tab), `push`, or the first screen of a
/// modal (`sheet`, `fullScreen`).
public struct WirePresentation: OpenEnumeration {
    /// The raw value.
    public let rawValue: String
    /// Any value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The first screen of the root stack or of a tab.
    public static let root: WirePresentation = "root"
    /// Pushed onto a stack.
    public static let push: WirePresentation = "push"
    /// The first screen of a sheet.
    public static let sheet: WirePresentation = "sheet"
    /// The first screen of a full-screen modal.
    public static let fullScreen: WirePresentation = "fullScreen"

    /// Whether this starts a modal (a sheet, a full-screen cover, or a modal style added later).
    public var isModal: Bool { self != .root && self != .push }
}
