/// Decodes `Decodable` values from ``JSONValue``: how the engine turns a request's params into a
/// flow's route case, a stored screen into its screen case, and stored JSON into the app's model.
///
/// `null` counts as absent (the contract's rule), integers are accepted where a `Double` is
/// expected, and failures are ``JSONValueDecodingError``s that name the member and say what was
/// expected, in the words of the contract's `invalid_params` reasons.
public struct JSONValueDecoder: Sendable {
    /// Also read integers, numbers and booleans from strings (deep-link captures are strings).
    public var readsScalarsFromStrings = false

    /// A decoder that reads scalars only from JSON scalars (``readsScalarsFromStrings`` off).
    public init() {}

    /// The value of type `T` in `json`.
    public func decode<T: Decodable>(_ type: T.Type, from json: JSONValue) throws -> T {
        try decodeValue(T.self, json, path: CodingPath(), lenient: readsScalarsFromStrings)
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
    /// What was wrong with the value at `path`.
    public var problem: Problem

    /// A failure at `path` (member names from the root); a type's own `init(from:)` can throw
    /// one to word its refusal as the others are.
    public init(path: [String], problem: Problem) {
        self.path = path
        self.problem = problem
    }

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
func decodeValue<T: Decodable>(_ type: T.Type, _ json: JSONValue, path: CodingPath, lenient: Bool) throws -> T {
    // Scalars reach here only through containers of them (`[String]`); synthesised `Codable`
    // calls the containers' scalar overloads. Identifiers are compared before any cast.
    let type = ObjectIdentifier(T.self)
    if type == ObjectIdentifier(String.self) {
        if let value = Scalars.string(json, lenient) as? T { return value }
        throw mismatch("a string", json, path)
    }
    if type == ObjectIdentifier(Bool.self) {
        if let value = Scalars.bool(json, lenient) as? T { return value }
        throw mismatch("a boolean", json, path)
    }
    if type == ObjectIdentifier(Int.self) {
        if let value = Scalars.int(json, lenient) as? T { return value }
        throw mismatch("an integer", json, path)
    }
    if type == ObjectIdentifier(Double.self) {
        if let value = Scalars.double(json, lenient) as? T { return value }
        throw mismatch("a number", json, path)
    }
    if type == ObjectIdentifier(JSONValue.self), let value = json as? T { return value }
    // The other integer and floating-point types: their own `init(from:)` asks a single-value
    // container for themselves, which would come back here.
    if let integer = T.self as? any FixedWidthInteger.Type {
        if let int = Scalars.int(json, lenient), let value = integer.init(exactly: int) as? T { return value }
        throw mismatch("an integer (\(T.self))", json, path)
    }
    if type == ObjectIdentifier(Float.self) {
        if let double = Scalars.double(json, lenient), let value = Float(double) as? T { return value }
        throw mismatch("a number", json, path)
    }
    do {
        return try T(from: ValueDecoder(json: json, path: path, lenient: lenient))
    } catch let error as DecodingError {
        // A `RawRepresentable` enum refuses a value it has no case for with `dataCorrupted`.
        if case .dataCorrupted = error, let values = rawValues(of: T.self) {
            throw JSONValueDecodingError(path: path.names, problem: .notOneOf(values))
        }
        throw JSONValueDecodingError(path: path.names, problem: .invalid("is not valid"))
    }
}

private func mismatch(_ expected: String, _ found: JSONValue, _ path: CodingPath) -> JSONValueDecodingError {
    JSONValueDecodingError(path: path.names, problem: found.isNull ? .missing : .mismatch(expected: expected, found: found))
}

/// Where a value being decoded sits: its container's path and its own name, joined only when
/// an error names it or a nested container needs it (no array is built per member read).
struct CodingPath {
    var base: [String] = []
    var last: String?
    var names: [String] { last.map { base + [$0] } ?? base }
}

/// The raw values of a `CaseIterable` enum with raw values, as strings; nil for other types.
func rawValues<T>(of type: T.Type) -> [String]? {
    guard let enumeration = type as? any (CaseIterable & RawRepresentable).Type else { return nil }
    func values<E: CaseIterable & RawRepresentable>(_: E.Type) -> [String] { E.allCases.map { "\($0.rawValue)" } }
    return values(enumeration)
}

struct ValueDecoder: Decoder {
    let json: JSONValue
    let path: CodingPath
    let lenient: Bool
    var codingPath: [any CodingKey] { path.names.map(PathKey.init) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = json else { throw mismatch("an object", json, path) }
        return KeyedDecodingContainer(KeyedValueDecoder<Key>(object: object, path: path.names, lenient: lenient))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = json else { throw mismatch("an array", json, path) }
        return UnkeyedValueDecoder(array: array, path: path.names, lenient: lenient)
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

    /// The member's value, or `missing` when it is absent or `null`.
    private func value(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue], !value.isNull else {
            throw JSONValueDecodingError(path: path + [key.stringValue], problem: .missing)
        }
        return value
    }

    private func present(_ key: Key) -> JSONValue? {
        guard let json = object[key.stringValue], !json.isNull else { return nil }
        return json
    }

    private func failure(_ expected: String, _ json: JSONValue, _ key: Key) -> JSONValueDecodingError {
        mismatch(expected, json, CodingPath(base: path, last: key.stringValue))
    }

    // The scalar overloads are what synthesised `Codable` calls. They are written out, not
    // generic: an unspecialised generic helper looks up `Optional<T>`'s metadata on every call.
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let json = try value(key)
        if let value = Scalars.string(json, lenient) { return value }
        throw failure("a string", json, key)
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let json = try value(key)
        if let value = Scalars.bool(json, lenient) { return value }
        throw failure("a boolean", json, key)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let json = try value(key)
        if let value = Scalars.int(json, lenient) { return value }
        throw failure("an integer", json, key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let json = try value(key)
        if let value = Scalars.double(json, lenient) { return value }
        throw failure("a number", json, key)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let json = present(key) else { return nil }
        if let value = Scalars.string(json, lenient) { return value }
        throw failure("a string", json, key)
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let json = present(key) else { return nil }
        if let value = Scalars.bool(json, lenient) { return value }
        throw failure("a boolean", json, key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let json = present(key) else { return nil }
        if let value = Scalars.int(json, lenient) { return value }
        throw failure("an integer", json, key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let json = present(key) else { return nil }
        if let value = Scalars.double(json, lenient) { return value }
        throw failure("a number", json, key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = object[key.stringValue] else {
            throw JSONValueDecodingError(path: path + [key.stringValue], problem: .missing)
        }
        return try decodeValue(T.self, value, path: CodingPath(base: path, last: key.stringValue), lenient: lenient)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = object[key.stringValue], !value.isNull else { return nil }
        return try decodeValue(T.self, value, path: CodingPath(base: path, last: key.stringValue), lenient: lenient)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(json: object[key.stringValue] ?? .null, path: CodingPath(base: path, last: key.stringValue), lenient: lenient)
            .container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(json: object[key.stringValue] ?? .null, path: CodingPath(base: path, last: key.stringValue), lenient: lenient)
            .unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(json: object["super"] ?? .null, path: CodingPath(base: path, last: "super"), lenient: lenient)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(json: object[key.stringValue] ?? .null, path: CodingPath(base: path, last: key.stringValue), lenient: lenient)
    }
}

/// Reading JSON scalars, strictly or (`lenient`) also from strings.
enum Scalars {
    static func string(_ json: JSONValue, _ lenient: Bool) -> String? { json.stringValue }
    static func bool(_ json: JSONValue, _ lenient: Bool) -> Bool? {
        json.boolValue ?? (lenient ? json.stringValue.flatMap { Bool($0) } : nil)
    }
    static func int(_ json: JSONValue, _ lenient: Bool) -> Int? {
        json.intValue ?? (lenient ? json.stringValue.flatMap { Int($0) } : nil)
    }
    static func double(_ json: JSONValue, _ lenient: Bool) -> Double? {
        switch json {
        case .int(let int): Double(int)
        case .double(let double): double
        case .string(let string) where lenient: Double(string)
        default: nil
        }
    }
}

/// The decoder of one enum case: its keyed container offers exactly `name`, whose nested
/// container reads `params` (no object is built around them).
struct CaseDecoder: Decoder {
    let name: String
    let params: JSONObject
    let lenient: Bool
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(CaseContainer<Key>(name: name, params: params, lenient: lenient))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw JSONValueDecodingError(path: [], problem: .mismatch(expected: "an array", found: .object([name: .object(params)])))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueDecoder(json: .object([name: .object(params)]), path: CodingPath(), lenient: lenient)
    }
}

private struct CaseContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let name: String
    let params: JSONObject
    let lenient: Bool
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { Key(stringValue: name).map { [$0] } ?? [] }
    func contains(_ key: Key) -> Bool { key.stringValue == name }
    func decodeNil(forKey key: Key) throws -> Bool { key.stringValue != name }
    private var whole: ValueDecoder { ValueDecoder(json: .object([name: .object(params)]), path: CodingPath(), lenient: lenient) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try whole.container(keyedBy: Key.self).decode(T.self, forKey: key)
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        guard key.stringValue == name else { return try whole.container(keyedBy: Key.self).nestedContainer(keyedBy: NestedKey.self, forKey: key) }
        return KeyedDecodingContainer(KeyedValueDecoder<NestedKey>(object: params, path: [name], lenient: lenient))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try whole.container(keyedBy: Key.self).nestedUnkeyedContainer(forKey: key)
    }
    func superDecoder() throws -> any Decoder { whole }
    func superDecoder(forKey key: Key) throws -> any Decoder { try whole.container(keyedBy: Key.self).superDecoder(forKey: key) }
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

    private mutating func next() throws -> (JSONValue, CodingPath) {
        guard !isAtEnd else {
            throw JSONValueDecodingError(path: path + [String(currentIndex)], problem: .missing)
        }
        defer { currentIndex += 1 }
        return (array[currentIndex], CodingPath(base: path, last: String(currentIndex)))
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
    let path: CodingPath
    let lenient: Bool
    var codingPath: [any CodingKey] { path.names.map(PathKey.init) }

    func decodeNil() -> Bool { json.isNull }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self, json, path: path, lenient: lenient) }

    func decode(_ type: String.Type) throws -> String {
        if let value = Scalars.string(json, lenient) { return value }
        throw mismatch("a string", json, path)
    }
    func decode(_ type: Bool.Type) throws -> Bool {
        if let value = Scalars.bool(json, lenient) { return value }
        throw mismatch("a boolean", json, path)
    }
    func decode(_ type: Int.Type) throws -> Int {
        if let value = Scalars.int(json, lenient) { return value }
        throw mismatch("an integer", json, path)
    }
    func decode(_ type: Double.Type) throws -> Double {
        if let value = Scalars.double(json, lenient) { return value }
        throw mismatch("a number", json, path)
    }
}
