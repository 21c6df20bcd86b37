/// A strict RFC 8259 JSON parser over bytes.
///
/// Strict on purpose: a body that is not exactly JSON is `400 bad_json`, never guessed at. An
/// object that names a member twice (`{"tab":"profile","tab":"todos"}`, at any depth) is refused
/// too, rather than one of its values kept silently (RFC 8259 §4 leaves that to the parser).
/// Nesting is bounded so a hostile body cannot exhaust the stack.
public struct JSONParser {
    /// Why a text is not JSON, and where.
    public struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// The byte at which parsing stopped (0-based).
        public var offset: Int
        /// What was wrong there: "unexpected trailing data", "nesting deeper than 64", …
        public var reason: String
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// How many arrays and objects may nest: deeper input is refused, so a hostile body cannot
    /// exhaust the stack.
    public static let maximumDepth = 64

    /// Parses one JSON text (surrounding whitespace allowed, nothing else).
    public static func parse(_ bytes: [UInt8]) throws(Error) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Error) -> JSONValue in
            var parser = JSONParser(buffer)
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            guard parser.index == buffer.count else { throw parser.fail("unexpected trailing data") }
            return value
        }
    }

    /// Parses one JSON text given as a string (its UTF-8 bytes).
    public static func parse(_ text: String) throws(Error) -> JSONValue { try parse(Array(text.utf8)) }

    private let input: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ input: UnsafeBufferPointer<UInt8>) { self.input = input }

    private func fail(_ reason: String) -> Error { Error(offset: index, reason: reason) }

    private var current: UInt8? { index < input.count ? input[index] : nil }

    private mutating func skipWhitespace() {
        while index < input.count {
            switch input[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ literal: StaticString, _ value: JSONValue) throws(Error) -> JSONValue {
        let count = literal.utf8CodeUnitCount
        guard index + count <= input.count else { throw fail("truncated literal") }
        let start = literal.utf8Start
        for offset in 0..<count where input[index + offset] != start[offset] {
            throw fail("invalid literal")
        }
        index += count
        return value
    }

    /// `depth` counts the containers around the value: at most `maximumDepth` may nest.
    private mutating func parseValue(depth: Int) throws(Error) -> JSONValue {
        guard let byte = current else { throw fail("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw fail("nesting deeper than \(Self.maximumDepth)") }
            return byte == UInt8(ascii: "{") ? try parseObject(depth: depth) : try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    private mutating func parseObject(depth: Int) throws(Error) -> JSONValue {
        index += 1
        var members: JSONObject = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let nameOffset = index
            let name = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            // One lookup either way: the insert tells whether the name was there already.
            if members.updateValue(try parseValue(depth: depth + 1), forKey: name) != nil {
                throw Error(offset: nameOffset, reason: "duplicate member name \(Self.quoted(name))")
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw fail("expected ',' or '}'")
            }
        }
    }

    /// `name` in quotes for a reason, its first 64 characters at most (a name may be as long as
    /// the body).
    private static func quoted(_ name: String) -> String {
        name.count <= 64 ? "\"\(name)\"" : "\"\(name.prefix(64))…\""
    }

    private mutating func parseArray(depth: Int) throws(Error) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: throw fail("expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(Error) -> JSONValue {
        let start = index
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw fail("expected a digit")
        }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let d = current, d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") { index += 1 }
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let d = current, d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { throw fail("expected a digit") }
            while let d = current, d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let d = current, d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { throw fail("expected a digit") }
            while let d = current, d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw fail("number out of range") }
        return .double(value)
    }

    private mutating func parseHex4() throws(Error) -> UInt32 {
        guard index + 4 <= input.count else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = input[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseString() throws(Error) -> String {
        index += 1  // opening quote
        let start = index
        var bits: UInt8 = 0
        // Fast path: no escapes.
        while let c = current, c != UInt8(ascii: "\""), c != UInt8(ascii: "\\") {
            guard c >= 0x20 else { throw fail("control character in string") }
            bits |= c
            index += 1
        }
        if current == UInt8(ascii: "\""), bits < 0x80 {
            // ASCII without escapes (names, routes, ids): the bytes are the string, valid as they are.
            defer { index += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
        }
        var utf8: [UInt8] = []
        utf8.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<index]))
        while true {
            guard let c = current else { throw fail("unterminated string") }
            index += 1
            switch c {
            case UInt8(ascii: "\""):
                guard let s = String(validating: utf8, as: UTF8.self) else { throw fail("invalid UTF-8 in string") }
                return s
            case UInt8(ascii: "\\"):
                guard let e = current else { throw fail("unterminated escape") }
                index += 1
                switch e {
                case UInt8(ascii: "\""): utf8.append(0x22)
                case UInt8(ascii: "\\"): utf8.append(0x5C)
                case UInt8(ascii: "/"): utf8.append(0x2F)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard current == UInt8(ascii: "\\"), index + 1 < input.count, input[index + 1] == UInt8(ascii: "u")
                        else { throw fail("lone surrogate") }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("lone surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("lone surrogate")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid code point") }
                    utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
                default: throw fail("invalid escape")
                }
            default:
                guard c >= 0x20 else { throw fail("control character in string") }
                utf8.append(c)
            }
        }
    }
}
