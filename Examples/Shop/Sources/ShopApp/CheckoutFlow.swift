import WayfinderCore

/// The checkout, pushed onto the cart tab: sign in or continue as a guest (which comes first is
/// the session's A/B variant), the delivery address (the shared address flow, as a child), a
/// delivery option, then payment, with the bank's 3-D Secure challenge as a modal sheet when
/// the card asks for it. It finishes with the placed order's number.
///
/// Paying and confirming the code are effects: the shop's payment service (``PaymentService``)
/// answers them, and the screen that asked shows as busy until it has. The sign-in password, card
/// numbers, security codes and 3-D Secure codes are ``Secret``s: never stored, never shown again.
///
/// - Important: the shop has no account service yet: its sign-in form checks the form only, and a
///   session signed in by the shop's identity provider (a verified JWT) is the real way in. The
///   sample app's `UserStore` shows how an account service answers.
struct CheckoutFlow: ShopFlow {
    enum Screen: FlowScreen {
        case signIn, guest, delivery, payment, secureCode
        enum CodingKeys: CodingKey, CaseIterable { case signIn, guest, delivery, payment, secureCode }
    }

    enum Route: FlowRoute {
        case signIn(email: String, password: Secret)
        case continueAsGuest
        case continueWithEmail(email: String)
        case signInInstead
        case chooseDelivery(option: DeliveryOption)
        case changeAddress
        case pay(cardNumber: Secret, expiry: String, securityCode: Secret)
        case confirmCode(code: Secret)
        case cancelPayment
        enum CodingKeys: CodingKey, CaseIterable {
            case signIn, continueAsGuest, continueWithEmail, signInInstead, chooseDelivery, changeAddress, pay, confirmCode, cancelPayment
        }
    }

    /// What the checkout asks of the payment service.
    enum Effect: FlowEffect {
        /// Charge `amount` cents for order `order` to the card.
        case authorise(order: String, amount: Int, card: Secret, expiry: String, securityCode: Secret)
        /// Answer the bank's 3-D Secure `challenge` with the code the customer typed.
        case confirm(challenge: ThreeDSecureChallenge, code: Secret)
        enum CodingKeys: CodingKey, CaseIterable { case authorise, confirm }
    }
    typealias EffectReply = PaymentDecision

    /// A payment's answer still counts when the customer has left the busy screen (went back):
    /// a charged card places the order wherever they are.
    var staleEffects: StaleEffectRule { .deliver }

    /// What the checkout collected so far.
    struct Data: FlowData {
        /// Where the receipt goes: the signed-in customer's address or the one a guest typed.
        var email: String?
        var address: Address?
        var delivery: DeliveryOption?
        /// The bank's challenge while the 3-D Secure sheet asks for a code.
        var challenge: ThreeDSecureChallenge?
    }

    /// The placed order.
    struct Result: Codable, Sendable, Hashable {
        var order: String
    }

    let children: [any Flow.Type] = [AddressFlow.self]

    func routes(on screen: Screen.Name) -> [Route.Name] {
        switch screen {
        case .signIn: [.signIn, .continueAsGuest]
        case .guest: [.continueWithEmail, .signInInstead]
        case .delivery: [.chooseDelivery, .changeAddress]
        case .payment: [.pay]
        case .secureCode: [.confirmCode, .cancelPayment]
        }
    }

    func start(_ flow: inout FlowContext<Self>) throws {
        if flow.context.signedIn, let email = flow.context.email {
            flow.data.email = email
            return try askForAddress(&flow)
        }
        flow.show(flow.context.variant == .A ? .signIn : .guest)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .signIn(let email, let password):
            let email = email.trimmed
            guard Self.isEmail(email), password.value.count >= 8 else {
                return flow.reject("Enter your email address and a password of at least 8 characters.", keeping: ["email": .string(email)])
            }
            flow.context.signedIn = true
            flow.context.email = email
            flow.data.email = email
            try askForAddress(&flow)
        case .continueWithEmail(let email):
            let email = email.trimmed
            guard Self.isEmail(email) else { return flow.reject("Enter an email address for the receipt.", keeping: ["email": .string(email)]) }
            flow.data.email = email
            try askForAddress(&flow)
        case .continueAsGuest:
            try switchDoor(to: .guest, &flow)
        case .signInInstead:
            try switchDoor(to: .signIn, &flow)
        case .changeAddress:
            try askForAddress(&flow)
        case .chooseDelivery(let option):
            flow.data.delivery = option
            flow.push(.payment)
        case .pay(let number, let expiry, let securityCode):
            guard let total = total(flow) else { return flow.reject("Your cart is empty.") }
            switch Card.read(number: number.value, expiry: expiry, securityCode: securityCode.value) {
            case .failure(let problem):
                flow.reject(problem.rawValue)
            case .success(let card):
                flow.perform(.authorise(
                    order: flow.model.nextOrderID, amount: total, card: Secret(card.number), expiry: card.expiry,
                    securityCode: Secret(card.securityCode)))
            }
        case .confirmCode(let code):
            guard let challenge = flow.data.challenge else { return flow.reject("Go back to the payment and pay again.") }
            let code = code.value.trimmed
            guard code.count == 6, code.allSatisfy(\.isASCIIDigit) else { return flow.reject("Enter the 6-digit code from your bank.") }
            flow.perform(.confirm(challenge: challenge, code: Secret(code)))
        case .cancelPayment:
            flow.data.challenge = nil
            try flow.dismiss()
        }
    }

    /// The payment service answered, or could not: the answer moves the checkout (``settle``);
    /// a failure is a notice on the screen that asked, which stays for another try.
    func complete(_ effect: Effect, with result: EffectResult<EffectReply>, _ flow: inout FlowContext<Self>) throws {
        switch result {
        case .success(let decision):
            try settle(decision, after: effect, &flow)
        case .failure(.timedOut):
            flow.reject("The payment service did not answer in time. Try again in a moment.")
        case .failure(.unavailable):
            flow.reject("The payment service is not available right now. Try again in a moment.")
        case .failure(.interrupted):
            if case .confirm = effect {
                flow.reject("The shop restarted before your bank confirmed the payment: enter the code again.")
            } else {
                flow.reject("The shop restarted before your payment went through: enter your card details again.")
            }
        }
    }

    /// The one place a payment decision moves the checkout: paid places the order and finishes;
    /// a challenge opens the 3-D Secure sheet (or, answering a code, says it was wrong);
    /// declined says why on the screen that asked. A challenge for a payment the customer left
    /// (the screen that asked is gone) is not shown: nothing was charged.
    func settle(_ decision: PaymentDecision, after effect: Effect, _ flow: inout FlowContext<Self>) throws {
        switch decision {
        case .approved(let receipt):
            guard let email = flow.data.email, let address = flow.data.address, let delivery = flow.data.delivery else {
                return flow.reject("Fill in the address and the delivery first.")
            }
            flow.data.challenge = nil
            let order = flow.model.placeOrder(email: email, address: address, delivery: delivery, receipt: receipt)
            try flow.dismiss()
            try flow.finish(Result(order: order.id))
        case .challenge(let challenge):
            guard flow.screen != nil else { return }
            flow.data.challenge = challenge
            if case .confirm = effect {
                flow.reject("That code is not right. \(challenge.attemptsLeft == 1 ? "One try" : "\(challenge.attemptsLeft) tries") left.")
            } else {
                flow.present(.secureCode, style: .sheet)
            }
        case .declined(let reason):
            flow.data.challenge = nil
            flow.reject(reason)
        }
    }

    func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws {
        guard let address = child.result(of: AddressFlow.self) else { return }
        flow.data.address = address
        // Changed from the delivery screen: back to it. Otherwise the delivery step comes next.
        if flow.ownScreens.last?.name == Screen.Name.delivery.stringValue {
            try flow.popToOwnTop()
        } else {
            flow.push(.delivery)
        }
    }

    /// The address form (the shared flow), starting from the address chosen so far or the
    /// address book's first.
    private func askForAddress(_ flow: inout FlowContext<Self>) throws {
        let start = flow.data.address ?? flow.model.addresses.first
        try flow.startChild(AddressFlow.self, placement: .push, data: AddressFlow.Data(address: start, purpose: .delivery))
    }

    /// Sign in and guest are two doors into one checkout: the other door is popped back to when
    /// it is underneath (the customer came from it), pushed otherwise.
    private func switchDoor(to door: Screen, _ flow: inout FlowContext<Self>) throws {
        let name = Screen.name(of: door)
        if flow.ownScreens.dropLast().contains(where: { $0.name == name }) {
            try flow.pop()
        } else {
            flow.push(door)
        }
    }

    /// Items and delivery in cents; nil while the cart is empty.
    func total(_ flow: FlowContext<Self>) -> Int? {
        let cart = flow.model.cart
        guard !cart.isEmpty else { return nil }
        return cart.subtotal + (flow.data.delivery?.price ?? 0)
    }

    /// One `@` with something on both sides, no spaces.
    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && !text.contains(where: \.isWhitespace)
    }
}
