/// Decodes `Decodable` values from ``JSONValue``: how the engine turns a request's params into a
/// flow's route case, a stored screen into its screen case, and stored JSON into the app's model.
///
/// `null` counts as absent (the contract's rule), integers are accepted where a `Double` is
/// expected, and failures are ``JSONValueDecodingError``s that name the member and say what was
/// expected, in the words of the contract's `invalid_params` reasons.
public struct JSONValueDecoder: Sendable {
    /// Also read integers, numbers and booleans from strings (deep-link captures are strings).
    public var readsScalarsFromStrings = false

    public init() {}

    /// The value of type `T` in `json`.
    public func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        try decodeValue(T.self, json, path: [], lenient: readsScalarsFromStrings)
    }
}

/// Why a value could not be decoded, and where.
public struct JSONValueDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Problem: Sendable, Hashable {
        /// A required member is absent or `null`.
        case missing
        /// The JSON type is not the expected one (`expected` is "a string", "an integer", …).
        case mismatch(expected: String, found: JSONValue)
        /// The value is not one of an enumeration's raw values.
        case notOneOf([String])
        /// Anything else a type's own `init(from:)` refused.
        case invalid(String)
    }

    /// Member names from the root, e.g. `["todos", "2", "title"]`.
    public var path: [String]
    public var problem: Problem

    /// The reason, as `invalid_params` words it: "is required", "must be a string, not an integer".
    public var reason: String {
        switch problem {
        case .missing: "is required"
        case .mismatch(let expected, let found): "must be \(expected), not \(found.typeNameWithArticle)"
        case .notOneOf(let values): "must be one of \(values.joined(separator: ", "))"
        case .invalid(let message): message
        }
    }

    public var description: String { (path.isEmpty ? "value" : path.joined(separator: ".")) + " " + reason }
}

/// `T` from `json`: scalars directly, anything else through its `init(from:)`.
func decodeValue<T: Decodable>(_ type: T.Type, _ json: JSONValue, path: [String], lenient: Bool) throws -> T {
    switch T.self {
    case is String.Type:
        if case .string(let string) = json, let value = string as? T { return value }
        throw mismatch("a string", json, path)
    case is Bool.Type:
        if let bool = json.boolValue ?? (lenient ? json.stringValue.flatMap { Bool($0) } : nil), let value = bool as? T { return value }
        throw mismatch("a boolean", json, path)
    case is Int.Type:
        if let int = json.intValue ?? (lenient ? json.stringValue.flatMap { Int($0) } : nil), let value = int as? T { return value }
        throw mismatch("an integer", json, path)
    case is Double.Type:
        let double: Double? = switch json {
        case .int(let int): Double(int)
        case .double(let double): double
        case .string(let string) where lenient: Double(string)
        default: nil
        }
        if let double, let value = double as? T { return value }
        throw mismatch("a number", json, path)
    case is JSONValue.Type:
        if let value = json as? T { return value }
    default:
        break
    }
    do {
        return try T(from: ValueDecoder(json: json, path: path, lenient: lenient))
    } catch let error as DecodingError {
        // A `RawRepresentable` enum refuses a value it has no case for with `dataCorrupted`.
        if case .dataCorrupted = error, let values = rawValues(of: T.self) {
            throw JSONValueDecodingError(path: path, problem: .notOneOf(values))
        }
        throw JSONValueDecodingError(path: path, problem: .invalid("is not valid"))
    }
}

private func mismatch(_ expected: String, _ found: JSONValue, _ path: [String]) -> JSONValueDecodingError {
    JSONValueDecodingError(path: path, problem: found.isNull ? .missing : .mismatch(expected: expected, found: found))
}

/// The raw values of a `CaseIterable` enum with raw values, as strings; nil for other types.
func rawValues<T>(of type: T.Type) -> [String]? {
    guard let enumeration = type as? any (CaseIterable & RawRepresentable).Type else { return nil }
    func values<E: CaseIterable & RawRepresentable>(_: E.Type) -> [String] { E.allCases.map { "\($0.rawValue)" } }
    return values(enumeration)
}

struct ValueDecoder: Decoder {
    let json: JSONValue
    let path: [String]
    let lenient: Bool
    var codingPath: [any CodingKey] { path.map(PathKey.init) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = json else { throw mismatch("an object", json, path) }
        return KeyedDecodingContainer(KeyedValueDecoder<Key>(object: object, path: path, lenient: lenient))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = json else { throw mismatch("an array", json, path) }
        return UnkeyedValueDecoder(array: array, path: path, lenient: lenient)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueDecoder(json: json, path: path, lenient: lenient)
    }
}

/// A coding path element made from a member name.
struct PathKey: CodingKey {
    var stringValue: String
    var intValue: Int? { Int(stringValue) }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
}

private struct KeyedValueDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let path: [String]
    let lenient: Bool
    var codingPath: [any CodingKey] { path.map(PathKey.init) }
    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool { object[key.stringValue]?.isNull ?? true }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let name = key.stringValue
        guard let value = object[name] else { throw JSONValueDecodingError(path: path + [name], problem: .missing) }
        return try decodeValue(T.self, value, path: path + [name], lenient: lenient)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(json: object[key.stringValue] ?? .null, path: path + [key.stringValue], lenient: lenient)
            .container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(json: object[key.stringValue] ?? .null, path: path + [key.stringValue], lenient: lenient)
            .unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(json: object["super"] ?? .null, path: path + ["super"], lenient: lenient)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(json: object[key.stringValue] ?? .null, path: path + [key.stringValue], lenient: lenient)
    }
}

private struct UnkeyedValueDecoder: UnkeyedDecodingContainer {
    let array: [JSONValue]
    let path: [String]
    let lenient: Bool
    var currentIndex = 0
    var codingPath: [any CodingKey] { path.map(PathKey.init) }
    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    init(array: [JSONValue], path: [String], lenient: Bool) {
        self.array = array
        self.path = path
        self.lenient = lenient
    }

    private mutating func next() throws -> (JSONValue, [String]) {
        guard !isAtEnd else {
            throw JSONValueDecodingError(path: path + [String(currentIndex)], problem: .missing)
        }
        defer { currentIndex += 1 }
        return (array[currentIndex], path + [String(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, array[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try decodeValue(T.self, value, path: path, lenient: lenient)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next()
        return try ValueDecoder(json: value, path: path, lenient: lenient).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try ValueDecoder(json: value, path: path, lenient: lenient).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return ValueDecoder(json: value, path: path, lenient: lenient)
    }
}

private struct SingleValueDecoder: SingleValueDecodingContainer {
    let json: JSONValue
    let path: [String]
    let lenient: Bool
    var codingPath: [any CodingKey] { path.map(PathKey.init) }

    func decodeNil() -> Bool { json.isNull }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self, json, path: path, lenient: lenient) }
}
