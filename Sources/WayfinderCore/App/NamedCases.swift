/// An enum whose cases Wayfinder can list: a flow's routes or screens, an app's deep links.
///
/// Write the enum as usual, with labelled associated values of `Codable` types, and list its case
/// names once more in a nested `enum CodingKeys: CodingKey, CaseIterable`. Swift's synthesised
/// `Codable` uses those keys (the compiler rejects a key that names no case), and Wayfinder reads
/// them to list the cases without reflection: the case names are the names on the wire and in the
/// catalog, the labels are the parameters' names.
///
/// ```swift
/// enum Route: FlowRoute {
///     case login(email: String, password: String)
///     case register
///     enum CodingKeys: CodingKey, CaseIterable { case login, register }
/// }
/// ```
public protocol NamedCases: Codable, Sendable, Hashable {
    /// The case names (synthesised `Codable` uses them as the enum's keys).
    associatedtype CodingKeys: CodingKey & CaseIterable & Hashable & Sendable
}

extension NamedCases {
    /// A case's name without its associated values: what a screen offers, what a button submits.
    public typealias Name = CodingKeys

    /// The name of `value`'s case.
    public static func name(of value: Self) -> String {
        (try? value.parts().name) ?? String(describing: value)
    }

    /// Every case name, in declaration order.
    static var caseNames: [String] { CodingKeys.allCases.map(\.stringValue) }

    /// The case's name and its associated values by label.
    func parts() throws -> (name: String, params: JSONObject) {
        let encoder = CaseEncoder()
        try encode(to: encoder)
        if let name = encoder.name, !encoder.unexpected { return (name, encoder.params) }
        let json = try JSONValueEncoder().encode(self)
        guard case .object(let object) = json, object.count == 1, let (name, values) = object.first,
            case .object(let params) = values
        else { throw FlowDeclarationError("\(Self.self) does not encode as one case with labelled values: \(self)") }
        return (name, params)
    }

    /// The case `name` with the associated values in `params` (labels to JSON values), as the
    /// engine reads a request's route or a pending effect.
    public static func decode(case name: String, params: JSONObject, readsScalarsFromStrings: Bool = false) throws -> Self {
        do {
            return try Self(from: CaseDecoder(name: name, params: params, lenient: readsScalarsFromStrings))
        } catch let error as JSONValueDecodingError {
            throw error
        } catch {
            throw JSONValueDecodingError(path: [name], problem: .invalid("is not a case of \(Self.self)"))
        }
    }
}

/// A flow's routes: what its screens offer and its `handle` switches over.
public protocol FlowRoute: NamedCases {}

/// A flow's screens, with the values each one shows (`case detail(id: String)`).
public protocol FlowScreen: NamedCases {}

/// The routes of a flow that has none (a container); there is no value of it.
public struct NoRoutes: FlowRoute {
    private init() {}
    public enum CodingKeys: CodingKey, CaseIterable, Hashable, Sendable {}
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "this flow has no routes"))
    }
    public func encode(to encoder: any Encoder) throws {}
}

/// The screens of a flow that has none (a container); there is no value of it.
public struct NoScreens: FlowScreen {
    private init() {}
    public enum CodingKeys: CodingKey, CaseIterable, Hashable, Sendable {}
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "this flow has no screens"))
    }
    public func encode(to encoder: any Encoder) throws {}
}
