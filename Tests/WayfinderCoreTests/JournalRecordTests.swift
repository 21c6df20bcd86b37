import Testing
import WayfinderCore

/// A journal entry as the server writes it (``JournalRecord/encode(revision:time:requestID:actions:transitions:state:stateBytes:redacting:)``)
/// reads back as what was recorded, whatever its strings hold.
@Suite struct JournalRecordTests {
    /// The tiny app after opening item 7: screens `home` and `item`.
    static func entry(
        requestID: String?, actions: [JournalAction], time: Int64 = 1_796_157_408_213
    ) throws -> (bytes: [UInt8], state: SessionState, transitions: [Transition]) {
        let start = try tinyEngine.start(session: "tiny", context: [:])
        let outcome = try tinyEngine.reduce(start, .trigger(RouteRequest("open", params: ["id": .int(7)])))
        let bytes = JournalRecord.encode(
            revision: outcome.state.revision, time: time, requestID: requestID, actions: actions,
            transitions: JournalRecord.transitionsJSON(outcome.transitions), state: outcome.state,
            stateBytes: StateCodec.encode(outcome.state), redacting: SecretParams())
        return (bytes, outcome.state, outcome.transitions)
    }

    @Test func anEntryReadsBackAsItWasWritten() throws {
        let actions: [JournalAction] = [
            .action(.trigger(RouteRequest("open", params: ["id": .int(7)]))),
            .action(.trigger(RouteRequest("noop", params: [:]))),
            .action(.completeEffect(id: "e1", .success(.object(["ok": .bool(true)])))),
            .start(context: ["variant": .string("A")], deepLink: "tiny://items/7"),
            .action(.back(screen: nil)),
            .rewind(revision: 3),
        ]
        let (bytes, state, transitions) = try Self.entry(requestID: "req-1", actions: actions)
        let record = try JournalRecord(bytes: bytes)
        #expect(record.revision == state.revision)
        #expect(record.time == 1_796_157_408_213)
        #expect(record.requestID == "req-1")
        #expect(record.actions == actions)
        #expect(record.transitions == transitions)
        #expect(record.screens == ["home", "item"])
        #expect(record.digest == StateDigest.of(state))
        #expect(record.state == nil)
    }

    @Test func stringsThatNeedEscapingAreEscaped() throws {
        let requestID = #"a"b\c"#
        let route = RouteRequest("say \"hi\"", params: ["text": .string("line\nbreak")])
        let (bytes, _, _) = try Self.entry(requestID: requestID, actions: [.action(.trigger(route))], time: -5)
        let record = try JournalRecord(bytes: bytes)
        #expect(record.requestID == requestID)
        #expect(record.actions == [.action(.trigger(route))])
        #expect(record.time == -5)
    }

    @Test func anEntryWithoutARequestIDHasNone() throws {
        let (bytes, _, _) = try Self.entry(requestID: nil, actions: [.rewind(revision: 1)])
        #expect(try JournalRecord(bytes: bytes).requestID == nil)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("requestId"))
    }
}
