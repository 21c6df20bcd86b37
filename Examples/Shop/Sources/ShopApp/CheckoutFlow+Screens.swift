import WayfinderCore

/// The checkout's screens.
extension CheckoutFlow {
    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        switch screen {
        case .signIn:
            return ScreenContent(
                title: "Check out",
                components: [.heading("Sign in to check out")] + flow.noticeComponents + [
                    .field(name: "email", label: "Email", value: flow.formString("email"), kind: .email),
                    .field(name: "password", label: "Password", value: "", kind: .password),
                    flow.button("Sign in", submitting: .signIn),
                    flow.button("Continue as guest", .secondary, route: .continueAsGuest),
                ])
        case .guest:
            return ScreenContent(
                title: "Check out",
                components: [.heading("Check out as a guest"), .text("We send the receipt to this address.")] + flow.noticeComponents + [
                    .field(name: "email", label: "Email", value: flow.formString("email"), kind: .email),
                    flow.button("Continue", submitting: .continueWithEmail),
                    flow.button("Sign in instead", .link, route: .signInInstead),
                ])
        case .delivery:
            let chosen = flow.data.delivery
            return ScreenContent(
                title: "Delivery",
                components: [
                    .heading("How should it travel?"),
                    .list(DeliveryOption.allCases.map { option in
                        .init(
                            id: option.rawValue, title: "\(option.title), \(Money.text(option.price))", subtitle: option.detail,
                            checked: option == chosen, action: flow.action(.chooseDelivery(option: option)))
                    }),
                    .text("Deliver to \(flow.data.address?.oneLine ?? "no address yet")."),
                    flow.button("Change address", .secondary, route: .changeAddress),
                ])
        case .payment:
            let subtotal = flow.model.cart.subtotal
            let delivery = flow.data.delivery ?? .standard
            let total = subtotal + delivery.price
            return ScreenContent(
                title: "Payment",
                components: [
                    .heading("Pay \(Money.text(total))"),
                    .text("Items \(Money.text(subtotal)), \(delivery.title.lowercased()) \(Money.text(delivery.price))."),
                    .text("Receipt to \(flow.data.email ?? "")."),
                ] + flow.noticeComponents + [
                    .field(name: "cardNumber", label: "Card number", value: "", kind: .text),
                    .field(name: "expiry", label: "Expiry (MM/YY)", value: "", kind: .text),
                    .field(name: "securityCode", label: "Security code", value: "", kind: .password),
                    flow.button("Pay \(Money.text(total))", submitting: .pay),
                    .text(
                        "Test cards: \(PaymentDecision.TestCard.pays) pays, \(PaymentDecision.TestCard.threeDSecure) asks your bank "
                            + "(code \(PaymentDecision.challengeCode)), \(PaymentDecision.TestCard.declined) is declined."),
                ])
        case .secureCode:
            guard let challenge = flow.data.challenge else {
                return ScreenContent(
                    title: "3-D Secure",
                    components: [.heading("Payment not confirmed")] + flow.noticeComponents + [
                        flow.button("Back to payment", route: .cancelPayment)
                    ])
            }
            return ScreenContent(
                title: "3-D Secure",
                components: [
                    .heading("Confirm with your bank"),
                    .text("Confirm \(Money.text(challenge.amount)) to Wayfinder Coffee from \(challenge.card)."),
                    .text("Enter the code your bank sent you (the test bank's is \(PaymentDecision.challengeCode))."),
                ] + flow.noticeComponents + [
                    .field(name: "code", label: "Code", value: "", kind: .text),
                    flow.button("Confirm", submitting: .confirmCode),
                    flow.button("Cancel payment", .secondary, route: .cancelPayment),
                ])
        }
    }
}
