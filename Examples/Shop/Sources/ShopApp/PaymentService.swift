import Synchronization
import WayfinderCore

/// The shop's payment service, in test mode: the checkout's effects (``CheckoutFlow/Effect``)
/// ask it to authorise a payment and to confirm a 3-D Secure challenge, and every rule it
/// answers by is in this file:
/// - ``TestCard/declined`` is declined;
/// - ``TestCard/threeDSecure`` asks the bank to confirm (3-D Secure): the code is
///   ``challengeCode``, ``challengeAttempts`` tries;
/// - ``TestCard/unavailable`` fails with a processing error on every call (the service is down);
/// - every other card that passes the checks of ``Card`` pays.
///
/// Each answer is kept under the call's idempotency key (``EffectCall/key``, stable across the
/// server's retries and restarts), so a call asked again gets the first answer and charges
/// nothing more. `delay` makes every call that slow (the busy screen); the server cancels a
/// call that outlives its timeout.
final class PaymentService: Sendable {
    /// Cards with a known answer, as a customer types them.
    enum TestCard {
        static let pays = "4242 4242 4242 4242"
        static let threeDSecure = "4000 0027 6000 3184"
        static let declined = "4000 0000 0000 0002"
        static let unavailable = "4000 0000 0000 0119"
    }

    /// The code the test bank's 3-D Secure challenge accepts.
    static let challengeCode = "123456"
    /// How many codes a customer may try.
    static let challengeAttempts = 3

    static let declinedReason = "Your card was declined. Try another card; you have not been charged."
    static let failedChallengeReason = "Your bank could not confirm the payment. You have not been charged."

    /// What the service throws for ``TestCard/unavailable``: the server retries, then hands the
    /// flow ``EffectFailure/unavailable(_:)``.
    struct ProcessingError: Error, CustomStringConvertible {
        var description: String { "the payment service had a processing error" }
    }

    /// How long each call takes before it answers.
    let delay: Duration
    /// How long the server lets one call take (then it is cancelled and retried once).
    let timeout: Duration
    private let ledger = Mutex(Ledger())

    init(delay: Duration = .zero, timeout: Duration = .seconds(10)) {
        self.delay = delay
        self.timeout = timeout
    }

    /// The service as the server runs the checkout's effects.
    var effects: EffectServices {
        var services = EffectServices()
        services.register(CheckoutFlow.self, timeout: timeout, retries: 1) { effect, call in
            try await self.answer(effect, key: call.key)
        }
        return services
    }

    /// The answer to `effect`, once per `key`.
    func answer(_ effect: CheckoutFlow.Effect, key: String) async throws -> PaymentDecision {
        if delay > .zero { try await Task.sleep(for: delay) }
        if let answered = ledger.withLock({ $0.answers[key] }) { return answered }
        let decision: PaymentDecision
        switch effect {
        case .authorise(let order, let amount, let card, _, _):
            decision = try Self.authorise(order: order, amount: amount, number: card.value)
        case .confirm(let challenge, let code):
            decision = Self.confirm(challenge, code: code.value)
        }
        // Two calls with one key racing each other: the first to get here is the answer.
        return ledger.withLock { $0.keep(decision, for: key) }
    }

    /// Payments charged (approved), each once whatever the retries.
    var charges: Int { ledger.withLock(\.charges) }

    /// The rules of an authorisation.
    static func authorise(order: String, amount: Int, number: String) throws -> PaymentDecision {
        let reference = "pay-\(order)"
        let label = Card.label(number)
        switch number {
        case digits(TestCard.declined):
            return .declined(reason: declinedReason)
        case digits(TestCard.unavailable):
            throw ProcessingError()
        case digits(TestCard.threeDSecure):
            return .challenge(ThreeDSecureChallenge(reference: reference, amount: amount, card: label, attemptsLeft: challengeAttempts))
        default:
            return .approved(PaymentReceipt(reference: reference, card: label))
        }
    }

    /// The rules once the customer typed `code` for `challenge`: paid, another try, or declined
    /// after the last wrong code.
    static func confirm(_ challenge: ThreeDSecureChallenge, code: String) -> PaymentDecision {
        if code == challengeCode { return .approved(PaymentReceipt(reference: challenge.reference, card: challenge.card)) }
        guard challenge.attemptsLeft > 1 else { return .declined(reason: failedChallengeReason) }
        var next = challenge
        next.attemptsLeft -= 1
        return .challenge(next)
    }

    private static func digits(_ number: String) -> String { number.filter(\.isASCIIDigit) }

    /// The answers by key: the most recent ones, so memory stays bounded (a call is repeated
    /// soon after the first, by a retry or the next server, not days later).
    private struct Ledger {
        static let remembered = 10_000
        var answers: [String: PaymentDecision] = [:]
        var keys: [String] = []
        var charges = 0

        mutating func keep(_ decision: PaymentDecision, for key: String) -> PaymentDecision {
            if let first = answers[key] { return first }
            answers[key] = decision
            keys.append(key)
            if case .approved = decision { charges += 1 }
            if keys.count > 2 * Self.remembered {
                for old in keys.prefix(Self.remembered) { answers.removeValue(forKey: old) }
                keys.removeFirst(Self.remembered)
            }
            return decision
        }
    }
}
