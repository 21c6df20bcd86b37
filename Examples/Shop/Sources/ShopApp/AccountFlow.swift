import WayfinderCore

/// The account tab: who is shopping, the address book (edited with the shared address flow,
/// pushed here) and the session's orders; `shop://orders/{id}` opens one.
struct AccountFlow: ShopFlow {
    enum Screen: FlowScreen {
        case account
        case order(id: String)
        enum CodingKeys: CodingKey, CaseIterable { case account, order }
    }

    enum Route: FlowRoute {
        case showOrder(id: String)
        case editAddress(id: String)
        case addAddress
        case signOut
        enum CodingKeys: CodingKey, CaseIterable { case showOrder, editAddress, addAddress, signOut }
    }

    let children: [any Flow.Type] = [AddressFlow.self]
    let deepLinks: [ShopLink.Name] = [.order]

    func routes(on screen: Screen.Name) -> [Route.Name] {
        switch screen {
        case .account: [.showOrder, .editAddress, .addAddress, .signOut]
        case .order: []
        }
    }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.account)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .showOrder(let id):
            guard flow.model.order(id) != nil else { throw NavigationError.invalidParam("id", "no order has id '\(id)'") }
            flow.push(.order(id: id))
        case .editAddress(let id):
            guard let address = flow.model.address(id) else { throw NavigationError.invalidParam("id", "no address has id '\(id)'") }
            try flow.startChild(AddressFlow.self, placement: .push, data: AddressFlow.Data(address: address, purpose: .addressBook))
        case .addAddress:
            try flow.startChild(AddressFlow.self, placement: .push, data: AddressFlow.Data(purpose: .addressBook))
        case .signOut:
            guard flow.context.signedIn else { return }
            flow.context.signedIn = false
            flow.context.email = nil
        }
    }

    func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws {
        // A saved address goes into the address book; backing out of the form changes nothing.
        guard let address = child.result(of: AddressFlow.self) else { return }
        flow.model.save(address)
        try flow.popToOwnTop()
    }

    func openDeepLink(_ link: ShopLink, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
        guard case .order(let id) = link, flow.model.order(id) != nil else { return .declined }
        try flow.reset(pushing: [.order(id: id)])
        return .opened
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        let model = flow.model
        switch screen {
        case .account:
            let context = flow.context
            var components: [Component] = [
                .heading(context.email ?? "Guest"),
                .text(context.signedIn ? "You are signed in." : "You are shopping as a guest; you can sign in at checkout."),
                .heading("Addresses"),
            ]
            components.append(model.addresses.isEmpty ? .text("No saved addresses yet.") : .list(model.addresses.map { address in
                .init(id: address.id, title: address.name, subtitle: address.place, action: flow.action(.editAddress(id: address.id)))
            }))
            components.append(flow.button("Add address", .secondary, route: .addAddress))
            components.append(.heading("Orders"))
            components.append(.list(model.orders.reversed().map { order in
                .init(
                    id: order.id, title: "Order \(order.id)", subtitle: "\(Money.text(order.total)) · \(order.status.rawValue)",
                    action: flow.action(.showOrder(id: order.id)))
            }))
            if context.signedIn { components.append(flow.button("Sign out", .destructive, route: .signOut)) }
            return ScreenContent(title: "Account", components: components)
        case .order(let id):
            guard let order = model.order(id) else { return ScreenContent(title: "Order \(id)", components: [.text("No such order.")]) }
            let lines: [Component] = order.lines.map { line in
                let product = Product.find(line.product)
                return .text("\(line.quantity) × \(product?.name ?? line.product): \(Money.text((product?.price ?? 0) * line.quantity))")
            }
            return ScreenContent(
                title: "Order \(id)",
                components: [.heading("Order \(id)"), .text("Status: \(order.status.rawValue)")] + lines + [
                    .text("\(order.delivery.title): \(Money.text(order.delivery.price))"),
                    .text("Total: \(Money.text(order.total)), paid with \(order.card)"),
                    .text(order.deliveryText),
                    .text("Receipt sent to \(order.email)"),
                ])
        }
    }
}
