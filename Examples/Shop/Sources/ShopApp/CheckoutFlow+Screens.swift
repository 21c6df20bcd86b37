import WayfinderCore

/// The checkout's screens. While the payment service works on a payment or a code, the screen
/// that asked says so in place of its notice (the engine marks it busy and blocks its routes).
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
                ] + noticeOrBusy("Authorising \(Money.text(total)) with your bank…", flow) + [
                    .field(name: "cardNumber", label: "Card number", value: "", kind: .text),
                    .field(name: "expiry", label: "Expiry (MM/YY)", value: "", kind: .text),
                    .field(name: "securityCode", label: "Security code", value: "", kind: .password),
                    flow.button("Pay \(Money.text(total))", submitting: .pay),
                    .text(
                        "Test cards: \(PaymentService.TestCard.pays) pays, \(PaymentService.TestCard.threeDSecure) asks your bank "
                            + "(code \(PaymentService.challengeCode)), \(PaymentService.TestCard.declined) is declined."),
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
                    .text("Enter the code your bank sent you (the test bank's is \(PaymentService.challengeCode))."),
                ] + noticeOrBusy("Checking the code with your bank…", flow) + [
                    .field(name: "code", label: "Code", value: "", kind: .text),
                    flow.button("Confirm", submitting: .confirmCode),
                    flow.button("Cancel payment", .secondary, route: .cancelPayment),
                ])
        }
    }

    /// `busy` as an info notice while the screen waits for the payment service; its notice otherwise.
    private func noticeOrBusy(_ busy: String, _ flow: FlowContext<Self>) -> [Component] {
        flow.screen?.waitingFor.isEmpty == false ? [.notice(Notice(.info, busy))] : flow.noticeComponents
    }
}
