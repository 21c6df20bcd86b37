import WayfinderCore

/// Edits one address: the same flow for the checkout's delivery address and the account tab's
/// address book. Its parent hands it the address to start from and what it is for, and gets
/// the checked address back as the flow's result; what happens to it is the parent's business.
struct AddressFlow: ShopFlow {
    enum Screen: FlowScreen {
        case address
        enum CodingKeys: CodingKey, CaseIterable { case address }
    }

    enum Route: FlowRoute {
        case saveAddress(name: String, street: String, city: String, postcode: String, country: String)
        enum CodingKeys: CodingKey, CaseIterable { case saveAddress }
    }

    /// What the parent starts the flow with.
    struct Data: FlowData {
        /// Why the address is asked for: the screen's words differ.
        enum Purpose: String, Codable, Sendable { case delivery, addressBook }
        /// The address the form starts with (its id is kept), or none for a blank form.
        var address: Address?
        var purpose = Purpose.addressBook
    }

    typealias Result = Address

    func routes(on screen: Screen.Name) -> [Route.Name] { [.saveAddress] }

    func start(_ flow: inout FlowContext<Self>) throws {
        flow.show(.address)
    }

    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        switch route {
        case .saveAddress(let name, let street, let city, let postcode, let country):
            let typed: JSONObject = [
                "name": .string(name), "street": .string(street), "city": .string(city),
                "postcode": .string(postcode), "country": .string(country),
            ]
            switch Address.read(id: flow.data.address?.id ?? "", name: name, street: street, city: city, postcode: postcode, country: country) {
            case .failure(let problem): flow.reject(problem.message, keeping: typed)
            case .success(let address): try flow.finish(address)
            }
        }
    }

    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        let data = flow.data
        let start = data.address
        func field(_ name: String, _ label: String, _ value: String?) -> Component {
            .field(name: name, label: label, value: flow.formString(name, default: value ?? ""), kind: .text)
        }
        let title = data.purpose == .delivery ? "Delivery address" : start == nil ? "New address" : "Edit address"
        return ScreenContent(
            title: title,
            components: [.heading(title)] + flow.noticeComponents + [
                field("name", "Full name", start?.name),
                field("street", "Street and number", start?.street),
                field("postcode", "Postcode", start?.postcode),
                field("city", "City", start?.city),
                field("country", "Country", start?.country),
                flow.button(data.purpose == .delivery ? "Deliver here" : "Save address", submitting: .saveAddress),
            ])
    }
}
