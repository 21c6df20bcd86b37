@testable import ShopApp
import Testing
import WayfinderCore
import WayfinderTesting

/// The cart tab and the shop tab's "add to cart".
@Suite struct CartTests {
    private let lineStack = cartTab(#"line(product: "beans")"#)

    private func onTheLine() throws -> TestSession {
        var session = try shopSession()
        try session.fillCart()
        try session.send(CartFlow.Route.showLine(product: "beans")) {
            $0.stack.append(#"line(product: "beans")"#)
            $0.navigation = lineStack
            $0.transitions = [#"push line(product: "beans")"#]
        }
        return session
    }

    @Test func aQuantityOutsideOneToTenIsANoticeAndAGoodOneUpdatesTheLine() throws {
        var session = try onTheLine()
        for typed in ["0", "11", "two", ""] {
            try session.send(CartFlow.Route.updateQuantity(quantity: typed)) {
                $0.notice = Notice(.error, "Enter a quantity from 1 to 10.")
                $0.form = ["quantity": .string(typed)]
                $0.transitions = [#"update line(product: "beans")"#]
            }
        }
        try session.send(CartFlow.Route.updateQuantity(quantity: " 3 ")) {
            $0.stack.removeLast()
            $0.navigation = cartTab()
            $0.notice = nil
            $0.form = [:]
            $0.transitions = [#"pop line(product: "beans")"#]
            try $0.shop { $0.cart.set("beans", quantity: 3) }
        }
        #expect(session.topScreen?.components.contains(.text("Subtotal €73.50")) == true)
    }

    @Test func removingTheLastLineEmptiesTheCartAndBrowseLeadsToTheShop() throws {
        var session = try onTheLine()
        try session.send(CartFlow.Route.removeLine) {
            $0.stack.removeLast()
            $0.navigation = cartTab()
            $0.transitions = [#"pop line(product: "beans")"#]
            try $0.shop { $0.cart = Cart() }
        }
        #expect(session.topTexts == ["Your cart is empty."])
        try session.send(CartFlow.Route.browse) {
            $0.stack = ["products", #"product(id: "beans")"#]
            $0.navigation = #"tabs(*shop: [products, product(id: "beans")], cart: [cart], account: [account])"#
            $0.notice = Notice(.success, "Added to your cart.")
            $0.transitions = [#"selectTab shop: product(id: "beans")"#]
        }
    }

    @Test func theCartHoldsAtMostTenOfOneProduct() throws {
        var session = try shopSession(deepLink: "shop://products/filters")
        for count in 1...Cart.maxQuantity {
            try session.send(CatalogFlow.Route.addToCart) {
                try $0.shop { $0.cart.lines = [CartLine(product: "filters", quantity: count)] }
                $0.notice = Notice(.success, count == 1 ? "Added to your cart." : "Added to your cart (\(count) in it now).")
                $0.transitions = [#"update product(id: "filters")"#]
            }
        }
        try session.send(CatalogFlow.Route.addToCart) {
            $0.notice = Notice(.error, "Your cart already holds 10 of these, the most one order takes.")
            $0.transitions = [#"update product(id: "filters")"#]
        }
    }

    @Test func aLineOrProductThatIsNotThereIsATypedError() throws {
        var session = try shopSession()
        #expect(throws: NavigationError.invalidParam("id", "the shop sells no product 'teapot'")) {
            try session.send(CatalogFlow.Route.showProduct(id: "teapot"))
        }
        try session.selectTab("cart") {
            $0.stack = ["cart"]
            $0.navigation = "tabs(shop: [products], *cart: [cart], account: [account])"
            $0.transitions = ["selectTab cart: cart"]
        }
        #expect(throws: NavigationError.invalidParam("product", "the cart holds no 'beans'")) {
            try session.send(CartFlow.Route.showLine(product: "beans"))
        }
    }
}
