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
}
