@testable import ShopApp
import Testing

/// The payment service's rules, in the one place that holds them, and the card checks before them.
@Suite struct PaymentDecisionTests {
    private func card(_ number: String) throws -> Card {
        try Card.read(number: number, expiry: "12/30", securityCode: "123").get()
    }

    @Test func everyTestCardPassesTheCardChecks() throws {
        for number in [PaymentDecision.TestCard.pays, PaymentDecision.TestCard.threeDSecure, PaymentDecision.TestCard.declined] {
            #expect(throws: Never.self) { try card(number) }
        }
        #expect(try card("4242-4242-4242-4242").label == "Visa •••• 4242")
        #expect(try card("5555 5555 5555 4444").label == "Mastercard •••• 4444")
        #expect(Card.read(number: "4242 4242 4242 4242", expiry: "00/30", securityCode: "123") == .failure(.expiry))
        #expect(try Card.read(number: "4242424242424242", expiry: "07/2031", securityCode: "1234").get().expiryYear == 2031)
    }

    @Test func eachTestCardGetsItsAnswer() throws {
        let request = { (number: String) in PaymentRequest(reference: "1002", amount: 2945, card: try card(number)) }
        #expect(PaymentDecision.authorise(try request(PaymentDecision.TestCard.pays)) == .approved(PaymentReceipt(reference: "pay-1002", card: "Visa •••• 4242")))
        #expect(PaymentDecision.authorise(try request("5555 5555 5555 4444")) == .approved(PaymentReceipt(reference: "pay-1002", card: "Mastercard •••• 4444")))
        #expect(PaymentDecision.authorise(try request(PaymentDecision.TestCard.declined)) == .declined(reason: PaymentDecision.declinedReason))
        #expect(
            PaymentDecision.authorise(try request(PaymentDecision.TestCard.threeDSecure))
                == .challenge(ThreeDSecureChallenge(reference: "pay-1002", amount: 2945, card: "Visa •••• 3184", attemptsLeft: 3)))
    }

    @Test func aChallengeTakesTheBanksCodeAndDeclinesAfterTheLastWrongOne() {
        let challenge = ThreeDSecureChallenge(reference: "pay-1002", amount: 2945, card: "Visa •••• 3184", attemptsLeft: 3)
        #expect(PaymentDecision.confirm(challenge, code: "123456") == .approved(PaymentReceipt(reference: "pay-1002", card: "Visa •••• 3184")))
        var retry = challenge
        retry.attemptsLeft = 2
        #expect(PaymentDecision.confirm(challenge, code: "654321") == .challenge(retry))
        retry.attemptsLeft = 1
        #expect(PaymentDecision.confirm(retry, code: "654321") == .declined(reason: PaymentDecision.failedChallengeReason))
    }
}
