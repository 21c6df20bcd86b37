import Glibc
import WayfinderCore

/// The sample application of the coordinator-pattern articles, written the way a team writes
/// its own app on Wayfinder: one ``Flow`` per coordinator, registered in one place.
public enum DemoApp {
    /// The services behind its effects: the accounts and the mail sent, in `demo-users.jsonl` and
    /// `demo-mail.jsonl` of `dataDirectory` (the SQLite store's folder), or in memory without one.
    /// `WAYFINDER_DEMO_MAIL` names the mail file wherever the store is (the browser and attack
    /// tests read the codes there); `WAYFINDER_DEMO_SERVICE_DELAY` (seconds) makes the account
    /// service that slow, to show a busy screen.
    public static func makeServices(dataDirectory: String?) throws -> EffectServices {
        let delay = environment("WAYFINDER_DEMO_SERVICE_DELAY").flatMap { Double($0) }.map { Duration.milliseconds(Int($0 * 1000)) }
        let mail = environment("WAYFINDER_DEMO_MAIL") ?? dataDirectory.map { $0 + "/demo-mail.jsonl" }
        return try DemoServices(
            users: UserStore(path: dataDirectory.map { $0 + "/demo-users.jsonl" }, mailer: mail.map { Mailer(path: $0) } ?? Mailer()),
            delay: delay ?? .zero
        ).effects
    }

    private static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// The application: launch instructor, onboarding, auth, change password, main tabs.
    public static func makeApplication() throws -> Application {
        try makeApplication(migrations: [])
    }

    /// The application with `migrations` (the compatibility tests declare some).
    static func makeApplication(migrations: [Migration<Demo>]) throws -> Application {
        try Application(
            scheme: "wayfinder", version: "1", root: AppFlow(),
            flows: [OnboardingFlow(), AuthFlow(), ChangePasswordFlow(), MainFlow(), HomeFlow(), TodosFlow(), ProfileFlow()],
            migrations: migrations)
    }
}

/// The sample app's shared types.
enum Demo: AppSchema {
    typealias Context = DemoContext
    typealias Model = TodoList
    typealias Link = DemoLink
    typealias Signal = DemoSignal
}

/// What the team's backend tells a session: someone shared a to-do with the user.
enum DemoSignal: AppSignal {
    case todoShared(title: String, from: String)
    enum CodingKeys: CodingKey, CaseIterable { case todoShared }
}

/// Every flow of the sample app.
protocol DemoFlow: Flow where App == Demo {}

/// Who the user is and how the app looks. A client may say how the app looks and whether the
/// walkthrough was seen; whether someone is signed in, and who, is the server's: the sign-in flow
/// sets it after the account service checked the password, or the session's verified identity.
struct DemoContext: SessionContext {
    enum Platform: String, Codable, CaseIterable { case phone, tablet, web }
    enum Variant: String, Codable, CaseIterable { case A, B }

    var onboarded = false
    var authenticated = false
    var platform = Platform.phone
    /// The onboarding A/B test: three walkthrough pages, or one.
    var variant = Variant.A
    /// Traffic is counted per onboarding variant.
    static let variantKey: String? = "variant"
    var user: String?
    static let clientMembers = ContextMembers.only(["onboarded", "platform", "variant"])

    func normalized() -> DemoContext {
        var context = self
        if !authenticated { context.user = nil }
        return context
    }
}

/// Where the sample app's deep links lead (`wayfinder://todos/2`).
enum DemoLink: DeepLinkDestination {
    case todos, newTodo, todo(id: String), profile, changePassword, signUp

    enum CodingKeys: String, CodingKey, CaseIterable {
        case todos, newTodo = "todos/new", todo = "todos/{id}", profile, changePassword = "profile/password", signUp = "signup"
    }

    static func describe(_ link: Name) -> String {
        switch link {
        case .todos: "The to-do list"
        case .newTodo: "The to-do list with the new to-do form open"
        case .todo: "One to-do"
        case .profile: "The profile tab"
        case .changePassword: "Change password from the profile"
        case .signUp: "Create an account (ignored while signed in)"
        }
    }
}

extension FlowContext where F: DemoFlow {
    /// Marks the session signed in as `email`.
    mutating func signIn(_ email: String) {
        context.authenticated = true
        context.user = email
    }
}

/// The sign-in rules of the sample app.
enum Credentials {
    static func isValid(email: String, password: String) -> Bool { email.contains("@") && isValid(password: password) }
    static func isValid(password: String) -> Bool { password.count >= 8 }
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
