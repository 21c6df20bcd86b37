import Foundation
import Testing
import WayfinderClient

/// A newer server never breaks an older client: component kinds, enumeration values and members
/// the client does not know decode (as `unknown`, as raw values, or ignored).
@Suite(.timeLimit(.minutes(1))) struct UnknownComponentTests {
    /// What a newer server might add to the sample app's screens.
    static let newer: @Sendable (String) -> String = { body in
        body.replacingOccurrences(of: #""components":["#, with: #""components":[{"type":"carousel","slides":[{"url":"/a.png"}],"interval":3},"#)
            .replacingOccurrences(of: #""style":"primary""#, with: #""style":"glowing""#)
            .replacingOccurrences(of: #""presentation":"root""#, with: #""presentation":"root","busy":true"#)
            .replacingOccurrences(of: #""revision":"#, with: #""serverVersion":"9.9","revision":"#)
    }

    @Test func aComponentKindTheClientDoesNotKnowDecodesAsUnknown() async throws {
        let setup = try await Proxied.start()
        defer { setup.stop() }
        let known = try #require(await setup.direct.state?.top)
        setup.proxy.on({ $0.hasPrefix("GET ") }, once: false, .rewriteBody(Self.newer))
        let session = setup.session

        let state = try await session.refresh()

        let top = try #require(state.top)
        guard case .unknown(let carousel) = top.components.first else {
            Issue.record("not unknown: \(String(describing: top.components.first))")
            return
        }
        #expect(carousel.type == "carousel")
        #expect(carousel.json["interval"] == 3)
        #expect(carousel.json["slides"]?.arrayValue?.first?["url"] == "/a.png")
        #expect(Array(top.components.dropFirst().map(\.type)) == known.components.map(\.type), "the rest decodes as before")
        let styles = top.components.compactMap { if case .button(let button) = $0 { button.style } else { nil } }
        #expect(styles.contains(WireComponent.Button.Style(rawValue: "glowing")))
        #expect(!styles.contains(.primary))
        // The same holds for the screens in the navigation tree; members the client does not
        // know (`busy`, `serverVersion`) are ignored.
        #expect(NavigationLayers(state).top == top)
    }

    @Test func aNavigationNodeKindTheClientDoesNotKnowFallsBackToTheFlatStack() throws {
        func screen(_ id: String, _ presentation: String) -> String {
            #"{"id":"\#(id)","name":"n","title":"T\#(id)","coordinator":"c1","presentation":"\#(presentation)","routes":[],"components":[]}"#
        }
        let json = """
            {"session":"x","revision":4,"context":{"anything":[1,2]},"coordinators":{"id":"c0","flow":"app","children":[]},
             "navigation":{"kind":"split","coordinator":"c1","panes":[]},
             "stack":[\(screen("s1", "root")),\(screen("s2", "push")),\(screen("s3", "sheet"))],"pendingDeepLink":null}
            """
        let state = try JSONDecoder().decode(WireState.self, from: Data(json.utf8))
        #expect(state.navigation == .unknown(kind: "split"))
        #expect(state.context["anything"] == [1, 2])
        #expect(state.context.authenticated == nil)
        let snapshot = NavigationLayers(state)
        #expect(snapshot.layers.map { $0.screens.map(\.id) } == [["s1", "s2"], ["s3"]])
        #expect(snapshot.top?.id == "s3")
    }

    @Test func aKnownComponentWithMembersTheClientCannotReadDecodesAsUnknown() throws {
        let json = #"[{"type":"button","title":"No action"},{"type":"heading","text":"Fine"},{"text":"no type"}]"#
        let components = try JSONDecoder().decode([WireComponent].self, from: Data(json.utf8))
        #expect(components.map(\.type) == ["button", "heading", ""])
        #expect(components[1] == .heading("Fine"))
        guard case .unknown(let button) = components[0] else { return #expect(Bool(false)) }
        #expect(button.json["title"] == "No action")
    }

    @Test func everyComponentKindRoundTrips() throws {
        let components: [WireComponent] = [
            .heading("H"), .text("T"), .notice(.init(style: .info, text: "N")),
            .field(.init(name: "f", label: "F", value: "v", kind: .multiline)),
            .toggle(.init(name: "t", label: "T", value: true)),
            .button(.init(title: "B", style: .destructive, action: RouteAction("r", params: ["id": "2", "n": 3, "ok": true]), submit: true)),
            .list([.init(id: "1", title: "One", subtitle: "", checked: true, action: RouteAction("open", params: ["id": "1"]))]),
            .image(.init(url: "/i.svg", alt: "I")),
            .unknown(UnknownComponent(type: "chart", json: ["type": "chart", "points": [1.5, 2]])),
        ]
        let data = try JSONEncoder().encode(components)
        #expect(try JSONDecoder().decode([WireComponent].self, from: data) == components)
        try Wire.roundTrips([WireComponent].self, data)
    }
}
