/// One product in the cart and how many of it.
struct CartLine: Codable, Sendable, Hashable {
    var product: String
    var quantity: Int
}

/// The session's cart: lines in the order products were first added.
struct Cart: Codable, Sendable, Hashable {
    /// The most of one product a cart holds.
    static let maxQuantity = 10

    var lines: [CartLine] = []

    var isEmpty: Bool { lines.isEmpty }

    /// The line of `product`, if it is in the cart.
    subscript(product: String) -> CartLine? { lines.first { $0.product == product } }

    /// Adds one of `product`; false (and nothing changes) if the cart already holds the most.
    mutating func add(_ product: String) -> Bool {
        guard let index = lines.firstIndex(where: { $0.product == product }) else {
            lines.append(CartLine(product: product, quantity: 1))
            return true
        }
        guard lines[index].quantity < Self.maxQuantity else { return false }
        lines[index].quantity += 1
        return true
    }

    /// Sets the quantity of a line in the cart (from 1 to ``maxQuantity``).
    mutating func set(_ product: String, quantity: Int) {
        guard let index = lines.firstIndex(where: { $0.product == product }) else { return }
        lines[index].quantity = quantity
    }

    mutating func remove(_ product: String) { lines.removeAll { $0.product == product } }

    /// The lines' total in cents.
    var subtotal: Int { Self.total(of: lines) }

    /// What `lines` cost, in cents (a product no longer sold counts nothing).
    static func total(of lines: [CartLine]) -> Int {
        lines.reduce(0) { $0 + (Product.find($1.product)?.price ?? 0) * $1.quantity }
    }
}
