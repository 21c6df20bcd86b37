/// Encodes one enum case straight into its name and its labelled values, as synthesised
/// `Codable` writes it (`{"case": {"label": value}}`), without building the tree first: what
/// ``NamedCases/parts()`` does for every screen a flow shows and every route a button triggers.
/// Anything else (a custom `encode(to:)`) leaves `name` nil, and the caller encodes it in full.
final class CaseEncoder: Encoder {
    private(set) var name: String?
    var params: JSONObject = [:]
    /// The labels whose values are ``Secret``s.
    var secrets: [String] = []
    /// Set when the value is not written as one case with labelled values.
    var unexpected = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(CaseKeys<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        unexpected = true
        return ValueEncoder(node: EncodingNode(), codingPath: []).unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        unexpected = true
        return ValueEncoder(node: EncodingNode(), codingPath: []).singleValueContainer()
    }

    fileprivate func open(_ key: String) {
        if name != nil { unexpected = true }
        name = key
    }

    /// The enum's own container: one key, opened as a nested container of values.
    private struct CaseKeys<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: CaseEncoder
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws { encoder.unexpected = true }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { encoder.unexpected = true }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            encoder.open(key.stringValue)
            return KeyedEncodingContainer(Values<NestedKey>(encoder: encoder))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder.unexpected = true; return encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.unexpected = true; return encoder }
    }

    /// The case's values by label.
    private struct Values<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: CaseEncoder
        var codingPath: [any CodingKey] { [] }

        private func set(_ value: JSONValue, _ key: Key) { encoder.params[key.stringValue] = value }
        mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(.double(value), key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            if let secret = value as? Secret {
                encoder.secrets.append(key.stringValue)
                return set(.string(secret.value), key)
            }
            set(try JSONValueEncoder().encode(value), key)
        }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { set(.null, key) }
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { set(value.map(JSONValue.string) ?? .null, key) }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { set(value.map(JSONValue.bool) ?? .null, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { set(value.map(JSONValue.int) ?? .null, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { set(value.map(JSONValue.double) ?? .null, key) }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            encoder.unexpected = true
            return ValueEncoder(node: EncodingNode(), codingPath: []).container(keyedBy: NestedKey.self)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
        mutating func superEncoder() -> any Encoder { encoder.unexpected = true; return encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.unexpected = true; return encoder }
    }
}
