/// Reads what a `Decodable` enum case is made of by decoding it once from a decoder that records
/// the members asked for: the names, JSON types and optionality of a route's parameters, without
/// reflection. This is how the catalog and the engine's parameter checks are derived from a flow's
/// `enum Route` rather than declared a second time.
enum ShapeProbe {
    /// The members of case `name` of `T`, in the order its `init(from:)` reads them.
    ///
    /// Swift's synthesised `Decodable` for an enum reads `{"case": {"label": value, …}}`; this
    /// decoder offers exactly one case key and records every `decode`/`decodeIfPresent` under it.
    static func members<T: Decodable>(of type: T.Type, case name: String) throws -> [ParamSpec] {
        let recorder = Recorder()
        _ = try T(from: ProbeDecoder(recorder: recorder, caseName: name))
        return recorder.members
    }

    /// The members of struct `T` that its `init(from:)` reads, in order.
    static func members<T: Decodable>(of type: T.Type) throws -> [ParamSpec] {
        let recorder = Recorder()
        _ = try T(from: ProbeDecoder(recorder: recorder, caseName: nil, recordsMembers: true))
        return recorder.members
    }

    /// The JSON type of `T` (and its allowed values, for an enum with raw values).
    static func type<T: Decodable>(of type: T.Type) -> (ParamType, [String]?) {
        let recorder = Recorder()
        _ = try? placeholder(T.self, recorder)
        return (recorder.shape ?? .object, rawValues(of: T.self))
    }

    /// A value of `T` to hand to the decoding init being probed, noting `T`'s JSON type.
    fileprivate static func placeholder<T: Decodable>(_ type: T.Type, _ recorder: Recorder) throws -> T {
        func give(_ value: Any, _ shape: ParamType) throws -> T {
            recorder.shape = recorder.shape ?? shape
            guard let typed = value as? T else { throw ProbeError() }
            return typed
        }
        switch T.self {
        case is String.Type: return try give("", .string)
        case is Bool.Type: return try give(false, .boolean)
        case is Int.Type: return try give(0, .integer)
        case is Double.Type: return try give(0.0, .number)
        default: break
        }
        if let first = firstCase(of: T.self) {
            return try give(first, hasIntegerRawValue(first) ? .integer : .string)
        }
        return try T(from: ProbeDecoder(recorder: recorder, caseName: nil))
    }

    private static func firstCase<T>(of type: T.Type) -> T? {
        guard let enumeration = type as? any (CaseIterable & RawRepresentable).Type else { return nil }
        func first<E: CaseIterable & RawRepresentable>(_: E.Type) -> Any? { E.allCases.first }
        return first(enumeration) as? T
    }

    private static func hasIntegerRawValue(_ value: Any) -> Bool {
        guard let raw = value as? any RawRepresentable else { return false }
        func isInteger<E: RawRepresentable>(_ value: E) -> Bool { value.rawValue is Int }
        return isInteger(raw)
    }

    struct ProbeError: Error {}

    /// What one probe saw: the members read under the case key, and the first container's kind.
    fileprivate final class Recorder {
        var members: [ParamSpec] = []
        var shape: ParamType?

        func member<T: Decodable>(_ name: String, _ type: T.Type, required: Bool) {
            guard !members.contains(where: { $0.name == name }) else { return }
            let (shape, values) = ShapeProbe.type(of: T.self)
            members.append(ParamSpec(name, shape, required: required, values: values, secret: T.self == Secret.self))
        }
    }

    private struct ProbeDecoder: Decoder {
        let recorder: Recorder
        /// Set for the probed enum itself: its keyed container offers only this case.
        let caseName: String?
        /// Set for the probed struct itself: its keyed container records the members.
        var recordsMembers = false
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            recorder.shape = recorder.shape ?? .object
            if let caseName {
                guard let key = Key(stringValue: caseName) else { throw ProbeError() }
                return KeyedDecodingContainer(CaseContainer<Key>(recorder: recorder, key: key))
            }
            return KeyedDecodingContainer(MemberContainer<Key>(recorder: recordsMembers ? recorder : Recorder(), record: recordsMembers))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            recorder.shape = recorder.shape ?? .array
            return EmptyUnkeyed()
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            SingleValue(recorder: recorder)
        }
    }

    /// The enum's own container: one key, whose nested container records the members.
    private struct CaseContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: Recorder
        let key: Key
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [key] }
        func contains(_ key: Key) -> Bool { key.stringValue == self.key.stringValue }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try placeholder(T.self, Recorder()) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(MemberContainer<NestedKey>(recorder: recorder, record: true))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { EmptyUnkeyed() }
        func superDecoder() throws -> any Decoder { ProbeDecoder(recorder: Recorder(), caseName: nil) }
        func superDecoder(forKey key: Key) throws -> any Decoder { ProbeDecoder(recorder: Recorder(), caseName: nil) }
    }

    /// A case's (or a nested struct's) members: each read is recorded and answered with a placeholder.
    private struct MemberContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: Recorder
        let record: Bool
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if record { recorder.member(key.stringValue, T.self, required: true) }
            return try placeholder(T.self, Recorder())
        }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            if record { recorder.member(key.stringValue, T.self, required: false) }
            return nil
        }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
        private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
            if record { recorder.member(key.stringValue, T.self, required: false) }
            return nil
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(MemberContainer<NestedKey>(recorder: Recorder(), record: false))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { EmptyUnkeyed() }
        func superDecoder() throws -> any Decoder { ProbeDecoder(recorder: Recorder(), caseName: nil) }
        func superDecoder(forKey key: Key) throws -> any Decoder { ProbeDecoder(recorder: Recorder(), caseName: nil) }
    }

    private struct SingleValue: SingleValueDecodingContainer {
        let recorder: Recorder
        var codingPath: [any CodingKey] { [] }
        func decodeNil() -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try placeholder(T.self, recorder) }
    }

    private struct EmptyUnkeyed: UnkeyedDecodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }
        mutating func decodeNil() throws -> Bool { false }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw ProbeError() }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            throw ProbeError()
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ProbeError() }
        mutating func superDecoder() throws -> any Decoder { throw ProbeError() }
    }
}
