import Foundation
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

    /// The services behind the checkout's effects: the shop's payment service, in test mode
    /// (``PaymentService``). It keeps nothing on disk, so `dataDirectory` is unused.
    /// `WAYFINDER_SHOP_PAYMENT_DELAY` (seconds, up to 3600) makes every payment call that slow,
    /// to show the busy screen; any other value stops the start with a message saying so.
    public static func makeServices(dataDirectory: String?) throws -> EffectServices {
        try paymentService(delay: ProcessInfo.processInfo.environment["WAYFINDER_SHOP_PAYMENT_DELAY"]).effects
    }

    /// The payment service with the delay `WAYFINDER_SHOP_PAYMENT_DELAY` gives, if any.
    static func paymentService(delay text: String?) throws -> PaymentService {
        guard let text else { return PaymentService() }
        guard let seconds = Double(text), seconds >= 0, seconds <= 3600 else {
            throw SettingError(description: "WAYFINDER_SHOP_PAYMENT_DELAY must be a number of seconds from 0 to 3600, not '\(text)'")
        }
        return PaymentService(delay: .milliseconds(Int(seconds * 1000)))
    }

    /// A setting of the shop's own that cannot be used.
    struct SettingError: Error, CustomStringConvertible, Equatable {
        var description: String
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

extension String {
    /// The text without leading and trailing white space.
    var trimmed: String {
        var text = Substring(self)
        while let c = text.first, c.isWhitespace { text.removeFirst() }
        while let c = text.last, c.isWhitespace { text.removeLast() }
        return String(text)
    }
}
