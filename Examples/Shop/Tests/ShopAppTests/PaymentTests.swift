@testable import ShopApp
import Testing
import WayfinderCore
import WayfinderTesting

/// Paying: each payment and each 3-D Secure code is an effect the payment service answers; a
/// challenge opens the sheet, a declined card is a notice, card details the customer can fix
/// never reach the service.
@Suite struct PaymentTests {
    private let paymentStack = cartTab("signIn", "guest", "delivery", "payment")

    @Test func aCardThatAsksTheBankOpensTheThreeDSecureSheetAndTheRightCodePays() throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.payWithThreeDSecure()
        #expect(session.topTexts.contains("Confirm €29.45 to Wayfinder Coffee from Visa •••• 3184."))
        try session.send(CheckoutFlow.Route.confirmCode(code: "12345")) {
            $0.notice = Notice(.error, "Enter the 6-digit code from your bank.")
            $0.transitions = ["update secureCode"]
        }
        try session.send(CheckoutFlow.Route.confirmCode(code: "000000")) {
            $0.effects = [#"checkout: confirm(challenge: {"amount":2945,"attemptsLeft":3,"card":"Visa •••• 3184","reference":"pay-1002"})"#]
        }
        var retry = threeDSecureChallenge
        retry.attemptsLeft = 2
        try session.complete(with: PaymentDecision.challenge(retry)) {
            $0.effects = []
            $0.notice = Notice(.error, "That code is not right. 2 tries left.")
            $0.transitions = ["update secureCode"]
        }
        try session.confirm(PaymentService.challengeCode, for: retry)
        try session.complete(with: PaymentDecision.approved(PaymentReceipt(reference: "pay-1002", card: "Visa •••• 3184")), orderPlaced(
            email: "grace@example.com", delivery: .standard, card: "Visa •••• 3184", total: 2945, popping: "signIn, guest, delivery, payment", sheet: true))
    }

    @Test func threeWrongCodesDeclineThePaymentAndTheSheetOnlyLeadsBack() throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.payWithThreeDSecure()
        var challenge = threeDSecureChallenge
        for (code, left) in [("111111", "2 tries left."), ("222222", "One try left.")] {
            try session.confirm(code, for: challenge)
            challenge.attemptsLeft -= 1
            try session.complete(with: PaymentDecision.challenge(challenge)) {
                $0.effects = []
                $0.notice = Notice(.error, "That code is not right. " + left)
                $0.transitions = ["update secureCode"]
            }
        }
        try session.confirm("333333", for: challenge)
        try session.complete(with: PaymentDecision.declined(reason: PaymentService.failedChallengeReason)) {
            $0.effects = []
            $0.notice = Notice(.error, PaymentService.failedChallengeReason)
            $0.transitions = ["update secureCode"]
        }
        #expect(session.topScreen?.routes == ["confirmCode", "cancelPayment"])
        #expect(session.topTexts == ["Payment not confirmed", PaymentService.failedChallengeReason])
        try session.send(CheckoutFlow.Route.confirmCode(code: Secret(PaymentService.challengeCode))) {
            $0.notice = Notice(.error, "Go back to the payment and pay again.")
            $0.transitions = ["update secureCode"]
        }
        try session.send(CheckoutFlow.Route.cancelPayment) {
            $0.stack.removeLast()
            $0.navigation = paymentStack
            $0.notice = nil
            $0.transitions = ["dismiss secureCode"]
        }
        #expect(session.snapshot.model["orders"]?.arrayValue?.count == 1, "nothing was ordered")
    }

    @Test func cancellingTheSheetReturnsToThePaymentAndAFreshPayAsksAgain() throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.payWithThreeDSecure()
        // Closing the sheet with back (the client's close button) is the same as cancelling.
        try session.back {
            $0.stack.removeLast()
            $0.navigation = paymentStack
            $0.transitions = ["dismiss secureCode"]
        }
        try session.payWithThreeDSecure()
        try session.confirm("000000")
    }

    @Test func aDeclinedCardSaysSoOnThePaymentScreenAndOrdersNothing() throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.send(CheckoutFlow.Route.pay(cardNumber: "4000 0000 0000 0002", expiry: "12/30", securityCode: "123")) {
            $0.effects = [#"checkout: authorise(amount: 2945, expiry: "12/2030", order: "1002")"#]
        }
        #expect(session.topScreen?.busy == true)
        try session.complete(with: PaymentDecision.declined(reason: PaymentService.declinedReason)) {
            $0.effects = []
            $0.notice = Notice(.error, PaymentService.declinedReason)
            $0.transitions = ["update payment"]
        }
        #expect(session.topScreen?.name == "payment")
        #expect(session.topScreen?.routes == ["pay"])
        #expect(session.snapshot.model["orders"]?.arrayValue?.count == 1, "nothing was ordered")
        #expect(session.snapshot.model["cart"] == ["lines": [["product": "beans", "quantity": 1]]], "the cart is kept")
    }

    @Test(arguments: [
        ("4242 4242 4242 4241", "12/30", "123", Card.Problem.number),
        ("4242", "12/30", "123", .number),
        ("4242 4242 4242 4242", "13/30", "123", .expiry),
        ("4242 4242 4242 4242", "1230", "123", .expiry),
        ("4242 4242 4242 4242", "12/30", "12", .securityCode),
        ("4242 4242 4242 4242", "12/30", "12a", .securityCode),
    ])
    func cardDetailsTheCustomerCanFixGiveANoticeAndReachNoService(number: String, expiry: String, code: String, problem: Card.Problem) throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.send(CheckoutFlow.Route.pay(cardNumber: Secret(number), expiry: expiry, securityCode: Secret(code))) {
            $0.notice = Notice(.error, problem.rawValue)
            $0.transitions = ["update payment"]
        }
        #expect(session.snapshot.form.isEmpty, "card details are never kept on the screen")
    }
}
