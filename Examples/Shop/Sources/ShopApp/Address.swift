/// A delivery address: one of the address book's (with an id) or one typed for an order.
struct Address: Codable, Sendable, Hashable {
    /// Empty until the address book keeps it.
    var id = ""
    var name: String
    var street: String
    var city: String
    var postcode: String
    var country: String

    /// The address on one line, for summaries.
    var oneLine: String { name + ", " + place }

    /// Where, without whom: for lists that show the name beside it.
    var place: String { [street, "\(postcode) \(city)", country].joined(separator: ", ") }

    /// What the address form submits, checked: every field filled in, a postcode of 3 to 10
    /// letters, digits, spaces or dashes. Returns the problem to show when something is wrong.
    static func read(id: String, name: String, street: String, city: String, postcode: String, country: String) -> Result<Address, Problem> {
        let address = Address(
            id: id, name: name.trimmed, street: street.trimmed, city: city.trimmed, postcode: postcode.trimmed, country: country.trimmed)
        let missing = [
            ("name", address.name), ("street", address.street), ("city", address.city),
            ("postcode", address.postcode), ("country", address.country),
        ].filter { $0.1.isEmpty }.map(\.0)
        if !missing.isEmpty { return .failure(Problem(message: "Fill in the " + Self.list(missing) + ".")) }
        let postcodeCharacters = address.postcode.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == " " || $0 == "-") }
        guard (3...10).contains(address.postcode.count), postcodeCharacters else {
            return .failure(Problem(message: "A postcode has 3 to 10 letters, digits, spaces or dashes."))
        }
        return .success(address)
    }

    /// Why a submitted address was refused, as the notice says it.
    struct Problem: Error, Hashable {
        var message: String
    }

    /// `name`, `name and city`, `name, city and country`.
    private static func list(_ words: [String]) -> String {
        guard words.count > 1, let last = words.last else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " and " + last
    }
}
