@testable import ShopApp
import Testing
import WayfinderCore
import WayfinderTesting

/// `shop://orders/{id}`, `shop://products/{id}` and `shop://cart`: at the start of a session
/// and in a running one.
@Suite struct DeepLinkTests {
    @Test func anOrderLinkStartsTheSessionOnTheOrderInTheAccountTab() throws {
        let session = try shopSession(deepLink: "shop://orders/1001")
        #expect(session.snapshot.stack == ["account", #"order(id: "1001")"#])
        #expect(session.snapshot.navigation == #"tabs(shop: [products], cart: [cart], *account: [account, order(id: "1001")])"#)
        #expect(session.topScreen?.title == "Order 1001")
        #expect(session.topScreen?.components.contains(.text("Total: €59.85, paid with Visa •••• 4242")) == true)
    }

    @Test func anOrderLinkDuringThreeDSecureClosesTheSheetAndLeavesTheCheckoutWhereItWas() throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.payWithThreeDSecure()
        try session.open(ShopLink.order(id: "1001")) {
            $0.stack = ["account", #"order(id: "1001")"#]
            $0.navigation = #"tabs(shop: [products, product(id: "beans")], cart: [cart, signIn, guest, delivery, payment], *account: [account, order(id: "1001")])"#
            $0.transitions = ["dismiss secureCode", "selectTab account: account", #"push order(id: "1001")"#]
        }
        try session.selectTab("cart") {
            $0.stack = ["cart", "signIn", "guest", "delivery", "payment"]
            $0.navigation = #"tabs(shop: [products, product(id: "beans")], *cart: [cart, signIn, guest, delivery, payment], account: [account, order(id: "1001")])"#
            $0.transitions = ["selectTab cart: payment"]
        }
    }

    @Test func anOrderThatDoesNotExistIsRefusedAndChangesNothing() throws {
        var session = try shopSession()
        let before = session.snapshot
        #expect(throws: NavigationError.unknownDeepLink("shop://orders/999")) { try session.open(ShopLink.order(id: "999")) }
        #expect(session.snapshot == before)
        #expect(throws: NavigationError.unknownDeepLink("shop://orders/999")) { try shopSession(deepLink: "shop://orders/999") }
    }

    @Test func aProductLinkOpensItInTheShopTabAndTheCartLinkOpensTheCart() throws {
        var session = try shopSession(deepLink: "shop://cart")
        #expect(session.snapshot.navigation == "tabs(shop: [products], *cart: [cart], account: [account])")
        try session.open(ShopLink.product(id: "grinder")) {
            $0.stack = ["products", #"product(id: "grinder")"#]
            $0.navigation = #"tabs(*shop: [products, product(id: "grinder")], cart: [cart], account: [account])"#
            $0.transitions = ["selectTab shop: products", #"push product(id: "grinder")"#]
        }
        #expect(session.topScreen?.title == "Hand grinder")
        #expect(throws: NavigationError.unknownDeepLink("shop://products/teapot")) { try session.open(ShopLink.product(id: "teapot")) }
    }
}
