import Testing
import WayfinderCore

@Suite struct JSONWriterTests {
    @Test func escapesQuotesBackslashesAndControlCharacters() {
        let value: JSONValue = .string("a\"b\\c\nd\re\tf\u{0}\u{08}\u{0C}\u{1F}\u{7F}/é😀")
        #expect(value.canonicalString == #""a\"b\\c\nd\re\tf\u0000\u0008\u000c\u001f\u007f/é😀""#)
    }

    /// The check runs eight bytes at a time: every byte that needs escaping is found at every
    /// offset of a longer string, and bytes next to the special ones (space, `!`, `~`, UTF-8
    /// continuation bytes) are copied as they are.
    @Test func findsEverySpecialByteAtEveryOffset() throws {
        let escaped: [UInt8: String] = [0x00: "\\u0000", 0x1F: "\\u001f", 0x22: "\\\"", 0x5C: "\\\\", 0x7F: "\\u007f", 0x0A: "\\n"]
        for (special, expected) in escaped {
            for offset in 0..<24 {
                var text = Array("ab cd!~éfghijklmnopqrstuvwxyz".utf8.prefix(24))
                text[offset] = special
                guard let string = String(validating: text, as: UTF8.self) else { continue }  // split an é
                var plain = Array(string.utf8)
                plain.remove(at: offset)
                let written = JSONValue.string(string).canonicalString
                let before = String(decoding: plain[..<offset], as: UTF8.self)
                let after = String(decoding: plain[offset...], as: UTF8.self)
                #expect(written == "\"" + before + expected + after + "\"", "byte \(special) at \(offset)")
            }
        }
        for clean in ["ab cd!~éfghijklmnopqrstuvwxyz", "0123456789abcdef", "~~~~~~~~ !!!!!!!!", "😀😀😀😀"] {
            #expect(JSONValue.string(clean).canonicalString == "\"" + clean + "\"")
        }
    }

    @Test func sortsObjectKeysAtEveryLevel() {
        let value: JSONValue = ["b": 1, "a": ["z": true, "y": nil], "c": [["k": "v", "j": "w"]]]
        #expect(value.canonicalString == #"{"a":{"y":null,"z":true},"b":1,"c":[{"j":"w","k":"v"}]}"#)
    }

    @Test func equalValuesGiveEqualBytes() throws {
        let one = try JSONParser.parse(#"{"route": "login", "params": {"password": "x", "email": "a@b"}}"#)
        let two = try JSONParser.parse(#"{"params":{"email":"a@b","password":"x"},"route":"login"}"#)
        #expect(one.canonicalBytes == two.canonicalBytes)
    }

    @Test func writesNumbers() {
        #expect(JSONValue.int(-42).canonicalString == "-42")
        #expect(JSONValue.int(Int.min).canonicalString == "-9223372036854775808")
        #expect(JSONValue.double(0.5).canonicalString == "0.5")
        #expect(JSONValue.double(.infinity).canonicalString == "null")
        #expect(JSONValue.double(.nan).canonicalString == "null")
    }

    /// Regression: integral doubles were written as integers, so `2.0` came back as `.int(2)`
    /// (and an ill-typed `integer` param would have changed type on a round trip).
    @Test func integralDoublesStayDoubles() throws {
        #expect(try JSONParser.parse(JSONValue.double(2).canonicalString) == .double(2))
        #expect(try JSONParser.parse(JSONValue.double(-0.0).canonicalString) == .double(0))
        #expect(try JSONParser.parse(JSONValue.double(1e300).canonicalString) == .double(1e300))
    }

    @Test func writesStructureWithCommasInTheRightPlaces() {
        var w = JSONWriter()
        w.beginObject()
        w.key("a"); w.beginArray(); w.int(1); w.string("x"); w.null(); w.endArray()
        w.key("b"); w.bool(false)
        w.key("c"); w.optionalString(nil)
        w.key("d"); w.double(1.5)
        w.endObject()
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"a":[1,"x",null],"b":false,"c":null,"d":1.5}"#)
    }

    @Test func roundTripsThroughTheParser() throws {
        let samples: [JSONValue] = [
            .null, true, 0, -1, .int(Int.max), .double(3.25), .double(-1e-7), .double(6.02e23), .double(.leastNonzeroMagnitude),
            "", "plain", "\u{0}\u{1}\u{1F}\"\\\n", "é中😀𝄞", "\u{7F}",
            [], [:], [1, [2, [3, ["deep": [nil]]]]],
            ["id": "s1", "screens": ["a", "b"], "nested": ["x": .double(1.0), "y": false]],
        ]
        for sample in samples {
            #expect(try JSONParser.parse(sample.canonicalBytes) == sample, "\(sample)")
        }
    }

    @Test func roundTripsRandomValues() throws {
        var rng = SplitMix64(seed: 0x5EED)
        for _ in 0..<500 {
            let value = randomJSON(&rng, depth: 0)
            #expect(try JSONParser.parse(value.canonicalBytes) == value, "\(value)")
        }
    }

    private func randomJSON(_ rng: inout SplitMix64, depth: Int) -> JSONValue {
        switch rng.next(below: depth > 4 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(rng.next(below: 2) == 0)
        case 2: return .int(Int(bitPattern: UInt(rng.next())))
        case 3:
            let d = Double(bitPattern: rng.next())
            return d.isFinite ? .double(d) : .double(Double(rng.next(below: 1000)) / 8)
        case 4, 5:
            let alphabet: [Unicode.Scalar] = ["a", "\"", "\\", "\n", "\u{0}", "\u{1F}", "é", "中", "😀", "/", " "]
            var s = ""
            for _ in 0..<rng.next(below: 8) { s.unicodeScalars.append(alphabet[rng.next(below: alphabet.count)]) }
            return .string(s)
        case 6: return .array((0..<rng.next(below: 4)).map { _ in randomJSON(&rng, depth: depth + 1) })
        default:
            var object: JSONObject = [:]
            for i in 0..<rng.next(below: 4) { object["k\(i)\(rng.next(below: 3))"] = randomJSON(&rng, depth: depth + 1) }
            return .object(object)
        }
    }
}

/// SplitMix64: a tiny seeded generator, so random tests are reproducible.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
