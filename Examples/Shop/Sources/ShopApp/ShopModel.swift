import WayfinderCore

/// The session's shop data (MVVM-C's model): the cart, the address book and the orders, kept
/// across flows. A new session starts with an empty cart and one delivered order, 1001, so that
/// `shop://orders/1001` has something to open.
struct ShopModel: AppModel {
    var cart = Cart()
    var addresses: [Address] = []
    var orders = [
        Order(
            id: "1001", lines: [CartLine(product: "kettle", quantity: 1)], email: "ada@example.com",
            address: Address(name: "Ada Lovelace", street: "12 St James's Square", city: "London", postcode: "SW1Y 4JH", country: "United Kingdom"),
            delivery: .standard, card: "Visa •••• 4242", payment: "pay-1001", total: 5985, status: .delivered)
    ]
    /// Order and address numbers are never reused within a session.
    var nextOrder = 1002
    var nextAddress = 1

    func order(_ id: String) -> Order? { orders.first { $0.id == id } }
    func address(_ id: String) -> Address? { addresses.first { $0.id == id } }

    /// The number the next order gets; its payment is authorised under it.
    var nextOrderID: String { String(nextOrder) }

    /// Keeps `address` in the address book: replaces the one with its id, or adds it with a new id.
    mutating func save(_ address: Address) {
        if let index = addresses.firstIndex(where: { $0.id == address.id && !address.id.isEmpty }) {
            addresses[index] = address
            return
        }
        var added = address
        added.id = "a\(nextAddress)"
        nextAddress += 1
        addresses.append(added)
    }

    /// Turns the cart into an order paid by `receipt` and empties the cart; returns the order.
    mutating func placeOrder(email: String, address: Address, delivery: DeliveryOption, receipt: PaymentReceipt) -> Order {
        let order = Order(
            id: nextOrderID, lines: cart.lines, email: email, address: address, delivery: delivery,
            card: receipt.card, payment: receipt.reference, total: cart.subtotal + delivery.price)
        orders.append(order)
        nextOrder += 1
        cart = Cart()
        return order
    }
}
