import WayfinderCore

/// Change password: one flow reused from auth (forgot password) and from the profile tab.
/// Signed in, it asks for the current password; on the forgot-password path, for a code mailed
/// to the address. It pushes onto whatever stack started it and finishes after the confirmation
/// screen. The account service (``UserStore``) changes the password.
struct ChangePasswordFlow: DemoFlow {
    enum Screen: FlowScreen {
        case changePassword
        /// Forgot password: the address to mail a code to.
        case forgotPassword
        /// The code mailed to `email` and the new password.
        case resetPassword(email: String)
        case passwordChanged
        enum CodingKeys: CodingKey, CaseIterable { case changePassword, forgotPassword, resetPassword, passwordChanged }
    }

    enum Route: FlowRoute {
        case savePassword(current: Secret, password: Secret, confirm: Secret)
        case sendCode(email: String)
        case resetPassword(code: Secret, password: Secret, confirm: Secret)
        case done
        enum CodingKeys: CodingKey, CaseIterable { case savePassword, sendCode, resetPassword, done }
    }

    /// The account service.
    enum Effect: FlowEffect {
        case change(email: String, current: Secret, password: Secret)
        case sendCode(email: String)
        case reset(email: String, code: Secret, password: Secret)
        enum CodingKeys: CodingKey, CaseIterable { case change, sendCode, reset }
    }
    typealias EffectReply = UserStore.Answer

    func routes(on screen: Screen.Name) -> [Route.Name] {
        switch screen {
        case .changePassword: [.savePassword]
        case .forgotPassword: [.sendCode]
        case .resetPassword: [.resetPassword]
        case .passwordChanged: [.done]
        }
    }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(flow.context.authenticated ? .changePassword : .forgotPassword)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch (route, screen) {
        case (.savePassword(let current, let password, let confirm), _):
            guard let email = flow.context.user else { return flow.reject(AuthFlow.refused) }
            if let problem = Self.problem(password, confirm) { return flow.reject(problem) }
            flow.perform(.change(email: email, current: current, password: password))
        case (.sendCode(let email), _):
            guard email.contains("@") else { return flow.reject("Enter your email address.", keeping: ["email": .string(email)]) }
            flow.perform(.sendCode(email: email))
        case (.resetPassword(let code, let password, let confirm), .resetPassword(let email)):
            if let problem = Self.problem(password, confirm) { return flow.reject(problem) }
            flow.perform(.reset(email: email, code: code, password: password))
        case (.resetPassword, _):
            return
        case (.done, _):
            try flow.finish()
        }
    }

    /// What is wrong with a new password and its confirmation, as the notice says it.
    private static func problem(_ password: Secret, _ confirm: Secret) -> String? {
        guard password.value == confirm.value else { return "The passwords do not match." }
        guard Credentials.isValid(password: password.value) else { return "Use at least 8 characters." }
        return nil
    }

    func complete(_ effect: Effect, with result: EffectResult<EffectReply>, _ flow: inout FlowContext<Self>) throws {
        switch result {
        case .success(.passwordChanged):
            flow.push(.passwordChanged)
        case .success(.codeSent):
            guard case .sendCode(let email) = effect else { return }
            flow.push(.resetPassword(email: email))
        case .success(.wrongCode):
            flow.reject(AuthFlow.wrongCode)
        case .success(.throttled):
            flow.reject(AuthFlow.throttled)
        case .success(.locked):
            flow.reject("Too many attempts: your account is locked. We sent you a code to unlock it; sign in again with it.")
        case .success:
            flow.reject("That is not your current password.")
        case .failure:
            flow.reject("Changing the password is not possible right now. Try again in a moment.")
        }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        switch screen {
        case .changePassword:
            ScreenContent(
                title: "Change password",
                components: [.heading("Choose a new password")] + flow.noticeComponents + [
                    .field(name: "current", label: "Current password", value: "", kind: .password),
                    .field(name: "password", label: "New password", value: "", kind: .password),
                    .field(name: "confirm", label: "Confirm password", value: "", kind: .password),
                    flow.button("Save password", submitting: .savePassword),
                ])
        case .forgotPassword:
            ScreenContent(
                title: "Forgot password",
                components: [.heading("Reset your password"), .text("We will mail a code to your address.")] + flow.noticeComponents + [
                    .field(name: "email", label: "Email", value: flow.formString("email"), kind: .email),
                    flow.button("Send code", submitting: .sendCode),
                ])
        case .resetPassword(let email):
            ScreenContent(
                title: "Reset password",
                components: [
                    .heading("Choose a new password"),
                    .text("If \(email) has an account, we sent it a code."),
                ] + flow.noticeComponents + [
                    .field(name: "code", label: "Code", value: "", kind: .text),
                    .field(name: "password", label: "New password", value: "", kind: .password),
                    .field(name: "confirm", label: "Confirm password", value: "", kind: .password),
                    flow.button("Save password", submitting: .resetPassword),
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
