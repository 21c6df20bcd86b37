/// Encodes `Encodable` values as ``JSONValue``: how a flow's typed routes, screens, data and the
/// app's model and context become the JSON the engine stores and the wire carries.
///
/// Integers become `.int`, floating-point numbers `.double`, and an absent optional an explicit
/// `null` (so a context's `user` is `null`, not missing). An enum with associated values, as Swift
/// synthesises its `Codable` conformance, becomes `{"case": {"label": value, …}}`.
public struct JSONValueEncoder: Sendable {
    /// An encoder; it has no options: the rules above are the only ones.
    public init() {}

    /// The value as JSON.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let root = EncodingNode()
        try value.encode(to: ValueEncoder(node: root, codingPath: []))
        return root.value
    }
}

/// One value under construction; containers fill it in place, so nested containers need no
/// write-back step.
final class EncodingNode {
    enum Content {
        case value(JSONValue)
        case object([(String, EncodingNode)])
        case array([EncodingNode])
    }

    var content: Content = .value(.null)

    var value: JSONValue {
        switch content {
        case .value(let value): value
        case .object(let members): .object(Dictionary(members.map { ($0.0, $0.1.value) }, uniquingKeysWith: { _, last in last }))
        case .array(let elements): .array(elements.map(\.value))
        }
    }

    func member(_ key: String) -> EncodingNode {
        let child = EncodingNode()
        if case .object(var members) = content {
            members.append((key, child))
            content = .object(members)
        } else {
            content = .object([(key, child)])
        }
        return child
    }

    func element() -> EncodingNode {
        let child = EncodingNode()
        if case .array(var elements) = content {
            elements.append(child)
            content = .array(elements)
        } else {
            content = .array([child])
        }
        return child
    }

    func makeObject() { if case .object = content {} else { content = .object([]) } }
    func makeArray() { if case .array = content {} else { content = .array([]) } }
}

struct ValueEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedValueEncoder<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedValueEncoder(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueEncoder(node: node, codingPath: codingPath)
    }
}

/// Scalars as JSON; anything else through its own `encode(to:)`.
private func encodeValue<T: Encodable>(_ value: T, into node: EncodingNode, path: [any CodingKey]) throws {
    switch value {
    case let string as String: node.content = .value(.string(string))
    case let bool as Bool: node.content = .value(.bool(bool))
    case let int as Int: node.content = .value(.int(int))
    case let double as Double: node.content = .value(.double(double))
    case let json as JSONValue: node.content = .value(json)
    // The other integer and floating-point types (`Int64`, `UInt8`, `Float`, …): their own
    // `encode(to:)` asks a single-value container for themselves, which would come back here.
    case let integer as any FixedWidthInteger:
        guard let int = Int(exactly: integer) else {
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "\(integer) does not fit in an Int"))
        }
        node.content = .value(.int(int))
    case let float as Float: node.content = .value(.double(Double(float)))
    default: try value.encode(to: ValueEncoder(node: node, codingPath: path))
    }
}

private struct KeyedValueEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeValue(value, into: node.member(key.stringValue), path: codingPath + [key])
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.member(key.stringValue)
        child.makeObject()
        return KeyedEncodingContainer(KeyedValueEncoder<NestedKey>(node: child, codingPath: codingPath + [key]))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.member(key.stringValue)
        child.makeArray()
        return UnkeyedValueEncoder(node: child, codingPath: codingPath + [key])
    }
    mutating func superEncoder() -> any Encoder {
        ValueEncoder(node: node.member("super"), codingPath: codingPath)
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        ValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedValueEncoder: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int {
        if case .array(let elements) = node.content { return elements.count }
        return 0
    }

    mutating func encodeNil() throws { node.element().content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try encodeValue(value, into: node.element(), path: codingPath)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = node.element()
        child.makeObject()
        return KeyedEncodingContainer(KeyedValueEncoder<NestedKey>(node: child, codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = node.element()
        child.makeArray()
        return UnkeyedValueEncoder(node: child, codingPath: codingPath)
    }
    mutating func superEncoder() -> any Encoder { ValueEncoder(node: node.element(), codingPath: codingPath) }
}

private struct SingleValueEncoder: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value, into: node, path: codingPath) }
}
