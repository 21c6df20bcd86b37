/// One thing the shop sells. The range is fixed in code (``Product/all``); sessions keep only
/// product ids.
struct Product: Sendable, Hashable {
    var id: String
    var name: String
    var summary: String
    /// In cents.
    var price: Int

    /// The shop's range, in the order the shop tab lists it.
    static let all = [
        Product(id: "beans", name: "House beans, 1 kg", summary: "A chocolatey espresso blend, roasted weekly.", price: 2450),
        Product(id: "cups", name: "Espresso cups, set of 2", summary: "Thick-walled porcelain that keeps the crema warm.", price: 1800),
        Product(id: "kettle", name: "Pour-over kettle", summary: "A gooseneck kettle for a slow, even pour.", price: 5490),
        Product(id: "grinder", name: "Hand grinder", summary: "Steel burrs, 40 settings, fits in a bag.", price: 7900),
        Product(id: "filters", name: "Paper filters, 100", summary: "Unbleached filters for the pour-over.", price: 690),
    ]

    /// The product with `id`, if the shop sells it.
    static func find(_ id: String) -> Product? { all.first { $0.id == id } }
}
