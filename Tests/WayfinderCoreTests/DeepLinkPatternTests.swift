import Testing
import WayfinderCore

private enum Shop: AppSchema {
    typealias Link = ShopLink
}

private enum ShopLink: DeepLinkDestination {
    case items, newItem, item(id: String), review(id: String, review: String)
    enum CodingKeys: String, CodingKey, CaseIterable {
        case items, newItem = "items/new", item = "items/{id}", review = "items/{id}/reviews/{review}"
    }
}

/// Opens every link (and shows nothing): the patterns are what these tests are about.
private struct ShopFlow: Flow {
    typealias App = Shop
    let deepLinks: [ShopLink.Name] = [.items, .newItem, .item, .review]
    func start(_ flow: inout FlowContext<Self>) throws {}
}

@Suite struct DeepLinkPatternTests {
    let app = try! Application(scheme: "shop", root: ShopFlow(), flows: [])

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
