/// A payment card as the payment screen submits it, checked for form: a number that passes
/// the Luhn check, an `MM/YY` expiry and a 3- or 4-digit security code. Whether the card pays
/// is the payment service's decision (``PaymentService``), not this type's.
///
/// - Important: a card is never kept in the session: its number and security code go to the
///   payment service as ``Secret``s, and orders keep only ``label``.
struct Card: Codable, Sendable, Hashable {
    /// Digits only.
    var number: String
    var expiryMonth: Int
    var expiryYear: Int
    var securityCode: String

    /// `Visa •••• 4242`: what receipts and screens show.
    var label: String { Self.label(number) }

    /// The label of the card with the digits `number`.
    static func label(_ number: String) -> String { "\(brand(number)) •••• \(number.suffix(4))" }

    static func brand(_ number: String) -> String {
        if number.hasPrefix("4") { return "Visa" }
        if number.hasPrefix("34") || number.hasPrefix("37") { return "American Express" }
        if number.hasPrefix("5") || number.hasPrefix("2") { return "Mastercard" }
        return "Card"
    }

    /// The expiry as the payment service takes it: `MM/YYYY`.
    var expiry: String { (expiryMonth < 10 ? "0" : "") + "\(expiryMonth)/\(expiryYear)" }

    /// The card in what the customer typed (spaces and dashes in the number are fine), or the
    /// problem to show.
    static func read(number: String, expiry: String, securityCode: String) -> Result<Card, Problem> {
        let digits = number.filter { $0 != " " && $0 != "-" }
        guard (12...19).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), passesLuhn(digits) else {
            return .failure(.number)
        }
        let parts = expiry.trimmed.split(separator: "/")
        guard parts.count == 2, parts[0].count == 2, [2, 4].contains(parts[1].count),
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let month = Int(parts[0]), let year = Int(parts[1]), (1...12).contains(month)
        else { return .failure(.expiry) }
        let code = securityCode.trimmed
        guard (3...4).contains(code.count), code.allSatisfy(\.isASCIIDigit) else { return .failure(.securityCode) }
        return .success(Card(number: digits, expiryMonth: month, expiryYear: year < 100 ? 2000 + year : year, securityCode: code))
    }

    /// What is wrong with a submitted card, as the notice says it.
    enum Problem: String, Error, Hashable {
        case number = "Check the card number."
        case expiry = "Enter the expiry date as MM/YY."
        case securityCode = "The security code is the 3 or 4 digits on the back of the card."
    }

    /// The Luhn checksum every card number carries (ISO/IEC 7812-1).
    static func passesLuhn(_ digits: String) -> Bool {
        var sum = 0
        for (position, character) in digits.reversed().enumerated() {
            guard let digit = character.wholeNumberValue else { return false }
            if position % 2 == 1 {
                sum += digit * 2 > 9 ? digit * 2 - 9 : digit * 2
            } else {
                sum += digit
            }
        }
        return sum % 10 == 0
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
