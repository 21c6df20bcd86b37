import WayfinderCore

/// Where the shop's deep links lead (`shop://orders/1001`).
enum ShopLink: DeepLinkDestination {
    case cart, product(id: String), order(id: String)

    enum CodingKeys: String, CodingKey, CaseIterable {
        case cart, product = "products/{id}", order = "orders/{id}"
    }

    static func describe(_ link: Name) -> String {
        switch link {
        case .cart: "The cart tab"
        case .product: "One product in the shop tab"
        case .order: "One of the session's orders in the account tab"
        }
    }
}
