import Testing

@testable import WayfinderClient

/// The event-stream parser, fed whole streams and a byte at a time.
@Suite struct ServerSentEventParserTests {
    func parse(_ text: String, byteByByte: Bool = false) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        if byteByByte { return text.utf8.flatMap { parser.feed([$0]) } }
        return parser.feed(Array(text.utf8))
    }

    @Test func eventsAreSplitAtBlankLinesWhateverTheLineEndings() {
        let expected = [
            ServerSentEvent(event: "state", id: "1", data: #"{"revision":1}"#),
            ServerSentEvent(event: "state", id: "2", data: #"{"revision":2}"#),
        ]
        for ending in ["\n", "\r\n", "\r"] {
            let stream = ["event: state", "id: 1", #"data: {"revision":1}"#, "", ": keep-alive", "", "event: state", "id: 2", #"data: {"revision":2}"#, "", ""]
                .joined(separator: ending)
            #expect(parse(stream) == expected, "\(ending.debugDescription)")
            #expect(parse(stream, byteByByte: true) == expected, "\(ending.debugDescription)")
        }
    }

    @Test func anEventIsDeliveredOnlyOnceItsBlankLineArrives() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("event: state\nid: 7\ndata: {}\n".utf8)).isEmpty)
        #expect(parser.feed(Array("\n".utf8)) == [ServerSentEvent(event: "state", id: "7", data: "{}")])
    }

    @Test func dataLinesJoinAndFieldsFollowTheSpecification() {
        let events = parse("\u{FEFF}data:a\ndata: b\ndata\nretry: 10\nunknown: x\n\nid: 9\n\ndata:c\n\n")
        #expect(events == [
            ServerSentEvent(event: "message", id: nil, data: "a\nb\n"),
            ServerSentEvent(event: "message", id: "9", data: "c"),  // the id stays until replaced
        ])
    }

    @Test func commentsAndEventsWithoutDataDeliverNothing() {
        #expect(parse(": hello\n\nevent: state\n\n:\n\n").isEmpty)
    }
}
