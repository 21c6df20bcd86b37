@testable import ShopApp
import Testing
import WayfinderCore
import WayfinderTesting

/// Paying: 3-D Secure in a sheet, a declined card, and card details the customer can fix.
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
            $0.notice = Notice(.error, "That code is not right. 2 tries left.")
            $0.transitions = ["update secureCode"]
        }
        try session.send(CheckoutFlow.Route.confirmCode(code: PaymentDecision.challengeCode), orderPlaced(
            email: "grace@example.com", delivery: .standard, card: "Visa •••• 3184", total: 2945, popping: "signIn, guest, delivery, payment", sheet: true))
    }

    @Test func threeWrongCodesDeclineThePaymentAndTheSheetOnlyLeadsBack() throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.payWithThreeDSecure()
        try session.send(CheckoutFlow.Route.confirmCode(code: "111111")) {
            $0.notice = Notice(.error, "That code is not right. 2 tries left.")
            $0.transitions = ["update secureCode"]
        }
        try session.send(CheckoutFlow.Route.confirmCode(code: "222222")) {
            $0.notice = Notice(.error, "That code is not right. One try left.")
            $0.transitions = ["update secureCode"]
        }
        try session.send(CheckoutFlow.Route.confirmCode(code: "333333")) {
            $0.notice = Notice(.error, PaymentDecision.failedChallengeReason)
            $0.transitions = ["update secureCode"]
        }
        #expect(session.topScreen?.routes == ["confirmCode", "cancelPayment"])
        #expect(session.topTexts == ["Payment not confirmed", PaymentDecision.failedChallengeReason])
        try session.send(CheckoutFlow.Route.confirmCode(code: PaymentDecision.challengeCode)) {
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
        try session.send(CheckoutFlow.Route.confirmCode(code: "000000")) {
            $0.notice = Notice(.error, "That code is not right. 2 tries left.")
            $0.transitions = ["update secureCode"]
        }
    }

    @Test func aDeclinedCardSaysSoOnThePaymentScreenAndOrdersNothing() throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.send(CheckoutFlow.Route.pay(cardNumber: PaymentDecision.TestCard.declined, expiry: "12/30", securityCode: "123")) {
            $0.notice = Notice(.error, PaymentDecision.declinedReason)
            $0.transitions = ["update payment"]
        }
        #expect(session.topScreen?.name == "payment")
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
    func cardDetailsTheCustomerCanFixGiveANoticeAndKeepNothingTyped(number: String, expiry: String, code: String, problem: Card.Problem) throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.send(CheckoutFlow.Route.pay(cardNumber: number, expiry: expiry, securityCode: code)) {
            $0.notice = Notice(.error, problem.rawValue)
            $0.transitions = ["update payment"]
        }
        #expect(session.snapshot.form.isEmpty, "card details are never kept on the screen")
    }
}
