@testable import ShopApp
import Testing
import WayfinderCore
import WayfinderTesting

/// A session of the shop on the pure engine, as a web client starts it unless told otherwise.
func shopSession(_ context: JSONObject = ["platform": "web"], deepLink: String? = nil, identity: Identity? = nil) throws -> TestSession {
    try TestSession(try Shop.makeApplication(), context: context, deepLink: deepLink, identity: identity)
}

/// Ada, as the shop's identity provider vouches for her.
let ada = Identity(subject: "user-ada", issuer: "https://id.shop.example", claims: ["email": "ada@example.com"])

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

/// The navigation while the cart tab is selected and shows `screens` above the cart, the shop
/// tab still on the product ``TestSession/fillCart()`` added.
func cartTab(_ screens: String...) -> String {
    #"tabs(shop: [products, product(id: "beans")], *cart: "# + "[" + (["cart"] + screens).joined(separator: ", ") + "], account: [account])"
}

/// What the payment service's approval of ``TestSession/fillCart()``'s bag of beans does,
/// whichever way it was paid: the effect done, order 1002 placed (the cart emptied), the
/// checkout's `screens` popped (its 3-D Secure sheet dismissed first, if it was up) and the
/// confirmation pushed onto the cart.
func orderPlaced(
    email: String, delivery: DeliveryOption, card: String, total: Int, popping screens: String, sheet: Bool = false
) -> (inout NavigationSnapshot) throws -> Void {
    { snapshot in
        snapshot.stack = ["cart", #"confirmation(order: "1002")"#]
        snapshot.navigation = cartTab(#"confirmation(order: "1002")"#)
        snapshot.coordinators = "app(catalog, cart, account)"
        snapshot.notice = nil
        snapshot.effects = []
        snapshot.transitions = (sheet ? ["dismiss secureCode"] : []) + ["pop " + screens, #"push confirmation(order: "1002")"#]
        try snapshot.shop {
            $0.orders.append(
                Order(
                    id: "1002", lines: $0.cart.lines, email: email, address: grace, delivery: delivery, card: card, payment: "pay-1002",
                    total: total))
            $0.cart = Cart()
            $0.nextOrder = 1003
        }
    }
}

/// The bank's challenge for the €29.45 of ``TestSession/guestToPayment()`` paid with the
/// 3-D Secure test card, as the payment service first answers it.
let threeDSecureChallenge = ThreeDSecureChallenge(reference: "pay-1002", amount: 2945, card: "Visa •••• 3184", attemptsLeft: 3)

/// `challenge` as a pending effect's value shows it.
func challengeJSON(_ challenge: ThreeDSecureChallenge) throws -> String {
    var writer = JSONWriter()
    writer.value(try JSONValueEncoder().encode(challenge))
    return String(decoding: writer.bytes, as: UTF8.self)
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
            $0.navigation = cartTab()
            $0.notice = nil
            $0.transitions = ["selectTab cart: cart"]
        }
    }

    /// As a guest (variant A's second door): the email, Grace's address, standard delivery,
    /// ending on the payment screen. Every step asserted.
    mutating func guestToPayment() throws {
        try fillCart()
        try checkOut(openingOn: "signIn")
        try send(CheckoutFlow.Route.continueAsGuest) {
            $0.stack.append("guest")
            $0.navigation = cartTab("signIn", "guest")
            $0.transitions = ["push guest"]
        }
        try send(CheckoutFlow.Route.continueWithEmail(email: " grace@example.com ")) {
            $0.stack.append("address")
            $0.navigation = cartTab("signIn", "guest", "address")
            $0.coordinators = "app(catalog, cart(checkout(address)), account)"
            $0.transitions = ["push address"]
        }
        try send(graceAddress) {
            $0.stack = ["cart", "signIn", "guest", "delivery"]
            $0.navigation = cartTab("signIn", "guest", "delivery")
            $0.coordinators = "app(catalog, cart(checkout), account)"
            $0.transitions = ["push delivery", "pop address"]
        }
        try send(CheckoutFlow.Route.chooseDelivery(option: .standard)) {
            $0.stack.append("payment")
            $0.navigation = cartTab("signIn", "guest", "delivery", "payment")
            $0.transitions = ["push payment"]
        }
    }

    /// "Check out" on the cart ``fillCart()`` filled: the checkout starts on its first screen,
    /// `door` (`signIn` in variant A, `guest` in B).
    mutating func checkOut(openingOn door: String) throws {
        try send(CartFlow.Route.checkout) {
            $0.stack = ["cart", door]
            $0.navigation = cartTab(door)
            $0.coordinators = "app(catalog, cart(checkout), account)"
            $0.transitions = ["push \(door)"]
        }
    }

    /// On the payment screen of ``guestToPayment()``: pays with `card`, which asks the payment
    /// service to authorise €29.45 (the card's number and security code are secrets: the effect
    /// shows neither).
    mutating func pay(with card: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try send(CheckoutFlow.Route.pay(cardNumber: Secret(card), expiry: "12/30", securityCode: "123"), sourceLocation: sourceLocation) {
            $0.effects = [#"checkout: authorise(amount: 2945, expiry: "12/2030", order: "1002")"#]
        }
    }

    /// On the payment screen of ``guestToPayment()``: the card that asks the bank, and the
    /// service's challenge, which opens the 3-D Secure sheet.
    mutating func payWithThreeDSecure() throws {
        try pay(with: PaymentService.TestCard.threeDSecure)
        try complete(with: PaymentDecision.challenge(threeDSecureChallenge)) {
            $0.effects = []
            $0.stack.append("secureCode")
            $0.navigation = cartTab("signIn", "guest", "delivery", "payment") + " + sheet: [secureCode]"
            $0.transitions = ["present secureCode"]
        }
    }

    /// On the 3-D Secure sheet: sends `code`, which asks the payment service to confirm
    /// `challenge` (the code is a secret: the effect shows only the challenge).
    mutating func confirm(
        _ code: String, for challenge: ThreeDSecureChallenge = threeDSecureChallenge, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try send(CheckoutFlow.Route.confirmCode(code: Secret(code)), sourceLocation: sourceLocation) {
            $0.effects = ["checkout: confirm(challenge: \(try challengeJSON(challenge)))"]
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
