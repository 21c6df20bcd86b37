@testable import ShopApp
import Testing
import WayfinderCore
import WayfinderTesting

/// A session of the shop on the pure engine, as a web client starts it unless told otherwise.
func shopSession(_ context: JSONObject = ["platform": "web"], deepLink: String? = nil) throws -> TestSession {
    try TestSession(try Shop.makeApplication(), context: context, deepLink: deepLink)
}

/// The snapshots' context every test starts from (a web client, variant A, a guest).
let guestContext: JSONObject = ["platform": "web", "variant": "A", "signedIn": false, "email": nil]

extension NavigationSnapshot {
    /// Changes the expected model as the shop's own type: a test says what the step did to the
    /// cart, the address book or the orders, and the snapshot compares the JSON it makes.
    mutating func shop(_ change: (inout ShopModel) throws -> Void) throws {
        var model = model.isEmpty ? ShopModel() : try JSONValueDecoder().decode(ShopModel.self, from: .object(model))
        try change(&model)
        guard case .object(let object) = try JSONValueEncoder().encode(model) else { throw ShopTestError("the model is not an object") }
        self.model = object
    }
}

/// A test's own precondition that did not hold.
struct ShopTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Grace's address as she types it.
let graceAddress = AddressFlow.Route.saveAddress(
    name: "Grace Hopper", street: "1 Navy Way", city: "Arlington", postcode: "22201", country: "USA")
let grace = Address(name: "Grace Hopper", street: "1 Navy Way", city: "Arlington", postcode: "22201", country: "USA")

extension TestSession {
    /// Puts one bag of beans in the cart from the shop tab and opens the cart tab, asserting
    /// every step.
    mutating func fillCart() throws {
        try send(CatalogFlow.Route.showProduct(id: "beans")) {
            $0.stack = ["products", #"product(id: "beans")"#]
            $0.navigation = #"tabs(*shop: [products, product(id: "beans")], cart: [cart], account: [account])"#
            $0.transitions = [#"push product(id: "beans")"#]
        }
        try send(CatalogFlow.Route.addToCart) {
            try $0.shop { $0.cart.lines = [CartLine(product: "beans", quantity: 1)] }
            $0.notice = Notice(.success, "Added to your cart.")
            $0.transitions = [#"update product(id: "beans")"#]
        }
        try selectTab("cart") {
            $0.stack = ["cart"]
            $0.navigation = #"tabs(shop: [products, product(id: "beans")], *cart: [cart], account: [account])"#
            $0.notice = nil
            $0.transitions = ["selectTab cart: cart"]
        }
    }

    /// As a guest (variant A's second door): the email, Grace's address, standard delivery,
    /// ending on the payment screen. Every step asserted.
    mutating func guestToPayment() throws {
        try fillCart()
        try send(CartFlow.Route.checkout) {
            $0.stack = ["cart", "signIn"]
            $0.navigation = #"tabs(shop: [products, product(id: "beans")], *cart: [cart, signIn], account: [account])"#
            $0.coordinators = "app(catalog, cart(checkout), account)"
            $0.transitions = ["push signIn"]
        }
        try send(CheckoutFlow.Route.continueAsGuest) {
            $0.stack.append("guest")
            $0.navigation = #"tabs(shop: [products, product(id: "beans")], *cart: [cart, signIn, guest], account: [account])"#
            $0.transitions = ["push guest"]
        }
        try send(CheckoutFlow.Route.continueWithEmail(email: " grace@example.com ")) {
            $0.stack.append("address")
            $0.navigation = #"tabs(shop: [products, product(id: "beans")], *cart: [cart, signIn, guest, address], account: [account])"#
            $0.coordinators = "app(catalog, cart(checkout(address)), account)"
            $0.transitions = ["push address"]
        }
        try send(graceAddress) {
            $0.stack = ["cart", "signIn", "guest", "delivery"]
            $0.navigation = #"tabs(shop: [products, product(id: "beans")], *cart: [cart, signIn, guest, delivery], account: [account])"#
            $0.coordinators = "app(catalog, cart(checkout), account)"
            $0.transitions = ["push delivery", "pop address"]
        }
        try send(CheckoutFlow.Route.chooseDelivery(option: .standard)) {
            $0.stack.append("payment")
            $0.navigation = #"tabs(shop: [products, product(id: "beans")], *cart: [cart, signIn, guest, delivery, payment], account: [account])"#
            $0.transitions = ["push payment"]
        }
    }

    /// The top screen's texts, headings and notices, in order: what the customer reads.
    var topTexts: [String] {
        topScreen?.components.compactMap { component in
            switch component {
            case .heading(let text), .text(let text): text
            case .notice(let notice): notice.text
            default: nil
            }
        } ?? []
    }
}
