import WayfinderCore

/// Version 2 of the notes app (see ``NotesV1``), with a migration for every change:
/// `signin` is now `auth` (its route `signIn(mail:)` is `login(email:)`), the list screen is
/// `notes`, a note's screen value `note` is `id`, statistics show the list instead, the archive
/// screen is gone, the tips flow is replaced by help, `add` takes a required priority (an enum, an
/// integer before), `open(note:)` is `open(id:)`, links are `notes/{id}`, and the model keeps
/// notes with ids.
///
///     app ── auth (form)
///         └─ notes (notes, detail(id:)) ── help (help)
public enum NotesV2 {
    /// Version 2's types: the shared context, ``Model2`` and ``Link2``.
    public enum App: AppSchema {
        public typealias Context = NotesContext
        public typealias Model = Model2
        public typealias Link = Link2
    }

    /// A note of version 2's model.
    public struct Note: Codable, Sendable, Hashable {
        /// The note's id, unique in the model.
        public var id: String
        /// What the user wrote.
        public var text: String
    }

    /// Version 2's model: notes with ids.
    public struct Model2: AppModel {
        /// The notes, oldest first.
        public var items: [Note] = []
        /// The id the next note gets.
        public var nextID = 1
        /// No notes.
        public init() {}
    }

    /// Version 2's deep links: `notes://notes/{id}`.
    public enum Link2: DeepLinkDestination {
        /// One note, by its id.
        case note(id: String)
        /// The link patterns.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            /// `notes/{id}`.
            case note = "notes/{id}"
        }
    }

    enum Priority: String, Codable, CaseIterable, Sendable, Hashable { case low, normal, high }

    /// The screen a client that cannot render a note's screen gets.
    static let updateRequired = ScreenContent(
        title: "Please update", components: [.heading("Please update"), .text("This version of the app cannot show notes any more.")])

    /// Every change since version 1, by a name tests use to leave one out.
    static let changes: KeyValuePairs<String, Migration<App>.Change> = [
        "flow signin": .renamed(flow: "signin", to: AuthFlow.self),
        "route signIn": .renamed(route: "signIn", to: .login, in: AuthFlow.self),
        "param mail": .renamed(param: "mail", to: "email", of: .login, in: AuthFlow.self),
        "screen list": .renamed(screen: "list", to: .notes, in: NotesFlow.self),
        "screen value note": .renamed(screenParam: "note", to: "id", of: .detail, in: NotesFlow.self),
        "screen stats": .removed(screen: "stats", in: NotesFlow.self, showing: .notes),
        "screen archive": .removed(screen: "archive", in: NotesFlow.self),
        "flow tips": .removed(flow: "tips", replacedBy: HelpFlow.self),
        "route showStats": .removed(route: "showStats", in: NotesFlow.self),
        "route showArchive": .removed(route: "showArchive", in: NotesFlow.self),
        "route tips": .renamed(route: "tips", to: .help, in: NotesFlow.self),
        "param note": .renamed(param: "note", to: "id", of: .open, in: NotesFlow.self),
        "param priority type": .converted(param: "priority", of: .add, in: NotesFlow.self) { old in
            old.intValue.map { .string($0 >= 2 ? "high" : $0 == 1 ? "normal" : "low") }
        },
        "param priority required": .defaulted(param: "priority", of: .add, in: NotesFlow.self, to: "normal"),
        "deep link note": .renamed(deepLink: "note/{id}", to: .note),
        "model": .model(from: NotesV1.Model1.self) { old in
            var model = Model2()
            for text in old.notes {
                model.items.append(Note(id: String(model.nextID), text: text))
                model.nextID += 1
            }
            return model
        },
    ]

    /// The migration to version 2, without the changes named in `omitted`, with `extra` ones.
    static func migrations(without omitted: Set<String> = [], adding extra: [Migration<App>.Change] = []) -> [Migration<App>] {
        [Migration(to: "2", changes.filter { !omitted.contains($0.key) }.map(\.value) + extra)]
    }

    /// Version 2 of the app, with its migration from version 1.
    public static func makeApplication() throws -> Application {
        try makeApplication(migrations: migrations())
    }

    /// Version 2 with other migrations (tests leave some out, or declare others).
    static func makeApplication(migrations: [Migration<App>]) throws -> Application {
        try Application(
            scheme: "notes", version: "2", root: AppFlow(), flows: [AuthFlow(), NotesFlow(), HelpFlow()], migrations: migrations,
            updateRequired: updateRequired)
    }

    struct AppFlow: Flow {
        typealias App = NotesV2.App
        let children: [any Flow.Type] = [AuthFlow.self, NotesFlow.self]

        func start(_ flow: inout FlowContext<Self>) throws {
            if flow.context.signedIn {
                try flow.startChild(NotesFlow.self, placement: .root)
            } else {
                try flow.startChild(AuthFlow.self, placement: .root)
            }
        }

        func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws { try start(&flow) }

        func openDeepLink(_ link: Link2, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
            try flow.offer(link, to: NotesFlow.self) ?? .deferred
        }
    }

    struct AuthFlow: Flow {
        typealias App = NotesV2.App
        enum Screen: FlowScreen {
            case form
            enum CodingKeys: CodingKey, CaseIterable { case form }
        }
        enum Route: FlowRoute {
            case login(email: String)
            enum CodingKeys: CodingKey, CaseIterable { case login }
        }

        func routes(on screen: Screen.Name) -> [Route.Name] { [.login] }
        func start(_ flow: inout FlowContext<Self>) throws { flow.show(.form) }

        func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
            guard case .login(let email) = route, email.contains("@") else {
                return flow.showNotice(Notice(.error, "Enter an email address."))
            }
            flow.context.signedIn = true
            flow.context.user = email
            try flow.finish()
        }

        func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
            ScreenContent(
                title: "Sign in",
                components: (flow.notice.map { [.notice($0)] } ?? []) + [
                    .field(name: "email", label: "Email", value: "", kind: .email), flow.button("Sign in", submitting: .login),
                ])
        }
    }

    struct NotesFlow: Flow {
        typealias App = NotesV2.App
        enum Screen: FlowScreen {
            case notes, detail(id: String)
            enum CodingKeys: CodingKey, CaseIterable { case notes, detail }
        }
        enum Route: FlowRoute {
            case add(text: String, priority: Priority)
            case open(id: String)
            case help, delete
            enum CodingKeys: CodingKey, CaseIterable { case add, open, help, delete }
        }
        let children: [any Flow.Type] = [HelpFlow.self]
        let deepLinks: [Link2.Name] = [.note]

        func routes(on screen: Screen.Name) -> [Route.Name] {
            switch screen {
            case .notes: [.add, .open, .help]
            case .detail: [.delete]
            }
        }

        func start(_ flow: inout FlowContext<Self>) throws { flow.show(.notes) }

        func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
            switch (route, screen) {
            case (.add(let text, let priority), _):
                flow.model.items.append(Note(id: String(flow.model.nextID), text: priority == .high ? text + " !" : text))
                flow.model.nextID += 1
            case (.open(let id), _): flow.push(.detail(id: id))
            case (.help, _): try flow.startChild(HelpFlow.self, placement: .push)
            case (.delete, .detail(let id)):
                flow.model.items.removeAll { $0.id == id }
                try flow.pop()
            case (.delete, _): break
            }
        }

        func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws { try flow.popToOwnTop() }

        func openDeepLink(_ link: Link2, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
            guard case .note(let id) = link else { return .declined }
            try flow.reset(pushing: [.detail(id: id)])
            return .opened
        }

        func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
            switch screen {
            case .notes:
                let items = flow.model.items.map { Component.ListItem(id: $0.id, title: $0.text, action: flow.action(.open(id: $0.id))) }
                return ScreenContent(
                    title: "Notes",
                    components: [.list(items), .field(name: "text", label: "New note", value: "", kind: .text), flow.button("Add", submitting: .add)])
            case .detail(let id):
                let text = flow.model.items.first { $0.id == id }?.text ?? "Deleted note"
                return ScreenContent(
                    title: "Note \(id)",
                    components: [.image(url: "/notes/\(id).png", alt: ""), .heading(text), flow.button("Delete", .destructive, route: .delete)])
            }
        }

        /// An older client without images sees where the photo would be.
        func fallback(for component: Component, on screen: Screen, _ flow: FlowContext<Self>) -> ComponentFallback {
            guard case .image = component, case .detail(let id) = screen else { return .generic }
            return .components([.text("Photo of note \(id)")])
        }
    }

    struct HelpFlow: Flow {
        typealias App = NotesV2.App
        enum Screen: FlowScreen {
            case help
            enum CodingKeys: CodingKey, CaseIterable { case help }
        }
        enum Route: FlowRoute {
            case close
            enum CodingKeys: CodingKey, CaseIterable { case close }
        }

        func routes(on screen: Screen.Name) -> [Route.Name] { [.close] }
        func start(_ flow: inout FlowContext<Self>) throws { flow.show(.help) }
        func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws { try flow.finish() }

        func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
            ScreenContent(title: "Help", components: [.text("Swipe a note to delete it.")])
        }
    }
}
