import WayfinderCore

/// Change password: one flow reused from auth (forgot password) and from the profile tab.
/// It pushes onto whatever stack started it and finishes after the confirmation screen.
struct ChangePasswordFlow: Flow {
    let name = "changePassword"
    let screens = ["changePassword", "passwordChanged"]
    let routes = [
        RouteSpec("savePassword", params: [ParamSpec("password"), ParamSpec("confirm")], on: ["changePassword"]),
        RouteSpec("done", on: ["passwordChanged"]),
    ]

    func start(_ context: inout FlowContext, option: JSONValue) throws {
        context.show("changePassword")
    }

    func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws {
        switch route.name {
        case "savePassword":
            let password = route.string("password") ?? "", confirm = route.string("confirm") ?? ""
            guard password == confirm else { return context.reject(screen, "The passwords do not match.") }
            guard Credentials.isValidPassword(password) else {
                return context.reject(screen, "Use at least 8 characters.")
            }
            context.push("passwordChanged")
        case "done":
            try context.finish()
        default:
            break
        }
    }

    func render(_ screen: ScreenInstance, _ context: FlowContext) -> ScreenContent {
        if screen.name == "passwordChanged" {
            return ScreenContent(
                title: "Password changed",
                components: [
                    .notice(Notice(.success, "Your password has been changed.")),
                    .button("Done", .primary, route: "done"),
                ])
        }
        return ScreenContent(
            title: "Change password",
            components: [.heading("Choose a new password")] + screen.noticeComponents + [
                .field(name: "password", label: "New password", value: "", kind: .password),
                .field(name: "confirm", label: "Confirm password", value: "", kind: .password),
                .button("Save password", .primary, route: "savePassword", submit: true),
            ])
    }
}
