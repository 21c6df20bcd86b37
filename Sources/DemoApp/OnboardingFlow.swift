import WayfinderCore

/// The walkthrough: three pages (one in variant B); `next` pushes the next page, the last page
/// or `skip` finishes the flow and marks the user onboarded.
struct OnboardingFlow: DemoFlow {
    enum Screen: FlowScreen {
        case walkthrough(page: Int)
        enum CodingKeys: CodingKey, CaseIterable { case walkthrough }
    }

    enum Route: FlowRoute {
        case next, skip
        enum CodingKeys: CodingKey, CaseIterable { case next, skip }
    }

    static let pages: [(heading: String, text: String)] = [
        ("Your app, steered by the server", "Every screen you see was chosen by a coordinator on the server."),
        ("Flows, not screens", "Sign in, to-dos and your profile are flows that start and finish."),
        ("Deep links that just work", "Open a link anywhere and land exactly where it points."),
    ]

    func pageCount(_ flow: FlowContext<Self>) -> Int { flow.context.variant == .B ? 1 : 3 }

    func routes(on screen: Screen.Name) -> [Route.Name] { [.next, .skip] }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.walkthrough(page: 1))
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        if route == .next, case .walkthrough(let page) = screen, page < pageCount(flow) {
            return flow.push(.walkthrough(page: page + 1))
        }
        flow.context.onboarded = true
        try flow.finish()
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        guard case .walkthrough(let requested) = screen else { return ScreenContent(title: "Welcome", components: []) }
        let count = pageCount(flow)
        let page = min(max(requested, 1), count)
        let content = count == 1
            ? (heading: "Welcome to Wayfinder", text: "Screens, flows and deep links, all decided by the server.")
            : Self.pages[page - 1]
        var components: [Component] = [
            .image(url: "/images/walkthrough-\(page).svg", alt: content.heading),
            .heading(content.heading),
            .text(content.text),
            .text("Page \(page) of \(count)"),
            flow.button(page == count ? "Get started" : "Next", route: .next),
        ]
        if page < count { components.append(flow.button("Skip", .link, route: .skip)) }
        return ScreenContent(title: "Welcome", components: components)
    }
}
