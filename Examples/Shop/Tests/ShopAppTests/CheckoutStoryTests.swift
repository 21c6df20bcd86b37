@testable import ShopApp
import Testing
import WayfinderCore
import WayfinderTesting

/// The whole checkout, step by step and exhaustively: every change each step makes is asserted.
@Suite struct CheckoutStoryTests {
    @Test func aCustomerSignsInAtCheckoutAndPlacesAnOrder() throws {
        var session = try shopSession()
        #expect(session.snapshot.stack == ["products"])
        #expect(session.snapshot.context == guestContext)
        try session.fillCart()
        try session.checkOut(openingOn: "signIn")
        try session.send(CheckoutFlow.Route.signIn(email: "ada@example.com", password: "short")) {
            $0.notice = Notice(.error, "Enter your email address and a password of at least 8 characters.")
            $0.form = ["email": "ada@example.com"]
            $0.transitions = ["update signIn"]
        }
        try session.send(CheckoutFlow.Route.signIn(email: "ada@example.com", password: "correct horse")) {
            $0.stack.append("address")
            $0.navigation = cartTab("signIn", "address")
            $0.coordinators = "app(catalog, cart(checkout(address)), account)"
            $0.context["signedIn"] = true
            $0.context["email"] = "ada@example.com"
            $0.notice = nil
            $0.form = [:]
            $0.transitions = ["push address"]
        }
        #expect(session.topScreen?.title == "Delivery address")
        try session.send(graceAddress) {
            $0.stack = ["cart", "signIn", "delivery"]
            $0.navigation = cartTab("signIn", "delivery")
            $0.coordinators = "app(catalog, cart(checkout), account)"
            $0.transitions = ["push delivery", "pop address"]
        }
        #expect(session.topTexts.contains("Deliver to Grace Hopper, 1 Navy Way, 22201 Arlington, USA."))
        try session.send(CheckoutFlow.Route.chooseDelivery(option: .express)) {
            $0.stack.append("payment")
            $0.navigation = cartTab("signIn", "delivery", "payment")
            $0.transitions = ["push payment"]
        }
        #expect(session.topTexts.prefix(3) == ["Pay €34.45", "Items €24.50, express delivery €9.95.", "Receipt to ada@example.com."])
        try session.send(CheckoutFlow.Route.pay(cardNumber: "4242 4242 4242 4242", expiry: "12/30", securityCode: "123")) {
            $0.effects = [#"checkout: authorise(amount: 3445, expiry: "12/2030", order: "1002")"#]
        }
        try session.complete(with: PaymentDecision.approved(PaymentReceipt(reference: "pay-1002", card: "Visa •••• 4242")), orderPlaced(
            email: "ada@example.com", delivery: .express, card: "Visa •••• 4242", total: 3445, popping: "signIn, delivery, payment"))
        #expect(session.topTexts == ["Order 1002 is placed.", "Express delivery to Grace Hopper, 1 Navy Way, 22201 Arlington, USA.", "We sent the receipt to ada@example.com."])
        try session.send(CartFlow.Route.viewOrder) {
            $0.stack = ["account", #"order(id: "1002")"#]
            $0.navigation = #"tabs(shop: [products, product(id: "beans")], cart: [cart], *account: [account, order(id: "1002")])"#
            $0.transitions = [#"pop confirmation(order: "1002")"#, "selectTab account: account", #"push order(id: "1002")"#]
        }
        #expect(session.topTexts.contains("Total: €34.45, paid with Visa •••• 4242"))
    }

    @Test func aGuestChecksOutWithAnEmailAddressAndStaysAGuest() throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.send(CheckoutFlow.Route.pay(cardNumber: "4242424242424242", expiry: "01/2031", securityCode: "9876")) {
            $0.effects = [#"checkout: authorise(amount: 2945, expiry: "01/2031", order: "1002")"#]
        }
        try session.complete(with: PaymentDecision.approved(PaymentReceipt(reference: "pay-1002", card: "Visa •••• 4242")), orderPlaced(
            email: "grace@example.com", delivery: .standard, card: "Visa •••• 4242", total: 2945, popping: "signIn, guest, delivery, payment"))
        #expect(session.snapshot.context == guestContext, "a guest checkout signs nobody in")
        try session.send(CartFlow.Route.continueShopping) {
            $0.stack = ["products", #"product(id: "beans")"#]
            $0.navigation = #"tabs(*shop: [products, product(id: "beans")], cart: [cart], account: [account])"#
            $0.notice = Notice(.success, "Added to your cart.")  // still on the product, as the customer left it
            $0.transitions = [#"pop confirmation(order: "1002")"#, #"selectTab shop: product(id: "beans")"#]
        }
    }

    @Test func aSignedInCustomerGoesStraightToTheAddressAndBackingOutEndsTheCheckout() throws {
        var session = try TestSession(try Shop.makeApplication(), identity: ada)
        #expect(session.snapshot.stack == ["products"])
        #expect(session.snapshot.navigation == "tabs(*shop: [products], cart: [cart], account: [account])")
        #expect(session.snapshot.coordinators == "app(catalog, cart, account)")
        try session.fillCart()
        try session.send(CartFlow.Route.checkout) {
            $0.stack = ["cart", "address"]
            $0.navigation = #"tabs(shop: [products, product(id: "beans")], *cart: [cart, address], account: [account])"#
            $0.coordinators = "app(catalog, cart(checkout(address)), account)"
            $0.transitions = ["push address"]
        }
        try session.back {
            $0.stack = ["cart"]
            $0.navigation = #"tabs(shop: [products, product(id: "beans")], *cart: [cart], account: [account])"#
            $0.coordinators = "app(catalog, cart, account)"
            $0.transitions = ["pop address"]
        }
    }

    @Test func anEmptyCartCannotCheckOut() throws {
        var session = try shopSession()
        try session.selectTab("cart") {
            $0.stack = ["cart"]
            $0.navigation = "tabs(shop: [products], *cart: [cart], account: [account])"
            $0.transitions = ["selectTab cart: cart"]
        }
        try session.send(CartFlow.Route.checkout) {
            $0.notice = Notice(.error, "Your cart is empty.")
            $0.transitions = ["update cart"]
        }
    }

    @Test func aGuestEmailWithoutAnAtSignIsRefusedOnTheScreen() throws {
        var session = try shopSession(["variant": "B"])
        try session.fillCart()
        try session.checkOut(openingOn: "guest")
        try session.send(CheckoutFlow.Route.continueWithEmail(email: "grace at example.com")) {
            $0.notice = Notice(.error, "Enter an email address for the receipt.")
            $0.form = ["email": "grace at example.com"]
            $0.transitions = ["update guest"]
        }
    }
}
