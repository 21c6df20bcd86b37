import DemoApp
import Testing
import WayfinderCore

/// Links that match no pattern, or name nothing, end in `unknown_deeplink` and change nothing.
@Suite struct UnknownDeepLinkTests {
    static let bad: [String] = [
        "", "wayfinder://", "wayfinder:/todos", "wayfinder:todos", "https://todos", "todos",
        "Wayfinder://todos", "WAYFINDER://todos", "wayfinder://Todos", "wayfinder://TODOS/new", "wayfinder://Profile",
        "wayfinder://todos/", "wayfinder://profile/", "wayfinder://todos/2/", "wayfinder://todos/new/", "wayfinder://signup/",
        "wayfinder://todos?tab=1", "wayfinder://todos/2?x", "wayfinder://profile#top", "wayfinder://todos/2#",
        "wayfinder://todos/99", "wayfinder://todos/0", "wayfinder://todos/02", "wayfinder://todos/-1", "wayfinder://todos/ 2",
        "wayfinder://todos/2 ", " wayfinder://todos", "wayfinder://todos//2", "wayfinder://todos/%32", "wayfinder://todos/２",
        "wayfinder://todos/2\u{301}", "wayfinder://\u{301}todos", "wayfinder://todos/\u{0}", "wayfinder://todos/\n",
        "wayfinder://todos/😀", "wayfinder://profile/password/extra", "wayfinder://todos/1/2", "wayfinder://../todos",
        "wayfinder://todos/" + String(repeating: "9", count: 100_000),
        "wayfinder://" + String(repeating: "a/", count: 50_000),
    ]

    @Test(arguments: ["signedIn", "modalUp", "otherTab", "signedOut", "onboarding"])
    func unknownLinksAreRefusedWithTheStateUnchanged(start: String) throws {
        var d: Driver
        switch start {
        case "modalUp":
            d = try Driver.signedIn()
            try d.tab("todos")
            try d.route("addTodo")
        case "otherTab":
            d = try Driver.signedIn()
            try d.route("openTodo", ["id": "1"])
            try d.tab("profile")
        case "signedOut": d = try Driver(["onboarded": true], link: "wayfinder://todos/1")
        case "onboarding": d = try Driver()
        default: d = try Driver.signedIn()
        }
        for url in Self.bad { d.expectRefused(.openDeepLink(url), .unknownDeepLink(url)) }
    }

    @Test func aBadLinkAtSessionStartCreatesNoSession() {
        for url in ["wayfinder://todos/9", "wayfinder://nope", "wayfinder://todos/"] {
            #expect(throws: NavigationError.unknownDeepLink(url)) {
                try demoEngine.start(session: "x", context: ["onboarded": true, "authenticated": true], deepLink: url)
            }
            #expect(throws: NavigationError.unknownDeepLink(url)) {
                try demoEngine.start(session: "x", context: [:], deepLink: url)
            }
        }
    }
}
