import WayfinderCore

/// The sample application of the coordinator-pattern articles, written the way a team writes
/// its own app on Wayfinder: one ``Flow`` per coordinator, registered in one place.
public enum DemoApp {
    /// The application: launch instructor, onboarding, auth, change password, main tabs.
    public static let application = Application(
        scheme: "wayfinder",
        root: AppFlow(),
        flows: [
            OnboardingFlow(), AuthFlow(), ChangePasswordFlow(), MainFlow(), HomeFlow(), TodosFlow(), ProfileFlow(),
        ],
        deepLinks: [
            DeepLinkPattern("todos", description: "The to-do list"),
            DeepLinkPattern("todos/new", description: "The to-do list with the new to-do form open"),
            DeepLinkPattern("todos/{id}", description: "One to-do"),
            DeepLinkPattern("profile", description: "The profile tab"),
            DeepLinkPattern("profile/password", description: "Change password from the profile"),
            DeepLinkPattern("signup", description: "Create an account (ignored while signed in)"),
        ],
        context: DemoContext.normalize)

    public static let engine = Engine(application)
}

/// Reads a client's context: known keys only, checked types, defaults filled in.
enum DemoContext {
    static let platforms = ["phone", "tablet", "web"]
    static let variants = ["A", "B"]

    @Sendable static func normalize(_ input: JSONObject) throws -> JSONObject {
        var problems: [InvalidParam] = []
        func flag(_ key: String) -> Bool {
            guard let value = input[key], !value.isNull else { return false }
            guard let bool = value.boolValue else {
                problems.append(InvalidParam(name: "context.\(key)", reason: "must be a boolean"))
                return false
            }
            return bool
        }
        func choice(_ key: String, _ allowed: [String]) -> String {
            guard let value = input[key], !value.isNull else { return allowed[0] }
            guard let string = value.stringValue, allowed.contains(string) else {
                problems.append(InvalidParam(name: "context.\(key)", reason: "must be one of \(allowed.joined(separator: ", "))"))
                return allowed[0]
            }
            return string
        }
        let onboarded = flag("onboarded")
        let authenticated = flag("authenticated")
        let platform = choice("platform", platforms)
        let variant = choice("variant", variants)
        var user = JSONValue.null
        if let value = input["user"], !value.isNull {
            if let string = value.stringValue { user = .string(string) } else {
                problems.append(InvalidParam(name: "context.user", reason: "must be a string"))
            }
        }
        guard problems.isEmpty else { throw NavigationError.invalidParams(problems) }
        return [
            "onboarded": .bool(onboarded), "authenticated": .bool(authenticated), "platform": .string(platform),
            "variant": .string(variant), "user": authenticated ? user : .null,
        ]
    }
}

extension FlowContext {
    var isAuthenticated: Bool { context["authenticated"]?.boolValue ?? false }
    var isOnboarded: Bool { context["onboarded"]?.boolValue ?? false }
    var platform: String { context["platform"]?.stringValue ?? "phone" }

    /// Shows a notice on a screen, keeping the given (non-secret) form values.
    mutating func reject(_ screen: ScreenInstance, _ message: String, keeping form: JSONObject = [:]) {
        updateScreen(screen.id) {
            $0.notice = Notice(.error, message)
            $0.form = form
        }
    }

    /// Marks the session signed in as `email`.
    mutating func signIn(_ email: String) {
        context["authenticated"] = .bool(true)
        context["user"] = .string(email)
    }
}

/// The sign-in rules of the sample app.
enum Credentials {
    static func isValidEmail(_ email: String) -> Bool { email.contains("@") }
    static func isValidPassword(_ password: String) -> Bool { password.count >= 8 }
    static let rule = "Enter an email address with an @ and a password of at least 8 characters."
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}

extension ScreenInstance {
    /// The screen's notice as a component (empty when there is none).
    var noticeComponents: [Component] { notice.map { [.notice($0)] } ?? [] }
}
