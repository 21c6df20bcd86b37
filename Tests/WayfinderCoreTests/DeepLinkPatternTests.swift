import Testing
import WayfinderCore

@Suite struct DeepLinkPatternTests {
    let app = Application(
        scheme: "shop", root: TinyRootFlow(), flows: [],
        deepLinks: [
            DeepLinkPattern("items", description: "All items"),
            DeepLinkPattern("items/new", description: "A new item"),
            DeepLinkPattern("items/{id}", description: "One item"),
            DeepLinkPattern("items/{id}/reviews/{review}", description: "One review"),
        ])

    @Test func matchesExactPatterns() throws {
        let link = try #require(app.match(deepLink: "shop://items"))
        #expect(link.url == "shop://items")
        #expect(link.pattern == "items")
        #expect(link.params == [:])
    }

    @Test func capturesSegments() throws {
        #expect(app.match(deepLink: "shop://items/42")?.params == ["id": "42"])
        #expect(app.match(deepLink: "shop://items/42")?.pattern == "items/{id}")
        #expect(app.match(deepLink: "shop://items/a/reviews/b")?.params == ["id": "a", "review": "b"])
    }

    @Test func literalPatternsWinWhenRegisteredFirst() {
        #expect(app.match(deepLink: "shop://items/new")?.pattern == "items/new")
    }

    @Test func rejectsTrailingSlashes() {
        #expect(app.match(deepLink: "shop://items/") == nil)
        #expect(app.match(deepLink: "shop://items/42/") == nil)
        #expect(app.match(deepLink: "shop://items//") == nil)
    }

    @Test func rejectsQueriesAndFragments() {
        #expect(app.match(deepLink: "shop://items?sort=asc") == nil)
        #expect(app.match(deepLink: "shop://items/42?x") == nil)
        #expect(app.match(deepLink: "shop://items#top") == nil)
    }

    @Test func isCaseSensitive() {
        #expect(app.match(deepLink: "shop://Items") == nil)
        #expect(app.match(deepLink: "SHOP://items") == nil)
        #expect(app.match(deepLink: "shop://ITEMS/new")?.pattern == nil)
    }

    @Test func rejectsOtherSchemesAndShapes() {
        #expect(app.match(deepLink: "https://items") == nil)
        #expect(app.match(deepLink: "shop:/items") == nil)
        #expect(app.match(deepLink: "shop://") == nil)
        #expect(app.match(deepLink: "") == nil)
        #expect(app.match(deepLink: "items") == nil)
        #expect(app.match(deepLink: "shop://items/a/reviews") == nil)
        #expect(app.match(deepLink: "shop://items/a/b/c/d/e") == nil)
        #expect(app.match(deepLink: "shop://\u{301}items") == nil)
    }

    @Test func capturesOddCharactersVerbatim() {
        #expect(app.match(deepLink: "shop://items/%20x")?.params == ["id": "%20x"])
        #expect(app.match(deepLink: "shop://items/中😀")?.params == ["id": "中😀"])
    }
}
