@testable import ShopApp
import Testing
import WayfinderCore
import WayfinderServer
import WayfinderTesting

/// The shop served by the server library in this process, on a free port, driven through
/// libcurl as a thin client drives it.
@Suite struct LiveServerTests {
    private let arguments = ["--port", "0", "--store", "memory", "--log-level", "error", "--threads", "1"]

    @Test func aGuestChecksOutWithThreeDSecureOverHTTPAndOpensTheOrderByItsLink() throws {
        let server = try Server(Shop.makeApplication).start(arguments: arguments)
        defer { server.stop() }
        let session = try LiveSession(baseURL: "http://127.0.0.1:\(server.port)", context: ["platform": "web", "variant": "B"])
        #expect(session.stack == ["products"])
        #expect(session.state["context"]?["variant"] == "B")

        try session.send(CatalogFlow.Route.showProduct(id: "kettle"))
        try session.send(CatalogFlow.Route.addToCart)
        #expect(session.topScreen?["components"]?.arrayValue?.contains(["type": "notice", "style": "success", "text": "Added to your cart."]) == true)
        try session.selectTab("cart")
        try session.send(CartFlow.Route.checkout)
        #expect(session.stack == ["cart", "guest"], "variant B: guest first")
        try session.send(CheckoutFlow.Route.continueWithEmail(email: "grace@example.com"))
        try session.send(graceAddress)
        try session.send(CheckoutFlow.Route.chooseDelivery(option: .pickup))
        #expect(session.stack == ["cart", "guest", "delivery", "payment"])
        // A declined card is the payment screen with a notice: 200, not an error answer.
        try session.send(CheckoutFlow.Route.pay(cardNumber: PaymentDecision.TestCard.declined, expiry: "12/30", securityCode: "123"))
        #expect(session.transitions.first?["op"] == "update")
        try session.send(CheckoutFlow.Route.pay(cardNumber: PaymentDecision.TestCard.threeDSecure, expiry: "12/30", securityCode: "123"))
        #expect(session.stack.last == "secureCode")
        #expect(session.topScreen?["presentation"] == "sheet")
        try session.send(CheckoutFlow.Route.confirmCode(code: PaymentDecision.challengeCode))
        #expect(session.stack == ["cart", "confirmation"])
        #expect(session.topScreen?["routes"] == ["viewOrder", "continueShopping"])

        try session.open(url: "shop://orders/1002")
        #expect(session.stack == ["account", "order"])
        try session.refresh()
        #expect(session.topScreen?["title"] == "Order 1002")

        // A route the top screen does not offer is the API's problem answer, typed by its code.
        #expect { try session.send(CheckoutFlow.Route.cancelPayment) } throws: { error in
            (error as? LiveSession.Problem).map { $0.status == 422 && $0.code == "route_unavailable" } ?? false
        }
    }

    @Test func theServerListsTheShopsFlowsAndServesTheRepositorysWebClient() throws {
        let server = try Server(Shop.makeApplication).start(arguments: arguments)
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let curl = CurlClient()
        let catalog = try curl.request("GET", base + "/v1/flows")
        #expect(catalog.status == 200)
        let json = try JSONParser.parse(catalog.body)
        #expect(json["flows"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["app", "catalog", "cart", "account", "checkout", "address"])
        #expect(json["deepLinks"]?.arrayValue?.compactMap { $0["pattern"]?.stringValue } == ["shop://cart", "shop://products/{id}", "shop://orders/{id}"])
        let page = try curl.request("GET", base + "/")
        #expect(page.status == 200)
        #expect(page.text.contains("<script"), "the web client's page")
    }
}
