import Testing
@testable import WayfinderHTTP

/// Feeds `bytes` in pieces of `step` bytes and collects every event.
func parseAll(_ bytes: [UInt8], step: Int = .max, limits: HTTPParserLimits = HTTPParserLimits()) -> [HTTPParserEvent] {
    var parser = HTTPRequestParser(limits: limits)
    var events: [HTTPParserEvent] = []
    var i = 0
    while i < bytes.count {
        let end = min(bytes.count, i + max(1, min(step, bytes.count)))
        parser.append(bytes[i..<end])
        i = end
        while let event = parser.next() {
            events.append(event)
            if case .error = event { return events }
        }
    }
    return events
}

func parseAll(_ text: String, step: Int = .max, limits: HTTPParserLimits = HTTPParserLimits()) -> [HTTPParserEvent] {
    parseAll(Array(text.utf8), step: step, limits: limits)
}

@Suite struct HTTPRequestParserTests {
    @Test func parsesASimpleGet() throws {
        let events = parseAll("GET /a/b?x=1&y=2 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n")
        #expect(events.count == 1)
        guard case .request(let r, let keepAlive) = events.first else { Issue.record("no request"); return }
        #expect(r.method == "GET")
        #expect(r.target == "/a/b?x=1&y=2")
        #expect(r.path == "/a/b")
        #expect(r.query == "x=1&y=2")
        #expect(r.version == .http1_1)
        #expect(r.headers["host"] == "example.com")
        #expect(r.headers["ACCEPT"] == "*/*")
        #expect(r.body.isEmpty)
        #expect(keepAlive)
    }

    @Test func byteAtATimeGivesTheSameRequests() {
        let text = "POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
            + "PUT /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n0\r\nX-T: 1\r\n\r\n"
        let whole = parseAll(text)
        let bytewise = parseAll(text, step: 1)
        #expect(whole.count == 2)
        #expect(whole == bytewise)
        if case .request(let r, _) = whole.last { #expect(r.body == Array("abc".utf8)) }
    }

    @Test func twoRequestsInOneBufferComeOutInOrder() {
        let events = parseAll("GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(events.count == 2)
        guard case .request(let a, let ka) = events[0], case .request(let b, let kb) = events[1] else {
            Issue.record("expected two requests"); return
        }
        #expect(a.target == "/1" && ka)
        #expect(b.target == "/2" && !kb)
    }

    @Test func chunkedBodyWithExtensionsAndTrailersIsDecoded() {
        let events = parseAll(
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip-not, chunked\r\n\r\n".replacingOccurrences("gzip-not, ", "")
                + "5 ; a=b;c=\"d\"\r\nhello\r\n6\r\n world\r\n0\r\nTrailer-A: 1\r\nTrailer-B: 2\r\n\r\n", step: 3)
        guard case .request(let r, _) = events.first else { Issue.record("\(events)"); return }
        #expect(r.body == Array("hello world".utf8))
    }

    @Test func expectContinueIsAnnouncedBeforeTheBody() {
        var parser = HTTPRequestParser()
        parser.append(Array("POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8))
        #expect(parser.next() == .continueExpected)
        #expect(parser.next() == nil)
        parser.append(Array("abc".utf8))
        guard case .request(let r, _) = parser.next() else { Issue.record("no request"); return }
        #expect(r.body == Array("abc".utf8))
    }

    @Test func absoluteFormIsNormalisedToOriginForm() {
        let events = parseAll("GET http://example.com:8080/x/y?q=1 HTTP/1.1\r\nHost: example.com:8080\r\n\r\n")
        guard case .request(let r, _) = events.first else { Issue.record("\(events)"); return }
        #expect(r.target == "/x/y?q=1")
        #expect(r.path == "/x/y")
        #expect(r.query == "q=1")
        let bare = parseAll("GET HTTP://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n")
        guard case .request(let b, _) = bare.first else { Issue.record("\(bare)"); return }
        #expect(b.target == "/")
    }

    @Test func http10KeepsAliveOnlyWhenAsked() {
        guard case .request(let a, let ka) = parseAll("GET / HTTP/1.0\r\n\r\n").first,
            case .request(_, let kb) = parseAll("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").first
        else { Issue.record("no request"); return }
        #expect(a.version == .http1_0)
        #expect(!ka)
        #expect(kb)
    }

    @Test func emptyLinesBeforeTheRequestLineAreIgnored() {
        guard case .request(let r, _) = parseAll("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n").first else {
            Issue.record("no request"); return
        }
        #expect(r.target == "/")
    }

    @Test func identicalDuplicateContentLengthsAreAccepted() {
        guard case .request(let r, _) = parseAll("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok").first else {
            Issue.record("no request"); return
        }
        #expect(r.body == Array("ok".utf8))
    }

    @Test func limitsGiveTheirStatusesBeforeTheDataIsComplete() {
        let small = HTTPParserLimits(maxRequestLineBytes: 32, maxHeaderBytes: 64, maxHeaderCount: 3, maxBodyBytes: 10)
        #expect(parseAll("GET /" + String(repeating: "a", count: 40), limits: small) == [.error(.uriTooLong)])
        #expect(parseAll("GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: 80), limits: small) == [.error(.headersTooLarge)])
        #expect(parseAll("GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\n", limits: small) == [.error(.headersTooLarge)])
        #expect(parseAll("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n", limits: small) == [.error(.payloadTooLarge)])
        #expect(parseAll("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n", limits: small) == [.error(.payloadTooLarge)])
    }

    /// Every framing ambiguity and malformation from issue 3, with the status it must get.
    static let malformed: [(String, String, Int)] = [
        ("CL and TE", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("differing CLs", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", 400),
        ("CL plus sign", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +3\r\n\r\n", 400),
        ("CL minus sign", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -3\r\n\r\n", 400),
        ("CL hex", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0x3\r\n\r\n", 400),
        ("CL list", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3, 3\r\n\r\n", 400),
        ("CL empty", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \r\n\r\n", 400),
        ("CL overflow", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 18446744073709551617\r\n\r\n", 400),
        ("TE chunked not last", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400),
        ("TE chunked twice", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("TE unknown coding", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
        ("TE only unknown", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: identity\r\n\r\n", 400),
        ("TE in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("TE empty beside CL", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: \r\nContent-Length: 3\r\n\r\nabc", 400),
        ("TE only a comma beside CL", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: ,\r\nContent-Length: 3\r\n\r\nabc", 400),
        ("TE only commas and spaces", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: , ,\r\n\r\n", 400),
        ("obs-fold", "GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n  folded\r\n\r\n", 400),
        ("space before colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400),
        ("tab before colon", "GET / HTTP/1.1\r\nHost\t: h\r\n\r\n", 400),
        ("bare CR in value", "GET / HTTP/1.1\r\nHost: h\r\nX-A: a\rb\r\n\r\n", 400),
        ("bare CR in request line", "GET /\r HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("bare LF", "GET / HTTP/1.1\nHost: h\n\n", 400),
        ("name not a token", "GET / HTTP/1.1\r\nHost: h\r\nBad(Name): 1\r\n\r\n", 400),
        ("empty name", "GET / HTTP/1.1\r\nHost: h\r\n: 1\r\n\r\n", 400),
        ("NUL in value", "GET / HTTP/1.1\r\nHost: h\r\nX-A: a\u{0}b\r\n\r\n", 400),
        ("chunk size not hex", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("chunk size overflow", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\n", 400),
        ("chunk size negative", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n", 400),
        ("chunk data without CRLF", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n", 400),
        ("control char in target", "GET /a\u{1}b HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("space in target", "GET /a b HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("non-ASCII in target", "GET /caf\u{e9} HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("relative target", "GET a/b HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("missing Host", "GET / HTTP/1.1\r\n\r\n", 400),
        ("duplicate Host", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        ("malformed Host", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
        ("Host with slash", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", 400),
        ("HTTP/0.9", "GET /\r\n\r\n", 400),
        ("lowercase version", "GET / http/1.1\r\nHost: h\r\n\r\n", 400),
        ("version without minor", "GET / HTTP/1\r\nHost: h\r\n\r\n", 400),
        ("version with junk", "GET / HTTP/1.1x\r\nHost: h\r\n\r\n", 400),
        ("two spaces", "GET  / HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("HTTP/2.0", "GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505),
        ("HTTP/0.9 with version", "GET / HTTP/0.9\r\nHost: h\r\n\r\n", 505),
        ("method not a token", "G@T / HTTP/1.1\r\nHost: h\r\n\r\n", 400),
    ]

    @Test(arguments: malformed.indices)
    func malformedRequestsAreRejectedWithTheRightStatus(_ index: Int) {
        let (name, text, status) = Self.malformed[index]
        for step in [Int.max, 1] {
            let events = parseAll(text, step: step)
            guard case .error(let error) = events.last else {
                Issue.record("\(name): expected an error, got \(events)")
                continue
            }
            #expect(error.status == status, "\(name)")
            #expect(!events.contains { if case .request = $0 { true } else { false } }, "\(name)")
        }
    }

    @Test func errorsAreSticky() {
        var parser = HTTPRequestParser()
        parser.append(Array("GET / HTTP/1.1\r\nHost : h\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        guard case .error = parser.next() else { Issue.record("no error"); return }
        guard case .error = parser.next() else { Issue.record("not sticky"); return }
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
