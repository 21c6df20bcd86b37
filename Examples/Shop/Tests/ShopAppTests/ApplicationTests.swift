@testable import ShopApp
import Testing
import WayfinderCore
import WayfinderTesting

/// The application as the server builds it: its checks pass, its context reads like a client's.
@Suite struct ApplicationTests {
    @Test func theApplicationPassesItsChecksAndRegistersEveryFlowAndLink() throws {
        let app = try Shop.makeApplication()
        #expect(app.flowNames == ["app", "catalog", "cart", "account", "checkout", "address"])
        #expect(app.deepLinks.map(\.pattern) == ["cart", "products/{id}", "orders/{id}"])
        #expect(try app.url(for: ShopLink.order(id: "1001")) == "shop://orders/1001")
    }

    @Test func aNewSessionShowsTheShopTabToAGuest() throws {
        let session = try shopSession([:])
        #expect(session.snapshot.stack == ["products"])
        #expect(session.snapshot.coordinators == "app(catalog, cart, account)")
        #expect(session.snapshot.context == ["platform": "phone", "variant": "A", "signedIn": false, "email": nil])
        #expect(session.snapshot.model == [:], "the model is the type's init() until a flow changes it")
        #expect(session.topScreen?.routes == ["showProduct"])
    }

    @Test func aClientCannotClaimToBeSignedInAndAVerifiedCustomerIs() throws {
        for claim: JSONObject in [["email": "ada@example.com"], ["signedIn": true], ["signedIn": true, "email": "ada@example.com"]] {
            #expect(throws: NavigationError.self, "\(claim)") { try shopSession(claim) }
        }
        #expect(throws: NavigationError.invalidParam("context.platform", "must be one of phone, tablet, web")) {
            try shopSession(["platform": "watch"])
        }
        let session = try shopSession(identity: ada)
        #expect(session.snapshot.context["signedIn"] == true)
        #expect(session.snapshot.context["email"] == "ada@example.com")
    }

    @Test func aRouteAsAClientSendsItIsCheckedAndHandledLikeItsTypedCase() throws {
        var session = try shopSession()
        try session.send(.trigger(RouteRequest("showProduct", params: ["id": "beans"]))) {
            $0.stack = ["products", #"product(id: "beans")"#]
            $0.navigation = #"tabs(*shop: [products, product(id: "beans")], cart: [cart], account: [account])"#
            $0.transitions = [#"push product(id: "beans")"#]
        }
        #expect(throws: NavigationError.routeUnavailable(route: "showProduct", available: ["addToCart", "viewCart"])) {
            try session.send(.trigger(RouteRequest("showProduct", params: ["id": "cups"])))
        }
        try session.back {
            $0.stack = ["products"]
            $0.navigation = "tabs(*shop: [products], cart: [cart], account: [account])"
            $0.transitions = [#"pop product(id: "beans")"#]
        }
        #expect(throws: NavigationError.invalidParam("id", "must be a string, not an integer")) {
            try session.send(.trigger(RouteRequest("showProduct", params: ["id": 7])))
        }
    }

    @Test func signingOutInTheAccountTabMakesTheCustomerAGuest() throws {
        var session = try shopSession(deepLink: "shop://orders/1001", identity: ada)
        try session.back {
            $0.stack = ["account"]
            $0.navigation = "tabs(shop: [products], cart: [cart], *account: [account])"
            $0.transitions = [#"pop order(id: "1001")"#]
        }
        #expect(session.topScreen?.routes == ["showOrder", "editAddress", "addAddress", "signOut"])
        #expect(session.topTexts.prefix(2) == ["ada@example.com", "You are signed in."])
        try session.send(AccountFlow.Route.signOut) {
            $0.context["signedIn"] = false
            $0.context["email"] = .null  // `= nil` would remove the member: the context keeps it as null
            // No transition: the same screen, rendered again from the new context.
        }
        #expect(session.topTexts.prefix(2) == ["Guest", "You are shopping as a guest; you can sign in at checkout."])
    }
}
