import WayfinderCore

/// A coffee shop's checkout, written on Wayfinder's public API only: three tabs (shop, cart,
/// account), a checkout that signs in or continues as a guest, asks for an address, a delivery
/// option and a card (with a 3-D Secure step as a modal), deep links to products and orders, and
/// one address-editing flow reused by the checkout and the account tab.
public enum Shop {
    /// The application: the tab bar at the root, then every flow it may run.
    public static func makeApplication() throws -> Application {
        try Application(
            scheme: "shop", root: AppFlow(),
            flows: [CatalogFlow(), CartFlow(), AccountFlow(), CheckoutFlow(), AddressFlow()])
    }
}

/// The shop's shared types: who the customer is, the session's cart, addresses and orders, and
/// where its deep links lead.
enum ShopSchema: AppSchema {
    typealias Context = ShopContext
    typealias Model = ShopModel
    typealias Link = ShopLink
}

/// Every flow of the shop.
protocol ShopFlow: Flow where App == ShopSchema {}

extension FlowContext where F: ShopFlow {
    /// Shows an error notice on the screen whose route is being handled, keeping the given
    /// (never secret) form values: what a flow does with input the customer can fix.
    mutating func reject(_ message: String, keeping form: JSONObject = [:]) {
        showNotice(Notice(.error, message), keepingForm: form)
    }

    /// The screen's notice as a component (none when there is none).
    var noticeComponents: [Component] { notice.map { [.notice($0)] } ?? [] }
}

extension String {
    /// The text without leading and trailing white space.
    var trimmed: String {
        var text = Substring(self)
        while let c = text.first, c.isWhitespace { text.removeFirst() }
        while let c = text.last, c.isWhitespace { text.removeLast() }
        return String(text)
    }
}
