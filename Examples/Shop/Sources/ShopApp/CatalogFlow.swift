import WayfinderCore

/// The shop tab: the range, and one product with "add to cart".
struct CatalogFlow: ShopFlow {
    enum Screen: FlowScreen {
        case products
        case product(id: String)
        enum CodingKeys: CodingKey, CaseIterable { case products, product }
    }

    enum Route: FlowRoute {
        case showProduct(id: String)
        case addToCart
        case viewCart
        enum CodingKeys: CodingKey, CaseIterable { case showProduct, addToCart, viewCart }
    }

    let deepLinks: [ShopLink.Name] = [.product]

    func routes(on screen: Screen.Name) -> [Route.Name] {
        switch screen {
        case .products: [.showProduct]
        case .product: [.addToCart, .viewCart]
        }
    }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.products)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch (route, screen) {
        case (.showProduct(let id), _):
            guard Product.find(id) != nil else { throw NavigationError.invalidParam("id", "the shop sells no product '\(id)'") }
            flow.push(.product(id: id))
        case (.addToCart, .product(let id)):
            guard flow.model.cart.add(id) else {
                return flow.reject("Your cart already holds \(Cart.maxQuantity) of these, the most one order takes.")
            }
            let count = flow.model.cart[id]?.quantity ?? 0
            flow.showNotice(Notice(.success, count == 1 ? "Added to your cart." : "Added to your cart (\(count) in it now)."))
        case (.viewCart, _):
            flow.selectTab("cart")
        case (.addToCart, .products):
            break  // offered on a product only
        }
    }

    func openDeepLink(_ link: ShopLink, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
        guard case .product(let id) = link, Product.find(id) != nil else { return .declined }
        try flow.reset(pushing: [.product(id: id)])
        return .opened
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        switch screen {
        case .products:
            return ScreenContent(
                title: "Shop",
                components: [
                    .heading("Coffee gear"),
                    .list(Product.all.map { product in
                        .init(id: product.id, title: product.name, subtitle: Money.text(product.price), action: flow.action(.showProduct(id: product.id)))
                    }),
                ])
        case .product(let id):
            let product = Product.find(id) ?? Product(id: id, name: "No longer sold", summary: "", price: 0)
            return ScreenContent(
                title: product.name,
                components: [.heading(product.name), .text(product.summary), .text(Money.text(product.price))] + flow.noticeComponents + [
                    flow.button("Add to cart", route: .addToCart),
                    flow.button("View cart", .secondary, route: .viewCart),
                ])
        }
    }
}
