import WayfinderCore

/// Change password: one flow reused from auth (forgot password) and from the profile tab.
/// It pushes onto whatever stack started it and finishes after the confirmation screen.
struct ChangePasswordFlow: DemoFlow {
    enum Screen: FlowScreen {
        case changePassword, passwordChanged
        enum CodingKeys: CodingKey, CaseIterable { case changePassword, passwordChanged }
    }

    enum Route: FlowRoute {
        case savePassword(password: Secret, confirm: Secret)
        case done
        enum CodingKeys: CodingKey, CaseIterable { case savePassword, done }
    }

    func routes(on screen: Screen.Name) -> [Route.Name] {
        switch screen {
        case .changePassword: [.savePassword]
        case .passwordChanged: [.done]
        }
    }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.changePassword)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .savePassword(let password, let confirm):
            guard password.value == confirm.value else { return flow.reject("The passwords do not match.") }
            guard Credentials.isValid(password: password.value) else { return flow.reject("Use at least 8 characters.") }
            flow.push(.passwordChanged)
        case .done:
            try flow.finish()
        }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        switch screen {
        case .changePassword:
            ScreenContent(
                title: "Change password",
                components: [.heading("Choose a new password")] + flow.noticeComponents + [
                    .field(name: "password", label: "New password", value: "", kind: .password),
                    .field(name: "confirm", label: "Confirm password", value: "", kind: .password),
                    flow.button("Save password", submitting: .savePassword),
                ])
        case .passwordChanged:
            ScreenContent(
                title: "Password changed",
                components: [
                    .notice(Notice(.success, "Your password has been changed.")),
                    flow.button("Done", route: .done),
                ])
        }
    }
}
