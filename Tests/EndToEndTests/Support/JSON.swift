/// A parsed JSON value for assertions, read by a small parser of the tests' own (independent of
/// the server's JSON code). Missing members read as `.missing`, so chains never crash.
enum J: Equatable, CustomStringConvertible {
    case missing
    case null
    case bool(Bool)
    case number(String)  // the literal as written
    case string(String)
    case array([J])
    case object([String: J])

    init(bytes: [UInt8]) {
        var parser = Parser(bytes: bytes)
        self = parser.document() ?? .missing
    }

    init(text: String) { self.init(bytes: Array(text.utf8)) }

    init(_ object: [String: J]) { self = .object(object) }

    subscript(key: String) -> J {
        if case .object(let members) = self { return members[key] ?? .missing }
        return .missing
    }
    subscript(index: Int) -> J {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return .missing
    }

    var exists: Bool { self != .missing }
    var isNull: Bool { self == .null }
    var isObject: Bool { if case .object = self { true } else { false } }
    var isArray: Bool { if case .array = self { true } else { false } }
    var string: String? { if case .string(let s) = self { s } else { nil } }
    var int: Int? { if case .number(let n) = self { Int(n) } else { nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    var array: [J] { if case .array(let items) = self { items } else { [] } }
    var objectValue: [String: J]? { if case .object(let members) = self { members } else { nil } }
    var keys: Set<String> { Set(objectValue?.keys.map { $0 } ?? []) }
    var last: J { array.last ?? .missing }

    /// Sorted-key serialization: equal values give equal strings.
    var canonical: String {
        switch self {
        case .missing: return "<missing>"
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n
        case .string(let s): return Self.quote(s)
        case .array(let items): return "[" + items.map(\.canonical).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { Self.quote($0) + ":" + members[$0]!.canonical }.joined(separator: ",") + "}"
        }
    }

    var description: String { canonical }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A strict recursive-descent JSON parser (RFC 8259); nil on any error.
    struct Parser {
        let bytes: [UInt8]
        var i = 0

        mutating func document() -> J? {
            guard let value = value() else { return nil }
            skipSpace()
            return i == bytes.count ? value : nil
        }

        mutating func skipSpace() {
            while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        }

        mutating func literal(_ word: String, _ value: J) -> J? {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { return nil }
            i += w.count
            return value
        }

        mutating func value() -> J? {
            skipSpace()
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "n"): return literal("null", .null)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "\""): return string().map(J.string)
            case UInt8(ascii: "["):
                i += 1
                var items: [J] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    guard let item = value() else { return nil }
                    items.append(item)
                    skipSpace()
                    guard i < bytes.count else { return nil }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    return nil
                }
            case UInt8(ascii: "{"):
                i += 1
                var members: [String: J] = [:]
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let key = string() else { return nil }
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                    i += 1
                    guard let item = value() else { return nil }
                    members[key] = item
                    skipSpace()
                    guard i < bytes.count else { return nil }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                    return nil
                }
            default:
                let start = i
                while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
                guard i > start else { return nil }
                let text = String(decoding: bytes[start..<i], as: UTF8.self)
                guard Double(text) != nil else { return nil }
                return .number(text)
            }
        }

        mutating func hex4() -> UInt32? {
            guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16) else { return nil }
            i += 4
            return v
        }

        mutating func string() -> String? {
            i += 1  // opening quote
            var out: [UInt8] = []
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                switch b {
                case UInt8(ascii: "\""): return String(validating: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard i < bytes.count else { return nil }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    case UInt8(ascii: "b"): out.append(8)
                    case UInt8(ascii: "f"): out.append(12)
                    case UInt8(ascii: "n"): out.append(10)
                    case UInt8(ascii: "r"): out.append(13)
                    case UInt8(ascii: "t"): out.append(9)
                    case UInt8(ascii: "u"):
                        guard var code = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(code) {
                            guard i + 2 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else { return nil }
                            i += 2
                            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { return nil }
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: return nil
                    }
                default:
                    guard b >= 0x20 else { return nil }
                    out.append(b)
                }
            }
            return nil
        }
    }
}

extension J {
    // Shortcuts on a State.
    var stackNames: [String] { self["stack"].array.compactMap { $0["name"].string } }
    var stackIDs: [String] { self["stack"].array.compactMap { $0["id"].string } }
    var top: J { self["stack"].last }
    var revision: Int? { self["revision"].int }
    /// The ops of an action answer's transitions.
    var ops: [String] { self["transitions"].array.compactMap { $0["op"].string } }
}

/// A JSON text for a request body, from strings, numbers, booleans, arrays and dictionaries.
func jsonText(_ value: Any) -> String {
    switch value {
    case let s as String: return J.quote(s)
    case let b as Bool: return b ? "true" : "false"
    case let n as Int: return String(n)
    case let a as [Any]: return "[" + a.map(jsonText).joined(separator: ",") + "]"
    case let d as [String: Any]: return "{" + d.keys.sorted().map { J.quote($0) + ":" + jsonText(d[$0]!) }.joined(separator: ",") + "}"
    default: return "null"
    }
}
