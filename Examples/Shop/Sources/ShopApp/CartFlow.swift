import WayfinderCore

/// The cart tab: the lines, one line's quantity, the checkout (a child flow pushed here) and
/// the confirmation once the checkout finished with an order.
struct CartFlow: ShopFlow {
    enum Screen: FlowScreen {
        case cart
        case line(product: String)
        case confirmation(order: String)
        enum CodingKeys: CodingKey, CaseIterable { case cart, line, confirmation }
    }

    enum Route: FlowRoute {
        case showLine(product: String)
        case checkout
        case browse
        case updateQuantity(quantity: String)
        case removeLine
        case viewOrder
        case continueShopping
        enum CodingKeys: CodingKey, CaseIterable { case showLine, checkout, browse, updateQuantity, removeLine, viewOrder, continueShopping }
    }

    let children: [any Flow.Type] = [CheckoutFlow.self]
    let deepLinks: [ShopLink.Name] = [.cart]

    func routes(on screen: Screen.Name) -> [Route.Name] {
        switch screen {
        case .cart: [.showLine, .checkout, .browse]
        case .line: [.updateQuantity, .removeLine]
        case .confirmation: [.viewOrder, .continueShopping]
        }
    }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.cart)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch (route, screen) {
        case (.showLine(let product), _):
            guard flow.model.cart[product] != nil else { throw NavigationError.invalidParam("product", "the cart holds no '\(product)'") }
            flow.push(.line(product: product))
        case (.checkout, _):
            guard !flow.model.cart.isEmpty else { return flow.reject("Your cart is empty.") }
            try flow.startChild(CheckoutFlow.self, placement: .push)
        case (.browse, _):
            flow.selectTab("shop")
        case (.updateQuantity(let text), .line(let product)):
            guard let quantity = Int(text.trimmed), (1...Cart.maxQuantity).contains(quantity) else {
                return flow.reject("Enter a quantity from 1 to \(Cart.maxQuantity).", keeping: ["quantity": .string(text)])
            }
            flow.model.cart.set(product, quantity: quantity)
            try flow.pop()
        case (.removeLine, .line(let product)):
            flow.model.cart.remove(product)
            try flow.pop()
        case (.viewOrder, .confirmation(let order)):
            try flow.popToRoot()
            try flow.openDeepLink(.order(id: order))
        case (.continueShopping, _):
            try flow.popToRoot()
            flow.selectTab("shop")
        case (.updateQuantity, _), (.removeLine, _), (.viewOrder, _):
            break  // offered on a line or the confirmation only
        }
    }

    func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws {
        // A placed order: back to the (now empty) cart, with the confirmation on top. A checkout
        // the customer backed out of left nothing to do.
        guard let placed = child.result(of: CheckoutFlow.self) else { return }
        try flow.popToOwnTop()
        flow.push(.confirmation(order: placed.order))
    }

    func openDeepLink(_ link: ShopLink, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
        guard link == .cart else { return .declined }
        try flow.reset()
        return .opened
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        let cart = flow.model.cart
        switch screen {
        case .cart:
            guard !cart.isEmpty else {
                return ScreenContent(
                    title: "Cart",
                    components: [.text("Your cart is empty.")] + flow.noticeComponents + [flow.button("Browse the shop", route: .browse)])
            }
            let items = cart.lines.map { line in
                let product = Product.find(line.product)
                let price = product?.price ?? 0
                return Component.ListItem(
                    id: line.product, title: product?.name ?? line.product,
                    subtitle: "\(line.quantity) × \(Money.text(price)) = \(Money.text(price * line.quantity))",
                    action: flow.action(.showLine(product: line.product)))
            }
            return ScreenContent(
                title: "Cart",
                components: [.list(items), .text("Subtotal \(Money.text(cart.subtotal))")] + flow.noticeComponents + [
                    flow.button("Check out", route: .checkout)
                ])
        case .line(let id):
            let name = Product.find(id)?.name ?? id
            return ScreenContent(
                title: name,
                components: [.heading(name)] + flow.noticeComponents + [
                    .field(name: "quantity", label: "Quantity", value: flow.formString("quantity", default: String(cart[id]?.quantity ?? 1)), kind: .text),
                    flow.button("Update", submitting: .updateQuantity),
                    flow.button("Remove from cart", .destructive, route: .removeLine),
                ])
        case .confirmation(let id):
            let order = flow.model.order(id)
            return ScreenContent(
                title: "Thank you",
                components: [
                    .notice(Notice(.success, "Order \(id) is placed.")),
                    .text(order?.deliveryText ?? ""),
                    .text(order.map { "We sent the receipt to \($0.email)." } ?? ""),
                    flow.button("View order", route: .viewOrder),
                    flow.button("Continue shopping", .secondary, route: .continueShopping),
                ])
        }
    }
}
