import Foundation
@testable import NotesApp
import Testing
import WayfinderCore

/// Old clients through libcurl: a client that names an older component set in
/// `Wayfinder-Components` (or `?components=` on the event stream) gets the flows' fallbacks and
/// the update-required screen, and never another client's bytes.
@Suite struct OldClientTests {
    static let withoutImages = "heading, text, notice, field, toggle, button, list"

    func components(_ value: String) -> [(String, String)] { [("Wayfinder-Components", value)] }

    /// The top screen's components of a state.
    func top(_ state: J) -> [String] { state["stack"].last["components"].array.map(\.canonical) }

    @Test func aClientWithoutImagesGetsTheFlowsFallbackAndOthersDoNot() throws {
        let server = try InProcessServer(engine: Engine(try NotesV2.makeApplication()))
        defer { server.stop() }
        let c = server.client()
        let old = components(Self.withoutImages)
        let created = try c.call("POST", "/v1/sessions", json: #"{"context":{"signedIn":true}}"#, headers: old)
        #expect(created.status == 201)
        let s = Session(id: try #require(created.json["id"].string), token: try #require(created.json["token"].string), created: created)
        #expect(try c.route(s, "add", ["text": "Milk", "priority": "normal"], headers: old).status == 200)
        let opened = try c.route(s, "open", ["id": "1"], headers: old)
        #expect(opened.status == 200)
        let fallback = #"{"text":"Photo of note 1","type":"text"}"#
        let image = #"{"alt":"","type":"image","url":"/notes/1.png"}"#
        #expect(top(opened.state).first == fallback, "\(opened)")
        // Old and new clients alternate on one session: each gets its own rendering every time.
        for _ in 0..<3 {
            let oldRead = try c.get(s, headers: old)
            #expect(oldRead.status == 200 && top(oldRead.json).first == fallback)
            let newRead = try c.get(s)
            #expect(newRead.status == 200 && top(newRead.json).first == image)
            #expect(oldRead.header("ETag") == newRead.header("ETag"))
        }
        let everything = try c.get(s, headers: components(ClientComponents.all.description))
        #expect(everything.body == (try c.get(s)).body, "a client naming every kind gets the full rendering")

        let oldStream = EventReader(url: c.base + s.path + "/events?access_token=" + s.token + "&components=" + Self.withoutImages.replacingOccurrences(of: " ", with: "%20"))
        let newStream = EventReader(url: c.base + s.path + "/events?access_token=" + s.token)
        defer {
            oldStream.stop()
            newStream.stop()
        }
        #expect(oldStream.next().map { top($0.json).first } == fallback)
        #expect(newStream.next().map { top($0.json).first } == image)
        #expect(try c.back(s).status == 200)
        #expect(oldStream.next()?.json["stack"].last["name"].string == "notes")
        #expect(newStream.next()?.json["stack"].last["name"].string == "notes")
    }

    @Test func aScreenAClientCannotRenderIsTheUpdateRequiredScreenWithItsIdAndRoutes() throws {
        let server = try InProcessServer(engine: Engine(try NotesV2.makeApplication()))
        defer { server.stop() }
        let c = server.client()
        let s = try c.createSession(#"{"context":{"signedIn":true}}"#)
        let full = try c.get(s).json["stack"].last
        let noFields = try c.get(s, headers: components("heading, text, notice, toggle, button, list, image"))
        #expect(noFields.status == 200)
        let screen = noFields.json["stack"].last
        #expect(screen["title"].string == "Please update")
        #expect(screen["components"].canonical == #"[{"text":"Please update","type":"heading"},{"text":"This version of the app cannot show notes any more.","type":"text"}]"#)
        #expect(screen["id"] == full["id"] && screen["name"] == full["name"] && screen["routes"] == full["routes"])
    }
}
