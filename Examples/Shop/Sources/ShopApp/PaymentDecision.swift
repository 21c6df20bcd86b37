/// What the shop's payment service answers for a payment, and every rule it answers by, in
/// this one file: the checkout asks ``authorise(_:)`` when the customer pays and
/// ``confirm(_:code:)`` when they answer a 3-D Secure challenge, and hands the decision to
/// one function (`CheckoutFlow.settle`) that moves the screens.
///
/// The rules are deterministic test rules, like a payment provider's test mode:
/// - ``TestCard/declined`` is declined;
/// - ``TestCard/threeDSecure`` asks the bank to confirm (3-D Secure): the code is
///   ``challengeCode``, three tries;
/// - every other card that passes the checks of ``Card`` pays.
///
/// Asking a real payment service instead turns these two functions into requests whose answers
/// come back as the same decisions; the screens do not change.
enum PaymentDecision: Codable, Sendable, Hashable {
    /// Paid.
    case approved(PaymentReceipt)
    /// The customer's bank wants the customer to confirm the payment first.
    case challenge(ThreeDSecureChallenge)
    /// Not paid, and why, as the customer reads it.
    case declined(reason: String)

    /// Cards with a known answer, as a customer types them.
    enum TestCard {
        static let pays = "4242 4242 4242 4242"
        static let threeDSecure = "4000 0027 6000 3184"
        static let declined = "4000 0000 0000 0002"
    }

    /// The code the test bank's 3-D Secure challenge accepts.
    static let challengeCode = "123456"
    /// How many codes a customer may try.
    static let challengeAttempts = 3

    static let declinedReason = "Your card was declined. Try another card; you have not been charged."
    static let failedChallengeReason = "Your bank could not confirm the payment. You have not been charged."

    /// The answer to a payment request.
    static func authorise(_ request: PaymentRequest) -> PaymentDecision {
        let reference = "pay-\(request.reference)"
        switch request.card.number {
        case digits(TestCard.declined):
            return .declined(reason: declinedReason)
        case digits(TestCard.threeDSecure):
            return .challenge(
                ThreeDSecureChallenge(reference: reference, amount: request.amount, card: request.card.label, attemptsLeft: challengeAttempts))
        default:
            return .approved(PaymentReceipt(reference: reference, card: request.card.label))
        }
    }

    /// The answer once the customer typed `code` for `challenge`: paid, another try, or declined
    /// after the last wrong code.
    static func confirm(_ challenge: ThreeDSecureChallenge, code: String) -> PaymentDecision {
        if code == challengeCode { return .approved(PaymentReceipt(reference: challenge.reference, card: challenge.card)) }
        guard challenge.attemptsLeft > 1 else { return .declined(reason: failedChallengeReason) }
        var next = challenge
        next.attemptsLeft -= 1
        return .challenge(next)
    }

    private static func digits(_ number: String) -> String { number.filter(\.isASCIIDigit) }
}

/// A payment to authorise: the order's number, its amount in cents and the card.
struct PaymentRequest: Codable, Sendable, Hashable {
    var reference: String
    var amount: Int
    var card: Card
}

/// A paid payment: the service's reference and the card as receipts name it.
struct PaymentReceipt: Codable, Sendable, Hashable {
    var reference: String
    var card: String
}

/// A payment waiting for the customer to confirm it with their bank. Kept in the checkout's
/// data while the challenge is on screen; it holds no card number.
struct ThreeDSecureChallenge: Codable, Sendable, Hashable {
    var reference: String
    var amount: Int
    var card: String
    var attemptsLeft: Int
}
