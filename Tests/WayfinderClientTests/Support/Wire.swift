import Foundation
import Testing

@testable import WayfinderClient

/// Checks that the client's models are exact: what the server sent, decoded and encoded again,
/// is the same JSON (nulls and absent members count as equal, as the contract allows).
enum Wire {
    /// The raw body of a GET on `path`, through the client's own transport, in `shape` (the
    /// client's own, 2, unless told).
    static func raw(_ session: WayfinderSession, _ suffix: String = "", shape: Int = 2) async throws -> Data {
        let transport = Transport(server: session.server, configuration: ClientConfiguration())
        let headers = ["Authorization": "Bearer \(session.credentials.token)", "Wayfinder-Shape": String(shape)]
        let call = HTTPCall(method: "GET", path: "/v1/sessions/\(session.credentials.id)\(suffix)", headers: headers, repeats: .never)
        return try await transport.send(call).body
    }

    /// `value` re-encoded by the client equals the server's `json`.
    static func roundTrips<T: Codable>(_ type: T.Type, _ json: Data, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let decoded = try JSONDecoder().decode(T.self, from: json)
        let original = try JSONDecoder().decode(WireValue.self, from: json).removingNulls
        let again = try JSONDecoder().decode(WireValue.self, from: JSONEncoder().encode(decoded)).removingNulls
        #expect(original == again, "\(T.self) does not round-trip", sourceLocation: sourceLocation)
    }
}

extension WireValue {
    /// The value with every `null` member of every object removed.
    var removingNulls: WireValue {
        switch self {
        case .object(let members): .object(members.filter { $0.value != .null }.mapValues(\.removingNulls))
        case .array(let elements): .array(elements.map(\.removingNulls))
        default: self
        }
    }
}

extension WireState {
    /// The names of the visible screens, bottom to top.
    var names: [String] { stack.map(\.name) }
}

extension Screen {
    /// The first button that triggers `route`.
    func button(_ route: String) -> WireComponent.Button? {
        for case .button(let button) in components where button.action.route == route { return button }
        return nil
    }

    /// The rows of the screen's lists.
    var rows: [WireComponent.ListItem] {
        components.flatMap { component -> [WireComponent.ListItem] in
            if case .list(let items) = component { items } else { [] }
        }
    }
}
