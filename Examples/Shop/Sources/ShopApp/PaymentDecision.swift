/// What the shop's payment service (``PaymentService``) answers the checkout's payment effects:
/// the reply of ``CheckoutFlow/Effect``, which one function, `CheckoutFlow.settle`, turns into
/// screens.
enum PaymentDecision: Codable, Sendable, Hashable {
    /// Paid.
    case approved(PaymentReceipt)
    /// The customer's bank wants the customer to confirm the payment first.
    case challenge(ThreeDSecureChallenge)
    /// Not paid, and why, as the customer reads it.
    case declined(reason: String)
}

/// A paid payment: the service's reference and the card as receipts name it.
struct PaymentReceipt: Codable, Sendable, Hashable {
    var reference: String
    var card: String
}

/// A payment waiting for the customer to confirm it with their bank. Kept in the checkout's
/// data while the challenge is on screen, and sent back with the code the customer types; it
/// holds no card number.
struct ThreeDSecureChallenge: Codable, Sendable, Hashable {
    var reference: String
    var amount: Int
    var card: String
    var attemptsLeft: Int
}
