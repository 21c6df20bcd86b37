@testable import ShopApp
import Testing
import WayfinderCore
import WayfinderTesting

/// One address flow, started by the checkout (for the delivery) and by the account tab (for
/// the address book): each parent decides what the finished flow's address is for.
@Suite struct AddressFlowTests {
    private let accountTab = "tabs(shop: [products], cart: [cart], *account: [account, address])"

    private func fieldValues(_ session: TestSession) -> [String: String] {
        var values: [String: String] = [:]
        for case .field(let name, _, let value, _) in session.topScreen?.components ?? [] { values[name] = value }
        return values
    }

    /// The account tab with its address form open (a new address).
    private func accountAddressForm() throws -> TestSession {
        var session = try shopSession()
        try session.selectTab("account") {
            $0.stack = ["account"]
            $0.navigation = "tabs(shop: [products], cart: [cart], *account: [account])"
            $0.transitions = ["selectTab account: account"]
        }
        try session.send(AccountFlow.Route.addAddress) {
            $0.stack.append("address")
            $0.navigation = accountTab
            $0.coordinators = "app(catalog, cart, account(address))"
            $0.transitions = ["push address"]
        }
        return session
    }

    @Test func theCheckoutRefusesAnAddressWithAMissingFieldAndKeepsWhatWasTyped() throws {
        var session = try shopSession(["variant": "B"])
        try session.fillCart()
        try session.checkOut(openingOn: "guest")
        try session.send(CheckoutFlow.Route.continueWithEmail(email: "grace@example.com")) {
            $0.stack.append("address")
            $0.navigation = cartTab("guest", "address")
            $0.coordinators = "app(catalog, cart(checkout(address)), account)"
            $0.transitions = ["push address"]
        }
        try session.send(AddressFlow.Route.saveAddress(name: "Grace Hopper", street: " ", city: "", postcode: "22201", country: "USA")) {
            $0.notice = Notice(.error, "Fill in the street and city.")
            $0.form = ["name": "Grace Hopper", "street": " ", "city": "", "postcode": "22201", "country": "USA"]
            $0.transitions = ["update address"]
        }
        #expect(fieldValues(session)["name"] == "Grace Hopper", "what the customer typed is shown again")
        try session.send(AddressFlow.Route.saveAddress(name: "Grace Hopper", street: "1 Navy Way", city: "Arlington", postcode: "2", country: "USA")) {
            $0.notice = Notice(.error, "A postcode has 3 to 10 letters, digits, spaces or dashes.")
            $0.form = ["name": "Grace Hopper", "street": "1 Navy Way", "city": "Arlington", "postcode": "2", "country": "USA"]
            $0.transitions = ["update address"]
        }
        try session.send(graceAddress) {
            $0.stack = ["cart", "guest", "delivery"]
            $0.navigation = cartTab("guest", "delivery")
            $0.coordinators = "app(catalog, cart(checkout), account)"
            $0.notice = nil
            $0.form = [:]
            $0.transitions = ["push delivery", "pop address"]
        }
        #expect(session.snapshot.model["addresses"] == [], "a checkout's address stays out of the address book")
    }

    @Test func changingTheAddressFromDeliveryStartsFromItAndReturnsToDelivery() throws {
        var session = try shopSession()
        try session.guestToPayment()
        try session.back {
            $0.stack.removeLast()
            $0.navigation = cartTab("signIn", "guest", "delivery")
            $0.transitions = ["pop payment"]
        }
        try session.send(CheckoutFlow.Route.changeAddress) {
            $0.stack.append("address")
            $0.navigation = cartTab("signIn", "guest", "delivery", "address")
            $0.coordinators = "app(catalog, cart(checkout(address)), account)"
            $0.transitions = ["push address"]
        }
        #expect(fieldValues(session) == ["name": "Grace Hopper", "street": "1 Navy Way", "postcode": "22201", "city": "Arlington", "country": "USA"])
        try session.send(AddressFlow.Route.saveAddress(name: "Grace Hopper", street: "2 Navy Way", city: "Arlington", postcode: "22201", country: "USA")) {
            $0.stack.removeLast()
            $0.navigation = cartTab("signIn", "guest", "delivery")
            $0.coordinators = "app(catalog, cart(checkout), account)"
            $0.transitions = ["pop address"]
        }
        #expect(session.topTexts.contains("Deliver to Grace Hopper, 2 Navy Way, 22201 Arlington, USA."))
    }

    @Test func theAccountTabAddsAnAddressToTheBookWithTheSameFlow() throws {
        var session = try accountAddressForm()
        #expect(session.topScreen?.title == "New address")
        #expect(fieldValues(session) == ["name": "", "street": "", "postcode": "", "city": "", "country": ""])
        try session.send(AddressFlow.Route.saveAddress(name: "", street: "", city: "", postcode: "", country: "")) {
            $0.notice = Notice(.error, "Fill in the name, street, city, postcode and country.")
            $0.form = ["name": "", "street": "", "city": "", "postcode": "", "country": ""]
            $0.transitions = ["update address"]
        }
        try session.send(graceAddress) {
            $0.stack = ["account"]
            $0.navigation = "tabs(shop: [products], cart: [cart], *account: [account])"
            $0.coordinators = "app(catalog, cart, account)"
            $0.notice = nil
            $0.form = [:]
            $0.transitions = ["pop address"]
            try $0.shop {
                var saved = grace
                saved.id = "a1"
                $0.addresses = [saved]
                $0.nextAddress = 2
            }
        }
    }

    @Test func editingASavedAddressKeepsItsIdAndTheCheckoutStartsFromIt() throws {
        var session = try accountAddressForm()
        try session.send(graceAddress) {
            $0.stack = ["account"]
            $0.navigation = "tabs(shop: [products], cart: [cart], *account: [account])"
            $0.coordinators = "app(catalog, cart, account)"
            $0.transitions = ["pop address"]
            try $0.shop { $0.save(grace) }
        }
        try session.send(AccountFlow.Route.editAddress(id: "a1")) {
            $0.stack.append("address")
            $0.navigation = accountTab
            $0.coordinators = "app(catalog, cart, account(address))"
            $0.transitions = ["push address"]
        }
        #expect(session.topScreen?.title == "Edit address")
        try session.send(AddressFlow.Route.saveAddress(name: "Rear Admiral Grace Hopper", street: "1 Navy Way", city: "Arlington", postcode: "22201", country: "USA")) {
            $0.stack = ["account"]
            $0.navigation = "tabs(shop: [products], cart: [cart], *account: [account])"
            $0.coordinators = "app(catalog, cart, account)"
            $0.transitions = ["pop address"]
            try $0.shop { $0.addresses[0].name = "Rear Admiral Grace Hopper" }
        }
        // The checkout's address form starts from the address book's first address.
        try session.selectTab("shop") {
            $0.stack = ["products"]
            $0.navigation = "tabs(*shop: [products], cart: [cart], account: [account])"
            $0.transitions = ["selectTab shop: products"]
        }
        try session.fillCart()
        try session.checkOut(openingOn: "signIn")
        try session.send(CheckoutFlow.Route.signIn(email: "grace@example.com", password: "cobol1959")) {
            $0.stack.append("address")
            $0.navigation = cartTab("signIn", "address")
            $0.coordinators = "app(catalog, cart(checkout(address)), account)"
            $0.context["signedIn"] = true
            $0.context["email"] = "grace@example.com"
            $0.transitions = ["push address"]
        }
        #expect(fieldValues(session)["name"] == "Rear Admiral Grace Hopper")
        #expect(session.topScreen?.title == "Delivery address")
    }

    @Test func backingOutOfTheFormInTheAccountTabChangesNothing() throws {
        var session = try accountAddressForm()
        try session.back {
            $0.stack = ["account"]
            $0.navigation = "tabs(shop: [products], cart: [cart], *account: [account])"
            $0.coordinators = "app(catalog, cart, account)"
            $0.transitions = ["pop address"]
        }
        #expect(throws: NavigationError.invalidParam("id", "no address has id 'a1'")) {
            try session.send(AccountFlow.Route.editAddress(id: "a1"))
        }
    }
}
