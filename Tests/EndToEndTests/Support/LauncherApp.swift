import WayfinderCore

/// A small shop whose flows ask for an effect on every path that can ask for one (issue 42,
/// point B1): at launch (its splash screen checks the stored login, the most common launch
/// pattern), by a deep link opened at creation, by a route, by the end of a child flow (back, or
/// a tap on the selected tab), and by a migration (version 2 shows the news where version 1 had
/// the basket: `news` loads the headline when it starts; the route `more` opens either).
///
///     launcher (splash) ── tab shop (shop, offer(code:, price:)) ── basket (basket), version 1
///                                                                 └─ news (news), version 2
enum Launcher: AppSchema {
    typealias Context = LauncherContext
    typealias Model = LauncherModel
    typealias Link = LauncherLink

    /// The app at `version` 1 or 2, with its migration.
    static func engine(version: Int = 1) throws -> Engine {
        let news = version >= 2
        let flows: [any Flow<Launcher>] = [ShopFlow(news: news), news ? NewsFlow() : BasketFlow()]
        let migrations = news ? [Migration<Launcher>(to: "2", [.removed(flow: "basket", replacedBy: NewsFlow.self)])] : []
        return Engine(try Application(scheme: "launcher", version: String(version), root: LauncherFlow(), flows: flows, migrations: migrations))
    }

    /// The services of every effect: the login `t0k3n` is Ada's, an offer costs 12 €, the basket
    /// holds 3 items. Each call waits for `gate` first, when there is one.
    static func services(gate: EffectEndToEndTests.Gate? = nil) -> EffectServices {
        var services = EffectServices()
        services.register(LauncherFlow.self, timeout: .seconds(60), retries: 0) { effect, _ in
            await gate?.wait()
            guard case .checkLogin(let token) = effect else { return "" }
            return token.value == "t0k3n" ? "Ada" : ""
        }
        services.register(ShopFlow.self, timeout: .seconds(60), retries: 0) { effect, _ in
            await gate?.wait()
            switch effect {
            case .price(let code): return "\(code) costs 12 €"
            case .countBasket: return "3 items"
            }
        }
        services.register(NewsFlow.self, timeout: .seconds(60), retries: 0) { _, _ in
            await gate?.wait()
            return "Wayfinder runs launch effects"
        }
        return services
    }
}

/// The stored login a client sends when it opens the app (empty: a guest).
struct LauncherContext: SessionContext {
    var token = ""
    var user = ""
}

/// What the effects brought back.
struct LauncherModel: AppModel {
    var basket = "not counted"
    var headline = "Loading the news…"
}

/// `launcher://offers/{code}`.
enum LauncherLink: DeepLinkDestination {
    case offer(code: String)
    enum CodingKeys: String, CodingKey, CaseIterable { case offer = "offers/{code}" }
}

/// The application coordinator: with a stored login, a splash screen while the account service
/// checks it (an effect asked for in `start`); then, or at once for a guest, the shop's tab bar.
struct LauncherFlow: Flow {
    typealias App = Launcher
    typealias EffectReply = String

    enum Screen: FlowScreen {
        case splash
        enum CodingKeys: CodingKey, CaseIterable { case splash }
    }
    enum Effect: FlowEffect {
        case checkLogin(token: Secret)
        enum CodingKeys: CodingKey, CaseIterable { case checkLogin }
    }

    let tabs = [TabSpec(id: "shop", title: "Shop", icon: "bag", flow: ShopFlow.self)]

    func start(_ flow: inout FlowContext<Self>) throws {
        guard !flow.context.token.isEmpty else { return try flow.showTabs(tabs, selected: "shop") }
        flow.show(.splash)
        flow.perform(.checkLogin(token: Secret(flow.context.token)))
    }

    func complete(_ effect: Effect, with result: EffectResult<EffectReply>, _ flow: inout FlowContext<Self>) throws {
        if case .success(let user) = result { flow.context.user = user }
        try flow.showTabs(tabs, selected: "shop")
    }

    func openDeepLink(_ link: LauncherLink, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
        try flow.offer(link, to: ShopFlow.self) ?? .deferred
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        ScreenContent(title: "Launcher", components: [.text("Checking your login…")])
    }
}

/// The shop tab: an offer is priced by the pricing service before it shows (a route or a deep
/// link asks), and the basket is counted again whenever the basket flow ends (version 1; version
/// 2 shows the news instead).
struct ShopFlow: Flow {
    typealias App = Launcher
    typealias EffectReply = String

    enum Screen: FlowScreen {
        case shop, offer(code: String, price: String)
        enum CodingKeys: CodingKey, CaseIterable { case shop, offer }
    }
    enum Route: FlowRoute {
        case open(code: String)
        case more
        enum CodingKeys: CodingKey, CaseIterable { case open, more }
    }
    enum Effect: FlowEffect {
        case price(code: String)
        case countBasket
        enum CodingKeys: CodingKey, CaseIterable { case price, countBasket }
    }

    /// Version 2: the news instead of the basket.
    let news: Bool
    var children: [any Flow.Type] { [news ? NewsFlow.self : BasketFlow.self] }
    let deepLinks: [LauncherLink.Name] = [.offer]

    func routes(on screen: Screen.Name) -> [Route.Name] { screen == .shop ? [.open, .more] : [] }
    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.shop) }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .open(let code): flow.perform(.price(code: code))
        case .more where news: try flow.startChild(NewsFlow.self, placement: .push)
        case .more: try flow.startChild(BasketFlow.self, placement: .push)
        }
    }

    func openDeepLink(_ link: LauncherLink, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
        guard case .offer(let code) = link else { return .declined }
        flow.perform(.price(code: code))
        return .opened
    }

    func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws {
        if child.flow == BasketFlow.name { flow.perform(.countBasket) }
    }

    func complete(_ effect: Effect, with result: EffectResult<EffectReply>, _ flow: inout FlowContext<Self>) throws {
        guard case .success(let reply) = result else { return }
        switch effect {
        case .price(let code): flow.push(.offer(code: code, price: reply))
        case .countBasket: flow.model.basket = reply
        }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        switch screen {
        case .shop:
            let welcome = flow.context.user.isEmpty ? "Welcome, guest" : "Welcome, \(flow.context.user)"
            return ScreenContent(title: "Shop", components: [.text(welcome), .text("Basket: \(flow.model.basket)")])
        case .offer(let code, let price):
            return ScreenContent(title: "Offer \(code)", components: [.text(price)])
        }
    }
}

/// The basket: one screen; back (or a tap on the shop tab) ends the flow. Version 2 has none.
struct BasketFlow: Flow {
    typealias App = Launcher
    enum Screen: FlowScreen {
        case basket
        enum CodingKeys: CodingKey, CaseIterable { case basket }
    }
    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.basket) }
    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent { ScreenContent(title: "Basket", components: []) }
}

/// Version 2's news: the headline is loaded when the flow starts (an effect asked for in
/// `start`), for the stored login, a ``Secret``: only the effect asked for in this process has
/// it, and one resumed from the store completes as `interrupted`.
struct NewsFlow: Flow {
    typealias App = Launcher
    typealias EffectReply = String

    enum Screen: FlowScreen {
        case news
        enum CodingKeys: CodingKey, CaseIterable { case news }
    }
    enum Effect: FlowEffect {
        case loadHeadline(login: Secret)
        enum CodingKeys: CodingKey, CaseIterable { case loadHeadline }
    }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.news)
        flow.perform(.loadHeadline(login: Secret(flow.context.token)))
    }

    func complete(_ effect: Effect, with result: EffectResult<EffectReply>, _ flow: inout FlowContext<Self>) throws {
        switch result {
        case .success(let headline): flow.model.headline = headline
        case .failure: flow.model.headline = "The news could not be loaded."
        }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        ScreenContent(title: "News", components: [.text(flow.model.headline)])
    }
}
