@testable import ShopApp
import Testing
import WayfinderCore
import WayfinderServer
import WayfinderLiveTesting

/// The shop served by the server library in this process, on a free port, with its payment
/// service, driven through libcurl as a thin client drives it.
@Suite struct LiveServerTests {
    @Test func aGuestChecksOutWithThreeDSecureOverHTTPAndOpensTheOrderByItsLink() throws {
        // The server waits for the payment service as long as it takes: every answer has its result.
        let server = try Server(Shop.makeApplication, services: Shop.makeServices)
            .start(arguments: ["--port", "0", "--store", "memory", "--log-level", "error", "--effect-wait", "30s"])
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
        try session.send(CheckoutFlow.Route.pay(cardNumber: Secret(PaymentService.TestCard.declined), expiry: "12/30", securityCode: "123"))
        #expect(session.transitions.first?["op"] == "update")
        #expect(session.topScreen?["components"]?.arrayValue?.contains(["type": "notice", "style": "error", "text": .string(PaymentService.declinedReason)]) == true)
        try session.send(CheckoutFlow.Route.pay(cardNumber: Secret(PaymentService.TestCard.threeDSecure), expiry: "12/30", securityCode: "123"))
        #expect(session.stack.last == "secureCode")
        #expect(session.topScreen?["presentation"] == "sheet")
        try session.send(CheckoutFlow.Route.confirmCode(code: Secret(PaymentService.challengeCode)))
        #expect(session.stack == ["cart", "confirmation"])
        #expect(session.topScreen?["routes"] == ["viewOrder", "continueShopping"])

        try session.open(url: "shop://orders/1002")
        #expect(session.stack == ["account", "order"])
        try session.refresh()
        #expect(session.topScreen?["title"] == "Order 1002")
        #expect(session.topScreen?["components"]?.arrayValue?.contains(["type": "text", "text": "Total: €54.90, paid with Visa •••• 3184"]) == true)

        // A route the top screen does not offer is the API's problem answer, typed by its code.
        #expect { try session.send(CheckoutFlow.Route.cancelPayment) } throws: { error in
            (error as? LiveSession.Problem).map { $0.status == 422 && $0.code == "route_unavailable" } ?? false
        }
    }

    @Test func aSlowPaymentLeavesThePaymentScreenBusyAndItsResultArrivesAsTheNextRevision() throws {
        // The service takes a second; the server answers after a millisecond.
        let payments = PaymentService(delay: .seconds(1))
        let server = try startShop(["--effect-wait", "1ms"]) { _ in payments.effects }
        defer { server.stop() }
        let session = try LiveSession(baseURL: "http://127.0.0.1:\(server.port)", context: ["variant": "B"])
        try session.kettleToPayment()
        let accepted = try session.trigger(CheckoutFlow.Route.pay(cardNumber: Secret(PaymentService.TestCard.pays), expiry: "12/30", securityCode: "123"))
        #expect(accepted.status == 202)
        #expect(accepted.stack.last == "payment")
        #expect(accepted.top["busy"] == true)
        #expect(accepted.top["routes"] == [])
        #expect(accepted.notices == ["info: Authorising €54.90 with your bank…"])

        let paid = try session.state(after: accepted.revision)
        #expect(paid.status == 200)
        #expect(paid.revision == accepted.revision + 1)
        #expect(paid.stack == ["cart", "confirmation"])
        #expect(paid.notices == ["success: Order 1002 is placed."])
        #expect(payments.charges == 1)
    }

    @Test func aServiceSlowerThanItsTimeoutOrDownIsANoticeOnThePaymentScreen() throws {
        // Each call may take 50 ms and is tried twice; the service takes a minute.
        let payments = PaymentService(delay: .seconds(60), timeout: .milliseconds(50))
        let slow = try startShop(["--effect-wait", "30s"]) { _ in payments.effects }
        defer { slow.stop() }
        let session = try LiveSession(baseURL: "http://127.0.0.1:\(slow.port)", context: ["variant": "B"])
        try session.kettleToPayment()
        let timedOut = try session.trigger(CheckoutFlow.Route.pay(cardNumber: Secret(PaymentService.TestCard.pays), expiry: "12/30", securityCode: "123"))
        #expect(timedOut.status == 200)
        #expect(timedOut.stack.last == "payment")
        #expect(timedOut.top["busy"] == nil)
        #expect(timedOut.notices == ["error: The payment service did not answer in time. Try again in a moment."])
        #expect(payments.charges == 0)

        // The real service, and the test card it fails on (a processing error, retried once).
        let down = try startShop(["--effect-wait", "30s"])
        defer { down.stop() }
        let other = try LiveSession(baseURL: "http://127.0.0.1:\(down.port)", context: ["variant": "B"])
        try other.kettleToPayment()
        let unavailable = try other.trigger(CheckoutFlow.Route.pay(cardNumber: Secret(PaymentService.TestCard.unavailable), expiry: "12/30", securityCode: "123"))
        #expect(unavailable.status == 200)
        #expect(unavailable.notices == ["error: The payment service is not available right now. Try again in a moment."])
        #expect(unavailable.top["routes"] == ["pay"])
    }

    @Test func aPaymentInFlightWhenTheServerStopsAsksForTheCardAgainAfterTheRestart() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let store = ["--store", "sqlite:\(folder.path)/shop.sqlite"]
        let stuck = PaymentService(delay: .seconds(3600))
        let first = try startShop(store + ["--effect-wait", "1ms"]) { _ in stuck.effects }
        let session = try LiveSession(baseURL: "http://127.0.0.1:\(first.port)", context: ["variant": "B"])
        try session.kettleToPayment()
        let accepted = try session.trigger(CheckoutFlow.Route.pay(cardNumber: Secret(PaymentService.TestCard.pays), expiry: "12/30", securityCode: "123"))
        #expect(accepted.status == 202)
        first.stop()

        // The card number and security code were never stored: the next server cannot send the
        // payment again, and the checkout asks for the card.
        let second = try startShop(store)
        defer { second.stop() }
        let restarted = try session.state(after: accepted.revision, on: "http://127.0.0.1:\(second.port)")
        #expect(restarted.status == 200)
        #expect(restarted.stack.last == "payment")
        #expect(restarted.top["busy"] == nil)
        #expect(restarted.notices == ["error: The shop restarted before your payment went through: enter your card details again."])
        #expect(stuck.charges == 0)
    }

    @Test func theServerListsTheShopsFlowsAndServesTheRepositorysWebClient() throws {
        let server = try startShop()
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
