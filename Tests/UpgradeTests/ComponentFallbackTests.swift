@testable import NotesApp
import Testing
@testable import WayfinderCore
import WayfinderTesting

/// Old clients: a client names the components it renders; the rest are replaced by the flow's
/// fallback or the generic one, and a screen that cannot be shown becomes the app's
/// update-required screen.
@Suite struct ComponentFallbackTests {
    func onSecondNote(closed: Bool = false) throws -> TestSession { try Sessions.v2OnSecondNote(closed: closed) }

    func without(_ kinds: Component.Kind...) -> ClientComponents {
        ClientComponents(kinds: Component.Kind.allCases.filter { !kinds.contains($0) })
    }

    @Test func aClientNamesKindsAndVersionsAndTheRestIsIgnored() {
        let client = ClientComponents(header: " heading , text;v=2,list;v=0, carousel;v=4, image;v=x, button ; v=3 ;q=1")
        #expect(client.renders(.heading) && client.renders(.text, version: 2) && !client.renders(.text, version: 3))
        #expect(!client.renders(.list) && !client.renders(.image) && !client.renders(.field))
        #expect(client.renders(.button, version: 3))
        #expect(client.description == "heading, text;v=2, button;v=3")
        #expect(ClientComponents(header: client.description) == client)
        #expect(!client.rendersEverything)
        #expect(ClientComponents(header: "heading, text, notice, field, toggle, button, list, image").rendersEverything)
        #expect(ClientComponents.all.description == "heading, text, notice, field, toggle, button, list, image")
        #expect(ClientComponents(header: "").description == "")
    }

    @Test func aClientThatRendersEverythingGetsTheScreenAsTheFlowRendersIt() throws {
        let session = try onSecondNote()
        let everything = ClientComponents(header: ClientComponents.all.description)
        #expect(session.topScreen(for: everything) == session.topScreen)
        #expect(session.topScreen?.components.first == .image(url: "/notes/2.png", alt: ""))
    }

    @Test func aMissingImageGetsTheFlowsFallbackAndAMissingHeadingBecomesText() throws {
        let session = try onSecondNote()
        let screen = try #require(session.topScreen(for: without(.image, .heading)))
        #expect(screen.title == "Note 2")
        #expect(screen.components == [.text("Photo of note 2"), .text("Eggs"), .button("Delete", .destructive, route: "delete")])
        #expect(screen.routes == ["delete"])
    }

    @Test func aMissingListBecomesAButtonPerItem() throws {
        let session = try onSecondNote(closed: true)
        let screen = try #require(session.topScreen(for: without(.list)))
        #expect(screen.components.prefix(2) == [
            .button(title: "Milk", style: .secondary, action: Component.Action("open", params: ["id": "1"]), submit: false),
            .button(title: "Eggs", style: .secondary, action: Component.Action("open", params: ["id": "2"]), submit: false),
        ])
        // Without buttons either, a list cannot be replaced: the screen cannot be shown.
        #expect(session.topScreen(for: without(.list, .button))?.title == "Please update")
    }

    @Test func aScreenThatCannotBeShownBecomesTheUpdateRequiredScreenWithItsIdAndRoutes() throws {
        let session = try onSecondNote(closed: true)
        let top = try #require(session.topScreen)
        let screen = try #require(session.topScreen(for: without(.field)))
        #expect(screen.title == "Please update")
        #expect(screen.components == NotesV2.updateRequired.components)
        #expect(screen.id == top.id && screen.name == "notes" && screen.routes == top.routes)
    }

    @Test func aFallbackTheClientCannotRenderEitherMakesTheScreenUnshowable() throws {
        let session = try onSecondNote()
        // The flow's fallback for the image is a text: a client without text cannot have it.
        #expect(session.topScreen(for: without(.image, .text))?.title == "Please update")
        // An image without a description is simply left out by the generic fallback.
        let content = ScreenContent(title: "t", components: [.image(url: "/a.png", alt: ""), .text("x")])
        #expect(content.adapted(for: without(.image)) { _ in .generic } == ScreenContent(title: "t", components: [.text("x")]))
    }

    @Test func aRenderMemoNeverGivesOneClientAnothersBytes() throws {
        let session = try onSecondNote()
        let engine = session.engine, state = session.state
        let old = without(.image, .heading)
        var memo = RenderMemo()
        let forOld = engine.renderJSON(state, memo: &memo, for: old)
        #expect(forOld == engine.render(state, for: old).jsonBytes)
        let forNew = engine.renderJSON(state, memo: &memo)
        #expect(forNew == engine.render(state).jsonBytes && forNew != forOld)
        #expect(memo.lastReused == 0, "nothing rendered for the old client is reused for the new one")
        #expect(engine.renderJSON(state, memo: &memo, for: old) == forOld)
    }

    @Test func anAppWithoutItsOwnUpdateRequiredScreenGetsTheDefault() throws {
        let v1 = try NotesV1.makeApplication()
        let session = try TestSession(v1)
        #expect(v1.updateRequired == .updateRequired)
        #expect(session.topScreen(for: without(.field))?.components == ScreenContent.updateRequired.components)
    }
}
