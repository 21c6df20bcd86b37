import Testing
import WayfinderCore

@Suite struct JSONParserTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    private func rejects(_ bytes: [UInt8], _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let value = try JSONParser.parse(bytes)
            Issue.record("accepted \(value)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.reason == reason, sourceLocation: sourceLocation)
        }
    }

    private func rejects(_ text: String, _ reason: String, sourceLocation: SourceLocation = #_sourceLocation) {
        rejects(Array(text.utf8), reason, sourceLocation: sourceLocation)
    }

    // MARK: Valid documents

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#" { "a" : [1, -2, 3.5, true, false, null, "x"], "b": {}, "c": [] } "#)
        #expect(value == ["a": [1, -2, .double(3.5), true, false, nil, "x"], "b": [:], "c": []])
    }

    @Test func parsesScalarsAtTheTop() throws {
        #expect(try parse("42") == 42)
        #expect(try parse("\"hi\"") == "hi")
        #expect(try parse("null") == .null)
        #expect(try parse(" true\n") == true)
    }

    @Test func keepsIntegersApartFromDoubles() throws {
        #expect(try parse("2") == .int(2))
        #expect(try parse("-0") == .int(0))
        #expect(try parse("2.0") == .double(2.0))
        #expect(try parse("2e3") == .double(2000))
        #expect(try parse("-1.25E-2") == .double(-0.0125))
        #expect(try parse("9223372036854775807") == .int(Int.max))
        // Too large for Int: kept as a double rather than refused.
        #expect(try parse("9223372036854775808") == .double(9223372036854775808.0))
    }

    @Test func decodesEscapes() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try parse(#""\u00e9\u4E2D""#) == "é中")
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
    }

    @Test func joinsSurrogatePairs() throws {
        #expect(try parse(#""\ud83d\ude00""#) == "😀")
        #expect(try parse(#""a\uD834\uDD1Eb""#) == "a𝄞b")
    }

    @Test func acceptsRawUTF8() throws {
        #expect(try parse("\"héllo 😀 中\"") == "héllo 😀 中")
    }

    @Test func rejectsDuplicateMemberNames() throws {
        rejects(#"{"tab":"profile","tab":"todos"}"#, #"duplicate member name "tab""#)
        // At any depth, however the name is written, and wherever the second one comes.
        rejects(#"{"params":{"id":"1","title":"x","id":"2"}}"#, #"duplicate member name "id""#)
        rejects(#"[{"a":1},{"b":[{"c":1,"c":1}]}]"#, #"duplicate member name "c""#)
        rejects(#"{"a":1,"\u0061":2}"#, #"duplicate member name "a""#)
        // The offset is the duplicate's name; a long name is cut in the reason.
        do {
            _ = try JSONParser.parse(#"{"a":1, "a":2}"#)
            Issue.record("accepted")
        } catch {
            #expect(error.offset == 8)
        }
        let long = String(repeating: "n", count: 100)
        rejects("{\"\(long)\":1,\"\(long)\":2}", "duplicate member name \"\(long.prefix(64))…\"")
        // The same name in two objects, or as a value, is no duplicate.
        #expect(try parse(#"{"a":{"a":1},"b":{"a":2},"c":"a"}"#) == ["a": ["a": 1], "b": ["a": 2], "c": "a"])
    }

    @Test func acceptsSixtyFourNestedContainers() throws {
        let text = String(repeating: "[", count: 64) + "1" + String(repeating: "]", count: 64)
        var value = try parse(text)
        var depth = 0
        while case .array(let items) = value { depth += 1; value = items[0] }
        #expect(depth == 64)
        #expect(value == 1)
        let objects = String(repeating: #"{"a":"#, count: 64) + "null" + String(repeating: "}", count: 64)
        #expect(throws: Never.self) { try parse(objects) }
    }

    // MARK: Refusals

    @Test func rejectsTrailingCommas() {
        rejects("[1,2,]", "unexpected character")
        rejects(#"{"a":1,}"#, "expected a member name")
    }

    @Test func rejectsLeadingZeros() {
        rejects("01", "unexpected trailing data")
        rejects("[-01]", "expected ',' or ']'")
        rejects("1.", "expected a digit")
        rejects(".5", "unexpected character")
        rejects("-", "expected a digit")
        rejects("1e", "expected a digit")
        rejects("+1", "unexpected character")
    }

    @Test func rejectsNumbersOutOfRange() {
        rejects("1e400", "number out of range")
    }

    @Test func rejectsLoneSurrogates() {
        rejects(#""\ud83d""#, "lone surrogate")
        rejects(#""\ude00""#, "lone surrogate")
        rejects(#""\ud83d\u0041""#, "lone surrogate")
        rejects(#""\ud83dx""#, "lone surrogate")
    }

    @Test func rejectsBadEscapes() {
        rejects(#""\x""#, "invalid escape")
        rejects(#""\u12G4""#, #"invalid \u escape"#)
        rejects(#""\u12"#, #"truncated \u escape"#)
    }

    @Test func rejectsInvalidUTF8() {
        rejects([0x22, 0xFF, 0x22], "invalid UTF-8 in string")
        rejects([0x22, 0xC0, 0x80, 0x22], "invalid UTF-8 in string")  // overlong NUL
        rejects([0x22, 0xED, 0xA0, 0x80, 0x22], "invalid UTF-8 in string")  // an encoded surrogate
        rejects([0x22, 0x5C, 0x6E, 0xE2, 0x82, 0x22], "invalid UTF-8 in string")  // truncated, after an escape
        rejects([0xEF, 0xBB, 0xBF, 0x31], "unexpected character")  // a byte-order mark
    }

    @Test func rejectsControlCharactersInStrings() {
        rejects("\"a\u{0A}b\"", "control character in string")
        rejects("\"\u{01}\"", "control character in string")
        rejects("\"\\n\u{1F}\"", "control character in string")
    }

    @Test func rejectsNestingDeeperThanSixtyFour() {
        rejects(String(repeating: "[", count: 65) + String(repeating: "]", count: 65), "nesting deeper than 64")
        rejects(String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65), "nesting deeper than 64")
        // A hostile body fails fast instead of exhausting the stack.
        rejects(String(repeating: "[", count: 1_000_000), "nesting deeper than 64")
    }

    @Test func rejectsTrailingGarbage() {
        rejects("{} x", "unexpected trailing data")
        rejects("[1] [2]", "unexpected trailing data")
        rejects("nullx", "unexpected trailing data")
    }

    @Test func rejectsTruncatedAndEmptyInput() {
        rejects("", "unexpected end of input")
        rejects("   ", "unexpected end of input")
        rejects("[1", "expected ',' or ']'")
        rejects(#"{"a""#, "expected ':'")
        rejects(#""abc"#, "unterminated string")
        rejects("tru", "truncated literal")
        rejects("trUe", "invalid literal")
        rejects("{1:2}", "expected a member name")
    }

    @Test func reportsTheOffsetOfTheError() {
        do {
            _ = try JSONParser.parse("[1, x]")
            Issue.record("accepted")
        } catch {
            #expect(error.offset == 4)
            #expect(error.description == "unexpected character at byte 4")
        }
    }
}
