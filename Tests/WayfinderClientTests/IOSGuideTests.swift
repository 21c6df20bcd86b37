// docs/ios-client.md, "Use Wayfinder from an iOS app": the guide's compiled code blocks, verbatim
// (the test at the end of this file checks that each one is here), run against the live server.

import Foundation
import WayfinderClient

/// Comes back to the session the app kept, or starts a new one (and says so, so that the app
/// stores the new credentials).
func openSession(on server: URL, saved: SessionCredentials?) async throws -> (session: WayfinderSession, isNew: Bool) {
    if let saved {
        do {
            return (try await WayfinderSession.resume(on: server, credentials: saved), false)
        } catch let error where error.sessionIsGone {
            // Ended or expired: start a new one below.
        }
    }
    let session = try await WayfinderSession.create(on: server, context: ["onboarded": true, "platform": "phone"])
    return (session, true)
}

import WayfinderClient

/// A line of text for a component (a real app returns a view).
func summary(of component: WireComponent) -> String {
    switch component {
    case .heading(let text), .text(let text): text
    case .notice(let notice): "\(notice.style == .error ? "Error" : "Note"): \(notice.text)"
    case .field(let field): "\(field.label): \(field.kind == .password ? "••••" : field.value)"
    case .toggle(let toggle): "\(toggle.label): \(toggle.value ? "on" : "off")"
    case .button(let button): "[\(button.title)]"
    case .list(let items): items.map(\.title).joined(separator: ", ")
    case .image(let image): image.alt
    case .unknown(let unknown): "(\(unknown.type) needs a newer app)"
    }
}

import WayfinderClient

/// Signs in on a screen with `email` and `password` fields and a submit button for `login`.
func signIn(_ session: WayfinderSession, on screen: Screen, email: String, password: String) async throws -> ActionResult? {
    var form = screen.formValues
    form["email"] = .string(email)
    form["password"] = .string(password)
    for case .button(let button) in screen.components where button.submit && button.action.route == "login" {
        return try await session.trigger(form.action(for: button))
    }
    return nil
}

import WayfinderClient

/// Prints each screen as it changes, until the session ends or the task is cancelled.
func printScreens(of session: WayfinderSession) async {
    do {
        for try await state in session.events() {
            print(state.revision, state.top?.title ?? "")
        }
    } catch {
        print("the session ended: \(error)")
    }
}

import WayfinderClient

/// What a UIKit coordinator does with each update (here: describes it).
@MainActor
func describeUpdates(of model: NavigationModel) async -> [String] {
    var lines: [String] = []
    for await update in model.updates() {
        for transition in update.transitions {
            switch transition.op {
            case .push: lines.append("push \(transition.screens)")
            case .pop: lines.append("pop \(transition.screens)")
            case .present: lines.append("present \(update.snapshot.modals.last?.presentation.rawValue ?? "")")
            case .dismiss: lines.append("dismiss \(transition.screens)")
            case .selectTab: lines.append("select \(transition.tab ?? "")")
            default: lines.append("\(transition.op) \(transition.screens)")
            }
        }
        if update.transitions.isEmpty { lines.append("show revision \(update.state.revision)") }
        if update.snapshot.top?.name == "profile" { break }
    }
    return lines
}

// MARK: - The guide's code, run

import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct IOSGuideTests {
    @Test func everyCompiledBlockOfTheGuideIsInThisFile() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("docs/ios-client.md"), encoding: .utf8)
        let me = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let blocks = guide.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        let compiled = blocks.filter { !$0.hasPrefix("// Not compiled here") }
        #expect(compiled.count == 5)
        #expect(blocks.count > compiled.count, "the SwiftUI part is in the guide too")
        for block in compiled {
            let verbatim = me.contains(block)
            #expect(verbatim, "not verbatim in IOSGuideTests.swift:\n\(block)")
        }
    }

    @Test func openingASessionResumesTheKeptOneOrStartsANewOne() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let first = try await openSession(on: server.url, saved: nil)
        #expect(first.isNew)
        let again = try await openSession(on: server.url, saved: first.session.credentials)
        #expect(!again.isNew)
        #expect(again.session.credentials == first.session.credentials)
        try await first.session.end()
        let replaced = try await openSession(on: server.url, saved: first.session.credentials)
        #expect(replaced.isNew)
        #expect(replaced.session.credentials != first.session.credentials)
    }

    @Test func signingInWithTheFormAndSummarisingEveryComponent() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let (session, _) = try await openSession(on: server.url, saved: nil)
        let login = try #require(await session.state?.top)
        #expect(!login.components.map(summary(of:)).contains { $0.contains("needs a newer app") })
        let result = try #require(try await signIn(session, on: login, email: "ada@example.com", password: "correct horse battery"))
        #expect(NavigationLayers(result.state).tabBar != nil)
        #expect(result.state.top?.components.map(summary(of:)).isEmpty == false)
    }

    @Test func followingTheEventsEndsWithTheSession() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let (session, _) = try await openSession(on: server.url, saved: nil)
        let printing = Task { await printScreens(of: session) }
        try await session.trigger("register")
        try await session.end()
        await printing.value
    }

    @Test func aUIKitCoordinatorSeesEveryTransition() async throws {
        let server = try LiveServer()
        defer { server.stop() }
        let session = try await WayfinderSession.create(
            on: server.url, context: ["onboarded": true], identity: TestIdentity.token("ada@example.com"))
        let model = NavigationModel(session: session, state: await session.state)
        let described = Task { await describeUpdates(of: model) }
        await Task.yield()
        await model.selectTab("todos")
        await model.trigger(try #require(model.top?.button("addTodo")).action)
        await model.goBack()
        await model.openDeepLink("wayfinder://profile")
        let lines = await described.value
        #expect(lines.first == "select todos")
        #expect(lines.contains { $0.hasPrefix("present ") })
        #expect(lines.contains { $0.hasPrefix("dismiss ") })
        #expect(lines.last == "select profile")
    }
}
