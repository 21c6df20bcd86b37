import DemoApp
import Testing
import WayfinderCore

/// The storage codec keeps every part of a state, in every shape the sample app produces.
@Suite struct StateCodecTests {
    /// States along a long walk: onboarding, login with a notice, tabs, modal, pushed flows.
    func walk() throws -> [SessionState] {
        var d = try Driver(["platform": "web"])
        var states = [d.state]
        func step(_ body: (inout Driver) throws -> Void) throws {
            try body(&d)
            states.append(d.state)
        }
        try step { try $0.route("skip") }
        try step { try $0.route("login", ["email": "nope", "password": "x"]) }
        try step { try $0.link("wayfinder://todos/3") }
        try step { try $0.route("login", ["email": "a@b.c", "password": "12345678"]) }
        try step { try $0.route("updateTodo", ["title": " ", "completed": true]) }
        try step { try $0.tab("profile") }
        try step { try $0.route("changePassword") }
        try step { try $0.link("wayfinder://todos/new") }
        return states
    }

    @Test func encodeThenDecodeGivesTheSameState() throws {
        for state in try walk() {
            #expect(try StateCodec.decode(StateCodec.encode(state), session: state.session) == state)
        }
    }

    @Test func encodingIsDeterministic() throws {
        for state in try walk() {
            #expect(StateCodec.encode(state) == StateCodec.encode(try StateCodec.decode(StateCodec.encode(state), session: state.session)))
        }
    }

    @Test func malformedBytesThrowANamedError() throws {
        let state = try Driver().state
        var bytes = StateCodec.encode(state)
        #expect(throws: StateCodec.DecodingError.self) { try StateCodec.decode(Array("{}".utf8), session: "x") }
        #expect(throws: StateCodec.DecodingError.self) { try StateCodec.decode(Array("not json".utf8), session: "x") }
        bytes.removeLast(5)
        #expect(throws: StateCodec.DecodingError.self) { try StateCodec.decode(bytes, session: "x") }
        let wrongVersion = StateCodec.encode(state).replacing(Array(#""v":1"#.utf8), with: Array(#""v":2"#.utf8))
        #expect(throws: StateCodec.DecodingError(path: "$.v")) { try StateCodec.decode(wrongVersion, session: "x") }
    }
}
