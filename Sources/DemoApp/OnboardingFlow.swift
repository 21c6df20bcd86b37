import WayfinderCore

/// The walkthrough: three pages (one in variant B); `next` pushes the next page, the last page
/// or `skip` finishes the flow and marks the user onboarded.
struct OnboardingFlow: Flow {
    let name = "onboarding"
    let screens = ["walkthrough"]
    let routes = [
        RouteSpec("next", on: ["walkthrough"]),
        RouteSpec("skip", on: ["walkthrough"]),
    ]

    static let pages: [(heading: String, text: String)] = [
        ("Your app, steered by the server", "Every screen you see was chosen by a coordinator on the server."),
        ("Flows, not screens", "Sign in, to-dos and your profile are flows that start and finish."),
        ("Deep links that just work", "Open a link anywhere and land exactly where it points."),
    ]

    func pageCount(_ context: FlowContext) -> Int { context.context["variant"]?.stringValue == "B" ? 1 : 3 }

    func start(_ context: inout FlowContext, option: JSONValue) throws {
        context.show("walkthrough", params: ["page": 1])
    }

    func handle(_ route: Route, on screen: ScreenInstance, _ context: inout FlowContext) throws {
        let page = screen.param("page")?.intValue ?? 1
        if route.name == "next", page < pageCount(context) {
            context.push("walkthrough", params: ["page": .int(page + 1)])
            return
        }
        context.context["onboarded"] = true
        try context.finish()
    }

    func render(_ screen: ScreenInstance, _ context: FlowContext) -> ScreenContent {
        let count = pageCount(context)
        let page = min(max(screen.param("page")?.intValue ?? 1, 1), count)
        let content = count == 1
            ? (heading: "Welcome to Wayfinder", text: "Screens, flows and deep links, all decided by the server.")
            : Self.pages[page - 1]
        var components: [Component] = [
            .image(url: "/images/walkthrough-\(page).svg", alt: content.heading),
            .heading(content.heading),
            .text(content.text),
            .text("Page \(page) of \(count)"),
            .button(page == count ? "Get started" : "Next", .primary, route: "next"),
        ]
        if page < count { components.append(.button("Skip", .link, route: "skip")) }
        return ScreenContent(title: "Welcome", components: components)
    }
}
