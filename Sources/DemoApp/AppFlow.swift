import WayfinderCore

/// The application coordinator: the launch instructor. It owns no screen; it picks the first
/// flow from the context and decides again whenever that flow finishes.
struct AppFlow: DemoFlow {
    let children: [any Flow.Type] = [OnboardingFlow.self, AuthFlow.self, MainFlow.self]

    func start(_ flow: inout FlowContext<Self>) throws {
        // A session created with a verified identity (a JWT of the team's identity provider)
        // starts signed in as that user; everyone else signs in with a password.
        if let identity = flow.identity { flow.signIn(identity.claim("email") ?? identity.subject) }
        try launch(&flow)
    }

    func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws {
        // The child updated the context (onboarded, signed in, signed out); decide again.
        try launch(&flow)
    }

    private func launch(_ flow: inout FlowContext<Self>) throws {
        let context = flow.context
        if !context.onboarded {
            try flow.startChild(OnboardingFlow.self, placement: .root)
        } else if !context.authenticated {
            try flow.startChild(AuthFlow.self, placement: .root)
        } else {
            try flow.startChild(MainFlow.self, placement: .root)
        }
    }

    func openDeepLink(_ link: DemoLink, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
        if link == .signUp {
            if flow.context.authenticated { return .ignored }
            return try flow.offer(link, to: AuthFlow.self) ?? .deferred
        }
        // Everything else leads into main: check it names something real before keeping it.
        if case .todo(let id) = link, flow.model[id] == nil { return .declined }
        return try flow.offer(link, to: MainFlow.self) ?? .deferred
    }
}
