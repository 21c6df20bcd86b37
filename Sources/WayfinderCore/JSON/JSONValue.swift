/// A JSON value: the currency of route parameters, context, flow data and the wire.
///
/// Integers and doubles are kept apart so that `{"id": 2}` round-trips as an integer and param
/// types (`integer` versus `string`) can be checked exactly.
public enum JSONValue: Sendable, Hashable {
    /// `null`; a parameter or member that is `null` counts as absent.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits an `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; its members are unordered.
    case object([String: JSONValue])
}

/// A JSON object: keys are unordered (writers sort them for a canonical form).
public typealias JSONObject = [String: JSONValue]

extension JSONValue {
    /// The text of a `.string`; nil for any other value.
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The value of a `.bool`; nil for any other value.
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    /// The value of an `.int`; nil for any other value (a `.double` too, even an integral one).
    public var intValue: Int? { if case .int(let i) = self { return i } else { return nil } }
    /// The members of an `.object`; nil for any other value.
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    /// The elements of an `.array`; nil for any other value.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    /// Whether this is `null`.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// The member `key` of an object (`nil` for other values or a missing key).
    public subscript(key: String) -> JSONValue? {
        get { objectValue?[key] }
        set {
            var object = objectValue ?? [:]
            object[key] = newValue
            self = .object(object)
        }
    }

    /// A string's text, or a number's or boolean's digits (what an enum's raw value is compared with).
    var scalarText: String {
        switch self {
        case .string(let string): string
        case .int(let int): String(int)
        case .double(let double): String(double)
        case .bool(let bool): String(bool)
        default: ""
        }
    }

    /// The type name with its article, for error messages ("an integer", "a string").
    package var typeNameWithArticle: String { Self.article(typeName) }

    /// `name` with "a" or "an" before it.
    package static func article(_ name: String) -> String {
        (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name
    }

    /// The JSON type name used in error messages and the flow catalog.
    package var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int.self) {
            self = .int(i)
        } else if let d = try? container.decode(Double.self) {
            self = .double(d)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try container.decode(JSONObject.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .double(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}
