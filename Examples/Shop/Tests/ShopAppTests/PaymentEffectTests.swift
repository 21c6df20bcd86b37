@testable import ShopApp
import Testing
import WayfinderCore
import WayfinderTesting

/// While the payment service works, and when it cannot answer: the busy screen, a timeout, a
/// service that is down, a restart that lost the card's secrets, and answers that arrive after
/// the customer left the screen that asked.
@Suite struct PaymentEffectTests {
    @Test func thePaymentScreenIsBusyWhileTheServiceAuthorisesAndOffersNoRoute() throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.pay(with: PaymentService.TestCard.pays)
        let screen = try #require(session.topScreen)
        #expect(screen.busy)
        #expect(screen.routes == [])
        #expect(session.topTexts.contains("Authorising €29.45 with your bank…"))
        #expect(throws: NavigationError.routeUnavailable(route: "pay", available: [])) {
            try session.send(CheckoutFlow.Route.pay(cardNumber: Secret(PaymentService.TestCard.pays), expiry: "12/30", securityCode: "123"))
        }
        try session.complete(with: PaymentDecision.approved(PaymentReceipt(reference: "pay-1002", card: "Visa •••• 4242")), orderPlaced(
            email: "grace@example.com", delivery: .standard, card: "Visa •••• 4242", total: 2945, popping: "signIn, guest, delivery, payment"))
    }

    @Test(arguments: [
        (EffectFailure.timedOut, "The payment service did not answer in time. Try again in a moment."),
        (.unavailable("the payment service had a processing error"), "The payment service is not available right now. Try again in a moment."),
        (.interrupted, "The shop restarted before your payment went through: enter your card details again."),
    ])
    func aPaymentTheServiceDidNotAnswerIsANoticeAndTheCustomerPaysAgain(failure: EffectFailure, notice: String) throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.pay(with: PaymentService.TestCard.pays)
        try session.fail(with: failure) {
            $0.effects = []
            $0.notice = Notice(.error, notice)
            $0.transitions = ["update payment"]
        }
        #expect(session.topScreen?.busy == false)
        #expect(session.topScreen?.routes == ["pay"])
        #expect(session.snapshot.model["orders"]?.arrayValue?.count == 1, "nothing was ordered")
        try session.pay(with: PaymentService.TestCard.pays)
        #expect(session.topTexts.contains("Authorising €29.45 with your bank…"), "the busy notice stands in for the old one")
        #expect(!session.topTexts.contains(notice))
    }

    @Test func aCodeTheServiceDidNotConfirmIsANoticeOnTheSheetAndTheCustomerTypesItAgain() throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.payWithThreeDSecure()
        try session.confirm(PaymentService.challengeCode)
        #expect(session.topTexts.contains("Checking the code with your bank…"))
        try session.fail(with: .interrupted) {
            $0.effects = []
            $0.notice = Notice(.error, "The shop restarted before your bank confirmed the payment: enter the code again.")
            $0.transitions = ["update secureCode"]
        }
        try session.confirm(PaymentService.challengeCode)
        try session.fail(with: .timedOut) {
            $0.effects = []
            $0.notice = Notice(.error, "The payment service did not answer in time. Try again in a moment.")
            $0.transitions = ["update secureCode"]
        }
        try session.confirm(PaymentService.challengeCode)
        try session.complete(with: PaymentDecision.approved(PaymentReceipt(reference: "pay-1002", card: "Visa •••• 3184")), orderPlaced(
            email: "grace@example.com", delivery: .standard, card: "Visa •••• 3184", total: 2945, popping: "signIn, guest, delivery, payment", sheet: true))
    }

    @Test func aPaymentApprovedAfterTheCustomerWentBackStillPlacesTheOrder() throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.pay(with: PaymentService.TestCard.pays)
        // Back works on a busy screen; the card may be charged by now, so the answer still counts.
        try session.back {
            $0.stack.removeLast()
            $0.navigation = cartTab("signIn", "guest", "delivery")
            $0.transitions = ["pop payment"]
        }
        try session.complete(with: PaymentDecision.approved(PaymentReceipt(reference: "pay-1002", card: "Visa •••• 4242")), orderPlaced(
            email: "grace@example.com", delivery: .standard, card: "Visa •••• 4242", total: 2945, popping: "signIn, guest, delivery"))
    }

    @Test func aDeclineOrAChallengeForAPaymentTheCustomerLeftChangesNothing() throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.pay(with: PaymentService.TestCard.threeDSecure)
        try session.back {
            $0.stack.removeLast()
            $0.navigation = cartTab("signIn", "guest", "delivery")
            $0.transitions = ["pop payment"]
        }
        try session.complete(with: PaymentDecision.challenge(threeDSecureChallenge)) {
            $0.effects = []  // no sheet over the delivery screen: nothing was charged
        }
        try session.send(CheckoutFlow.Route.chooseDelivery(option: .standard)) {
            $0.stack.append("payment")
            $0.navigation = cartTab("signIn", "guest", "delivery", "payment")
            $0.transitions = ["push payment"]
        }
        try session.pay(with: PaymentService.TestCard.declined)
        try session.back {
            $0.stack.removeLast()
            $0.navigation = cartTab("signIn", "guest", "delivery")
            $0.transitions = ["pop payment"]
        }
        try session.complete(with: PaymentDecision.declined(reason: PaymentService.declinedReason)) {
            $0.effects = []
        }
    }
}
