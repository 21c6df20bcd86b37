@testable import ShopApp
import Testing
import WayfinderCore

/// The payment service's rules, in the one place that holds them, the card checks before them,
/// and its idempotency: a call asked again under its key charges once.
@Suite struct PaymentServiceTests {
    private func card(_ number: String) throws -> Card {
        try Card.read(number: number, expiry: "12/30", securityCode: "123").get()
    }

    private func authorise(_ number: String) throws -> PaymentDecision {
        try PaymentService.authorise(order: "1002", amount: 2945, number: try card(number).number)
    }

    @Test func everyTestCardPassesTheCardChecks() throws {
        let cards = [
            PaymentService.TestCard.pays, PaymentService.TestCard.threeDSecure, PaymentService.TestCard.declined,
            PaymentService.TestCard.unavailable,
        ]
        for number in cards {
            #expect(throws: Never.self) { try card(number) }
        }
        #expect(try card("4242-4242-4242-4242").label == "Visa •••• 4242")
        #expect(try card("5555 5555 5555 4444").label == "Mastercard •••• 4444")
        #expect(Card.read(number: "4242 4242 4242 4242", expiry: "00/30", securityCode: "123") == .failure(.expiry))
        #expect(try Card.read(number: "4242424242424242", expiry: "07/2031", securityCode: "1234").get().expiry == "07/2031")
    }

    @Test func eachTestCardGetsItsAnswer() throws {
        #expect(try authorise(PaymentService.TestCard.pays) == .approved(PaymentReceipt(reference: "pay-1002", card: "Visa •••• 4242")))
        #expect(try authorise("5555 5555 5555 4444") == .approved(PaymentReceipt(reference: "pay-1002", card: "Mastercard •••• 4444")))
        #expect(try authorise(PaymentService.TestCard.declined) == .declined(reason: PaymentService.declinedReason))
        #expect(try authorise(PaymentService.TestCard.threeDSecure) == .challenge(threeDSecureChallenge))
        #expect(throws: PaymentService.ProcessingError.self) { try authorise(PaymentService.TestCard.unavailable) }
    }

    @Test func aChallengeTakesTheBanksCodeAndDeclinesAfterTheLastWrongOne() {
        let challenge = threeDSecureChallenge
        #expect(PaymentService.confirm(challenge, code: "123456") == .approved(PaymentReceipt(reference: "pay-1002", card: "Visa •••• 3184")))
        var retry = challenge
        retry.attemptsLeft = 2
        #expect(PaymentService.confirm(challenge, code: "654321") == .challenge(retry))
        retry.attemptsLeft = 1
        #expect(PaymentService.confirm(retry, code: "654321") == .declined(reason: PaymentService.failedChallengeReason))
    }

    @Test func aCallAskedAgainUnderItsKeyGetsTheFirstAnswerAndChargesOnce() async throws {
        let service = PaymentService()
        let pay = CheckoutFlow.Effect.authorise(
            order: "1002", amount: 2945, card: Secret("4242424242424242"), expiry: "12/2030", securityCode: "123")
        let first = try await service.answer(pay, key: "s1/e1")
        #expect(first == .approved(PaymentReceipt(reference: "pay-1002", card: "Visa •••• 4242")))
        #expect(try await service.answer(pay, key: "s1/e1") == first)
        #expect(service.charges == 1, "a retry of the same call charges nothing more")
        _ = try await service.answer(pay, key: "s1/e2")
        #expect(service.charges == 2, "a new payment is a new charge")

        // A challenge answered twice: one charge, and the second call cannot turn a wrong code
        // into a different answer.
        let wrong = CheckoutFlow.Effect.confirm(challenge: threeDSecureChallenge, code: "000000")
        let retry = try await service.answer(wrong, key: "s2/e2")
        #expect(try await service.answer(.confirm(challenge: threeDSecureChallenge, code: "123456"), key: "s2/e2") == retry)
        #expect(service.charges == 2)
    }

    @Test func aProcessingErrorIsThrownEveryTimeAndRecordsNothing() async throws {
        let service = PaymentService()
        let pay = CheckoutFlow.Effect.authorise(
            order: "1002", amount: 2945, card: Secret("4000000000000119"), expiry: "12/2030", securityCode: "123")
        for _ in 1...2 {
            await #expect(throws: PaymentService.ProcessingError.self) { try await service.answer(pay, key: "s1/e1") }
        }
        #expect(service.charges == 0)
    }

    @Test func theDelaySettingIsSecondsUpToAnHourAndAnythingElseStopsTheStart() throws {
        #expect(try Shop.paymentService(delay: nil).delay == .zero)
        #expect(try Shop.paymentService(delay: "1.5").delay == .milliseconds(1500))
        for bad in ["", "soon", "-1", "nan", "3601"] {
            #expect(throws: Shop.SettingError(description: "WAYFINDER_SHOP_PAYMENT_DELAY must be a number of seconds from 0 to 3600, not '\(bad)'")) {
                try Shop.paymentService(delay: bad)
            }
        }
        #expect(try Shop.makeServices(dataDirectory: nil).flows == ["checkout"])
    }
}
