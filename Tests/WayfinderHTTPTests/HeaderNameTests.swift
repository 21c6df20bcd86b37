import Testing
@testable import WayfinderHTTP

/// Header names are matched ASCII-case-insensitively, byte for byte, and nothing else.
@Suite struct HeaderNameTests {
    @Test func everyPairOfBytesMatchesExactlyWhenTheirLowercaseDoes() {
        // Every pair of single bytes, in the middle of a longer name (so the byte-run path is
        // the one taken), against ASCII's own lowercase mapping.
        var mismatches: [String] = []
        for x in UInt8(0)...127 {
            for y in UInt8(0)...127 {
                let a = String(decoding: Array("X-".utf8) + [x] + Array("-id".utf8), as: UTF8.self)
                let b = String(decoding: Array("x-".utf8) + [y] + Array("-ID".utf8), as: UTF8.self)
                if a.asciiCaseInsensitiveEquals(b) != (ASCII.lower(x) == ASCII.lower(y)) {
                    mismatches.append("\(x) \(y)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func onlyASCIILettersFoldAndLengthsMustMatch() {
        #expect("Content-Type".asciiCaseInsensitiveEquals("content-type"))
        #expect("IF-MATCH".asciiCaseInsensitiveEquals("if-match"))
        // Bytes 0x20 apart that are not ASCII letters: "@" and "`", "[" and "{", the last bytes of é and É.
        #expect(!"a@b".asciiCaseInsensitiveEquals("a`b"))
        #expect(!"a[b".asciiCaseInsensitiveEquals("a{b"))
        #expect(!"é".asciiCaseInsensitiveEquals("É"))
        #expect(!"Host".asciiCaseInsensitiveEquals("Hosts"))
        #expect("".asciiCaseInsensitiveEquals(""))
        // Headers look names up this way.
        let headers: HTTPHeaders = ["Content-Type": "application/json", "If-Match": "\"3\""]
        #expect(headers["content-TYPE"] == "application/json")
        #expect(headers["IF-MATCH"] == "\"3\"")
        #expect(headers["If-Matc"] == nil)
    }

    /// Fields from the parser answer like fields built from strings, and change like them.
    @Test func receivedFieldsAnswerLikeStringFieldsAndBecomeStringsWhenChanged() throws {
        var parser = HTTPRequestParser()
        let head = "GET / HTTP/1.1\r\nHost: a.test\r\nX-Tag:  one \r\nx-tag: two\r\nAuthorization: Bearer abc\r\nEmpty:\r\nLatin: caf\u{E9}\r\n\r\n"
        parser.append(Array(head.utf8))
        guard case .request(let request, _) = parser.next() else {
            Issue.record("no request")
            return
        }
        var received = request.headers
        let built = HTTPHeaders([
            ("Host", "a.test"), ("X-Tag", "one"), ("x-tag", "two"), ("Authorization", "Bearer abc"), ("Empty", ""), ("Latin", "caf\u{E9}"),
        ])
        #expect(received == built)
        #expect(received.count == 6 && !received.isEmpty)
        #expect(received["x-TAG"] == "one")
        #expect(received.values("X-Tag") == ["one", "two"])
        #expect(received["empty"] == "")
        #expect(received["LATIN"] == "caf\u{E9}")
        #expect(received["X-Ta"] == nil && received["X-Tags"] == nil)
        #expect(received.contains("authorization") && !received.contains("Cookie"))
        #expect(Array(received).map(\.name) == ["Host", "X-Tag", "x-tag", "Authorization", "Empty", "Latin"])
        // A change keeps the order of the other fields.
        received.set("X-Tag", "three")
        #expect(Array(received).map(\.name) == ["Host", "Authorization", "Empty", "Latin", "X-Tag"])
        #expect(received.values("x-tag") == ["three"])
        var added = request.headers
        added.add("Via", "1.1 proxy")
        #expect(added.count == 7 && added["via"] == "1.1 proxy" && added["host"] == "a.test")
        var removed = request.headers
        removed.remove("x-tag")
        #expect(removed.count == 4 && removed["X-Tag"] == nil)
    }
}
