import Foundation
import Testing
@testable import WayfinderAPI
import WayfinderCore

/// Issue 45, part 2: shape 2 (`Wayfinder-Shape: 2`, `?shape=2`) sends each screen once; a client
/// that says nothing gets the bytes it always got.
@Suite struct ShapeTests {
    static let two = [("Wayfinder-Shape", "2")]

    /// The sample app's to-dos story, one step at a time (each answer checked by `check`).
    func story(_ c: Client, _ s: Session, headers: [(String, String)], _ check: (String, Reply) throws -> Void) throws {
        try check("tab todos", try c.tab(s, "todos", headers: headers))
        try check("addTodo", try c.route(s, "addTodo", headers: headers))
        try check("saveTodo", try c.route(s, "saveTodo", ["title": "Milk", "description": "two litres"], headers: headers))
        try check("showTodo", try c.route(s, "showTodo", ["id": "1"], headers: headers))
        try check("back", try c.back(s, headers: headers))
    }

    /// The state as the renderer the wire had before shapes writes it (`RenderedState`).
    func todaysBytes(_ server: InProcessServer, _ s: Session) throws -> [UInt8] {
        let stored = try #require(try server.api.store.load(id: s.id, now: WallClock.nowMillis()))
        return demoEngine.render(try StateCodec.decode(stored.state, session: s.id)).jsonBytes
    }

    /// Every screen of a navigation node by id.
    func screens(_ node: J, into byID: inout [String: J]) {
        for screen in node["screens"].array { byID[screen["id"].string ?? ""] = screen }
        for tab in node["tabs"].array { screens(tab["root"], into: &byID) }
        if node["modal"].isObject { screens(node["modal"], into: &byID) }
    }

    /// A shape-2 state's `stack` with each id replaced by its screen from `navigation`.
    func resolved(_ state: J) throws -> [String] {
        var byID: [String: J] = [:]
        screens(state["navigation"], into: &byID)
        return try state["stack"].array.map { id in
            let name = try #require(id.string, "not an id: \(id)")
            return try #require(byID[name], "\(name) is not in navigation").canonical
        }
    }

    @Test func aClientThatSaysNothingGetsTodaysBytes() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        try story(c, s, headers: []) { step, answer in
            #expect(answer.status == 200, "\(step): \(answer)")
            let today = try todaysBytes(server, s)
            #expect(answer.body.starts(with: Array(#"{"state":"#.utf8) + today), "\(step)")
            #expect(try c.get(s).body == today, "\(step)")
            #expect(try c.get(s, headers: [("Wayfinder-Shape", "1")]).body == today, "\(step)")
            #expect(try c.get(s, headers: [("Wayfinder-Shape", "one")]).body == today, "\(step)")
        }
    }

    @Test func shapeTwoSendsEachScreenOnceAndMeansTheSame() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        let other = try c.signedInSession()
        try story(c, other, headers: []) { _, _ in }
        var stories: [String: Reply] = [:]
        try story(c, s, headers: Self.two) { step, answer in stories[step] = answer }
        let ordered = ["tab todos", "addTodo", "saveTodo", "showTodo", "back"]
        for step in ordered {
            let answer = try #require(stories[step])
            #expect(answer.status == 200, "\(step): \(answer)")
            #expect(answer.state["stack"].array.allSatisfy { $0.string != nil }, "\(step): \(answer)")
        }
        // The same state in both shapes: shape 2's ids name the very screens shape 1 sends.
        let full = try c.get(s)
        for declared in ["2", "3", " 2"] {
            let ids = try c.get(s, headers: [("Wayfinder-Shape", declared)])
            #expect(try resolved(ids.json) == full.json["stack"].array.map(\.canonical), "\(declared)")
            #expect(ids.json["navigation"].canonical == full.json["navigation"].canonical)
            #expect(ids.body.count < full.body.count)
            #expect(ids.header("ETag") == full.header("ETag"))
        }
        // A modal on top: its screens are in navigation once, and in stack by id.
        let sheet = try c.route(s, "addTodo", headers: Self.two)
        #expect(try resolved(sheet.state) == (try c.get(s)).json["stack"].array.map(\.canonical))
    }

    @Test func eventStreamsSendTheShapeTheyAskFor() throws {
        let server = try InProcessServer()
        defer { server.stop() }
        let c = server.client()
        let s = try c.signedInSession()
        let url = c.base + s.path + "/events?access_token=" + s.token
        let two = EventReader(url: url + "&shape=2")
        let one = EventReader(url: url)
        let byHeader = EventReader(url: url, headers: Self.two)
        defer {
            two.stop()
            one.stop()
            byHeader.stop()
        }
        for _ in 0..<2 {
            let (a, b, h) = (try #require(two.next()), try #require(one.next()), try #require(byHeader.next()))
            #expect(a.json["stack"].array.allSatisfy { $0.string != nil })
            #expect(h.json.canonical == a.json.canonical)
            #expect(try resolved(a.json) == b.json["stack"].array.map(\.canonical))
            #expect(b.json["stack"].array.allSatisfy { $0.isObject })
            _ = try c.tab(s, "todos")
        }
    }
}
