import WayfinderCore

/// The application coordinator: the tab bar, one flow per tab. Deep links go to the tab that
/// shows what they name.
struct AppFlow: ShopFlow {
    let tabs = [
        TabSpec(id: "shop", title: "Shop", icon: "bag", flow: CatalogFlow.self),
        TabSpec(id: "cart", title: "Cart", icon: "cart", flow: CartFlow.self),
        TabSpec(id: "account", title: "Account", icon: "person", flow: AccountFlow.self),
    ]

    func start(_ flow: inout FlowContext<Self>) throws {
        // A session created with a verified identity (a JWT of the shop's identity provider) is
        // that customer's; everyone else signs in at checkout.
        if let identity = flow.identity {
            flow.context.signedIn = true
            flow.context.email = identity.claim("email") ?? identity.subject
        }
        try flow.showTabs(tabs, selected: "shop")
    }

    func openDeepLink(_ link: ShopLink, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
        switch link {
        case .product: try flow.offer(link, to: CatalogFlow.self) ?? .declined
        case .cart: try flow.offer(link, to: CartFlow.self) ?? .declined
        case .order: try flow.offer(link, to: AccountFlow.self) ?? .declined
        }
    }
}
