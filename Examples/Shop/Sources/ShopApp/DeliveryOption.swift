/// How an order travels, with its price.
enum DeliveryOption: String, Codable, Sendable, CaseIterable {
    case standard, express, pickup

    var title: String {
        switch self {
        case .standard: "Standard delivery"
        case .express: "Express delivery"
        case .pickup: "Pick up in the shop"
        }
    }

    var detail: String {
        switch self {
        case .standard: "3 to 5 working days"
        case .express: "Next working day"
        case .pickup: "Ready in two hours, Canal Street 7"
        }
    }

    /// In cents.
    var price: Int {
        switch self {
        case .standard: 495
        case .express: 995
        case .pickup: 0
        }
    }
}
