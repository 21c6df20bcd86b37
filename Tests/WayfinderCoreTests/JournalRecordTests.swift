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
            transitions: outcome.transitions, state: outcome.state,
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
        #expect(!String(decoding: try JournalRecord.joined(record: bytes, state: []), as: UTF8.self).contains("requestId"))
    }

    /// The JSON of an entry (the history endpoint's and a bundle's) reads back as the entry, with
    /// its state, and is what stores kept before the stored form: such a record still reads.
    @Test func theJSONOfAnEntryReadsBackAsTheEntry() throws {
        let route = RouteRequest("sign in", params: ["email": .string("a@b.c"), "password": .string("hunter22")])
        let actions: [JournalAction] = [.action(.trigger(route)), .action(.selectTab("todos")), .abandonEffect("e2")]
        let (bytes, state, transitions) = try Self.entry(requestID: "req-2", actions: actions)
        let stateBytes = StateCodec.encode(state)
        let json = try JournalRecord.joined(record: bytes, state: stateBytes)
        #expect(json.first == UInt8(ascii: "{"))
        let record = try JournalRecord(bytes: json)
        #expect(record.actions == actions)
        #expect(record.transitions == transitions)
        #expect(record.digest == StateDigest.of(state))
        #expect(record.state == (try JSONParser.parse(stateBytes)))

        let legacy = try JournalRecord.joined(record: bytes, state: [])
        #expect(try JournalRecord(bytes: legacy) == JournalRecord(bytes: bytes))
        #expect(try JournalRecord.joined(record: legacy, state: stateBytes) == json)
        #expect(try JournalRecord.joined(record: legacy, state: []) == legacy)
    }

    @Test func theStoredFormIsUnderAThirdOfTheJSON() throws {
        let (bytes, _, _) = try Self.entry(requestID: "vdRfzw-1ks8o", actions: [.action(.trigger(RouteRequest("open", params: [:])))])
        let json = try JournalRecord.joined(record: bytes, state: [])
        #expect(bytes.count * 3 < json.count, "\(bytes.count) bytes stored for \(json.count) of JSON")
    }

    /// A stored entry cut short, or with any byte changed, is an error or another entry: never a
    /// crash, whatever the lengths it then claims.
    @Test func aDamagedStoredEntryIsAnErrorNotACrash() throws {
        let route = RouteRequest("open", params: ["id": .int(7)])
        let (bytes, _, _) = try Self.entry(requestID: "req-3", actions: [.action(.trigger(route)), .rewind(revision: 2)])
        for length in 0..<bytes.count {
            #expect(throws: JournalError.self) { try JournalRecord(bytes: Array(bytes.prefix(length))) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var damaged = bytes
            damaged[Int.random(in: 1..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = try? JournalRecord(bytes: damaged)
            _ = try? JournalRecord.joined(record: damaged, state: [])
        }
        #expect(throws: JournalError.self) { try JournalRecord(bytes: bytes + [0]) }
    }
}
