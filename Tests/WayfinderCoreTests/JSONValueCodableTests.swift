import Testing
import WayfinderCore

private enum Size: String, Codable, CaseIterable { case small, large }
private enum Level: Int, Codable, CaseIterable { case low = 1, high = 2 }

private struct Address: Codable, Hashable {
    var street: String
    var number: Int
}

private enum Order: FlowRoute {
    case pick(size: Size, level: Level?, note: String?)
    case ship(address: Address, express: Bool, weight: Double, tags: [String])
    case cancel
    enum CodingKeys: CodingKey, CaseIterable { case pick, ship, cancel }
}

@Suite struct JSONValueCodableTests {
    let encoder = JSONValueEncoder()
    let decoder = JSONValueDecoder()

    @Test func casesRoundTripAsTheirNameAndLabelledValues() throws {
        let routes: [Order] = [
            .pick(size: .large, level: .high, note: nil),
            .ship(address: Address(street: "Main", number: 7), express: true, weight: 2.5, tags: ["a", "b"]),
            .cancel,
        ]
        for route in routes {
            #expect(try decoder.decode(Order.self, from: encoder.encode(route)) == route)
        }
        #expect(try encoder.encode(routes[0]) == ["pick": ["size": "large", "level": 2, "note": nil]])
        #expect(try encoder.encode(routes[2]) == ["cancel": [:]])
    }

    @Test func anIntegerIsReadWhereANumberIsExpectedButNotTheOtherWayRound() throws {
        let ship: JSONValue = ["ship": ["address": ["street": "Main", "number": 7], "express": false, "weight": 3, "tags": []]]
        #expect(try decoder.decode(Order.self, from: ship) == .ship(address: Address(street: "Main", number: 7), express: false, weight: 3, tags: []))
        let fractional: JSONValue = ["ship": ["address": ["street": "Main", "number": .double(7.5)], "express": false, "weight": 3, "tags": []]]
        #expect(throws: JSONValueDecodingError(path: ["ship", "address", "number"], problem: .mismatch(expected: "an integer", found: .double(7.5)))) {
            try decoder.decode(Order.self, from: fractional)
        }
    }

    @Test func failuresNameTheMemberAndSayWhatWasExpected() {
        #expect(throws: JSONValueDecodingError(path: ["pick", "size"], problem: .missing)) {
            try decoder.decode(Order.self, from: ["pick": [:]])
        }
        #expect(throws: JSONValueDecodingError(path: ["pick", "size"], problem: .missing)) {
            try decoder.decode(Order.self, from: ["pick": ["size": nil]])
        }
        #expect(throws: JSONValueDecodingError(path: ["pick", "size"], problem: .notOneOf(["small", "large"]))) {
            try decoder.decode(Order.self, from: ["pick": ["size": "huge"]])
        }
        let tags = JSONValueDecodingError(path: ["ship", "tags", "1"], problem: .mismatch(expected: "a string", found: 2))
        #expect(tags.reason == "must be a string, not an integer")
        #expect(throws: tags) {
            try decoder.decode(
                Order.self, from: ["ship": ["address": ["street": "M", "number": 1], "express": true, "weight": 1, "tags": ["x", 2]]])
        }
    }

    @Test func scalarsAreReadFromStringsOnlyWhenAsked() throws {
        var lenient = JSONValueDecoder()
        lenient.readsScalarsFromStrings = true
        #expect(try lenient.decode(Address.self, from: ["street": "Main", "number": "12"]) == Address(street: "Main", number: 12))
        #expect(throws: JSONValueDecodingError.self) { try decoder.decode(Address.self, from: ["street": "Main", "number": "12"]) }
    }
}

/// A flow whose routes carry every kind of param, for the engine's checks and the catalog.
private enum Shop: AppSchema {}

private struct OrderFlow: Flow {
    typealias App = Shop
    typealias Route = Order
    enum Screen: FlowScreen {
        case form
        enum CodingKeys: CodingKey, CaseIterable { case form }
    }
    func routes(on screen: Screen.Name) -> [Route.Name] { [.pick, .ship, .cancel] }
    func start(_ flow: inout FlowContext<Self>) throws { flow.show(.form) }
    func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
        flow.model["last"] = try JSONValueEncoder().encode(route)
    }
    func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
        ScreenContent(title: "Order", components: [flow.button("Cancel", route: .cancel), flow.button("Pick", submitting: .pick)])
    }
}

@Suite struct TypedParamTests {
    let engine = Engine(try! Application(scheme: "shop", root: OrderFlow(), flows: []))

    @Test func theCatalogListsEachParamsTypeOptionalityAndAllowedValues() throws {
        let pick = try #require(engine.app.catalog.flows.first?.routes.first { $0.name == "pick" })
        #expect(pick.params == [
            ParamSpec("size", .string, values: ["small", "large"]),
            ParamSpec("level", .integer, required: false, values: ["1", "2"]),
            ParamSpec("note", .string, required: false),
        ])
        let ship = try #require(engine.app.catalog.flows.first?.routes.first { $0.name == "ship" })
        #expect(ship.params.map(\.type) == [.object, .boolean, .number, .array])
        #expect(ship.screens == ["form"])
    }

    @Test func everyBadParamIsRefusedBeforeTheFlowRuns() throws {
        let state = try engine.start(session: "s", context: [:])
        #expect(throws: NavigationError.invalidParams([
            InvalidParam(name: "size", reason: "must be one of small, large"),
            InvalidParam(name: "level", reason: "must be one of 1, 2"),
            InvalidParam(name: "note", reason: "must be a string, not a boolean"),
        ])) {
            try engine.reduce(state, .trigger(RouteRequest("pick", params: ["size": "huge", "level": 3, "note": true])))
        }
        // The JSON types are right, a member inside is not: named by its path.
        #expect(throws: NavigationError.invalidParam("address.number", "must be an integer, not a string")) {
            try engine.reduce(
                state, .trigger(RouteRequest("ship", params: ["address": ["street": "M", "number": "1"], "express": true, "weight": 1, "tags": []])))
        }
    }

    @Test func theFlowGetsTheDecodedCase() throws {
        let state = try engine.start(session: "s", context: [:])
        let next = try engine.reduce(state, .trigger(RouteRequest("pick", params: ["size": "small", "level": 1]))).state
        #expect(next.model["last"] == ["pick": ["size": "small", "level": 1, "note": nil]])
        #expect(engine.render(next).stack.last?.components == [
            .button("Cancel", route: "cancel"), .button("Pick", route: "pick", submit: true),
        ])
    }
}

/// Integer and floating-point types other than `Int` and `Double` (a flow's data holding a
/// timestamp as `Int64`, a byte as `UInt8`): encoded as JSON numbers and read back, where they
/// once recursed until the stack overflowed.
@Suite struct JSONValueOtherNumberTests {
    struct Numbers: Codable, Hashable {
        var millis: Int64
        var byte: UInt8
        var small: [Int16]
        var ratio: Float
        var big: UInt64
    }

    @Test func otherNumbersRoundTrip() throws {
        let numbers = Numbers(millis: 1_767_225_600_000, byte: 255, small: [-3, 7], ratio: 0.5, big: 42)
        let json = try JSONValueEncoder().encode(numbers)
        #expect(json["millis"] == .int(1_767_225_600_000))
        #expect(json["byte"] == .int(255))
        #expect(json["ratio"] == .double(0.5))
        #expect(try JSONValueDecoder().decode(Numbers.self, from: json) == numbers)
    }

    @Test func aNumberThatDoesNotFitIsRefused() throws {
        #expect(throws: (any Error).self) { try JSONValueEncoder().encode(["n": UInt64.max]) }
        let tooBig: JSONValue = ["millis": 1, "byte": 256, "small": [], "ratio": 1, "big": 1]
        #expect(throws: JSONValueDecodingError.self) { try JSONValueDecoder().decode(Numbers.self, from: tooBig) }
    }
}
