/// Everything the engine refuses, as data. The API maps each case to a status and problem code
/// in one place; the engine itself knows nothing of HTTP.
public enum NavigationError: Error, Sendable, Hashable {
    /// No coordinator in the responder chain accepts the route; `available` is the top screen's routes.
    case routeUnavailable(route: String, available: [String])
    /// Missing or ill-typed parameters, in catalog order (the first is "the" param).
    case invalidParams([InvalidParam])
    /// A deep link that matches no pattern or names something that does not exist.
    case unknownDeepLink(String)
    /// `back` at a root screen.
    case nothingToPop
    /// `back` naming a screen that is not on top (a double tap).
    case staleScreen(requested: String, top: String)
    /// A signal the app does not declare; `known` is the app's signals.
    case unknownSignal(String, known: [String])
    /// A declared signal no coordinator of the session wants now.
    case signalUnwanted(String)

    /// `invalidParams` with one parameter: for a flow that refuses a value its type allows.
    public static func invalidParam(_ name: String, _ reason: String) -> NavigationError {
        .invalidParams([InvalidParam(name: name, reason: reason)])
    }
}
