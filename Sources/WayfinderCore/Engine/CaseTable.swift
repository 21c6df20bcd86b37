/// Converts a flow's screens or routes between their typed cases and the engine's names and
/// params, with the cases that carry no values kept decoded.
///
/// Most screens and routes carry none (`login`, `addTodo`, `cancel`), and they are converted on
/// every request: twice for a route, once or twice per screen. `Codable` costs thousands of
/// instructions per conversion; a comparison with a handful of ready values costs tens.
struct CaseTable<T: NamedCases>: Sendable {
    /// The names of the cases that a request with no params decodes to, and those cases, in
    /// two arrays: names are compared without touching the generic values.
    private let names: [String]
    private let values: [T]

    init() {
        var names: [String] = []
        var values: [T] = []
        for name in T.caseNames {
            guard let value = try? T.decode(case: name, params: [:]) else { continue }
            names.append(name)
            values.append(value)
        }
        self.names = names
        self.values = values
    }

    /// The case `name` with `params` (see ``NamedCases``).
    func decode(_ name: String, _ params: JSONObject) throws -> T {
        if params.isEmpty {
            for index in names.indices where names[index] == name { return values[index] }
        }
        return try T.decode(case: name, params: params)
    }

    /// The name and params of `value`.
    func parts(of value: T) throws -> (name: String, params: JSONObject) {
        for index in values.indices where values[index] == value { return (names[index], [:]) }
        return try value.parts()
    }
}
