/// A placed order, kept in the session's model.
struct Order: Codable, Sendable, Hashable {
    enum Status: String, Codable, Sendable { case placed, shipped, delivered }

    var id: String
    var lines: [CartLine]
    /// Where the receipt goes.
    var email: String
    var address: Address
    var delivery: DeliveryOption
    /// The card as the receipt names it (`Visa •••• 4242`); never its number.
    var card: String
    /// The payment service's reference.
    var payment: String
    /// Items and delivery, in cents.
    var total: Int
    var status = Status.placed

    /// How the order travels, in a sentence.
    var deliveryText: String {
        delivery == .pickup ? "\(delivery.title): \(delivery.detail)." : "\(delivery.title) to \(address.oneLine)."
    }
}
