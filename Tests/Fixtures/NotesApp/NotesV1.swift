import WayfinderCore

/// Version 1 of a small notes app, for the tests of live upgrades (its version 2 is
/// ``NotesV2``): sign in, a list of notes with a detail, statistics and an archive screen, and a
/// tips flow pushed over the list.
///
///     app ── signin (form)
///         └─ notes (list, detail(note:), stats, archive) ── tips (tip(page:))
public enum NotesV1 {
    /// Version 1's types: the shared context, ``Model1`` and ``Link1``.
    public enum App: AppSchema {
        public typealias Context = NotesContext
        public typealias Model = Model1
        public typealias Link = Link1
    }

    /// Version 1's model: the notes' texts.
    public struct Model1: AppModel {
        /// The notes, newest last.
        public var notes: [String] = []
        /// No notes.
        public init() {}
    }

    /// Version 1's deep links: `notes://note/{id}`.
    public enum Link1: DeepLinkDestination {
        /// One note, by its index.
        case note(id: String)
        /// The link patterns.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            /// `note/{id}`.
            case note = "note/{id}"
        }
    }

    /// Version 1 of the app.
    public static func makeApplication() throws -> Application {
        try Application(scheme: "notes", version: "1", root: AppFlow(), flows: [SigninFlow(), NotesFlow(), TipsFlow()])
    }

    struct AppFlow: Flow {
        typealias App = NotesV1.App
        let children: [any Flow.Type] = [SigninFlow.self, NotesFlow.self]

        func start(_ flow: inout FlowContext<Self>) throws {
            if flow.context.signedIn {
                try flow.startChild(NotesFlow.self, placement: .root)
            } else {
                try flow.startChild(SigninFlow.self, placement: .root)
            }
        }

        func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws { try start(&flow) }

        func openDeepLink(_ link: Link1, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
            try flow.offer(link, to: NotesFlow.self) ?? .deferred
        }
    }

    struct SigninFlow: Flow {
        typealias App = NotesV1.App
        enum Screen: FlowScreen {
            case form
            enum CodingKeys: CodingKey, CaseIterable { case form }
        }
        enum Route: FlowRoute {
            case signIn(mail: String)
            enum CodingKeys: CodingKey, CaseIterable { case signIn }
        }

        func routes(on screen: Screen.Name) -> [Route.Name] { [.signIn] }
        func start(_ flow: inout FlowContext<Self>) throws { flow.show(.form) }

        func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
            guard case .signIn(let mail) = route, mail.contains("@") else {
                return flow.showNotice(Notice(.error, "Enter an email address."))
            }
            flow.context.signedIn = true
            flow.context.user = mail
            try flow.finish()
        }

        func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
            ScreenContent(
                title: "Sign in",
                components: (flow.notice.map { [.notice($0)] } ?? []) + [
                    .field(name: "mail", label: "Email", value: "", kind: .email), flow.button("Sign in", submitting: .signIn),
                ])
        }
    }

    struct NotesFlow: Flow {
        typealias App = NotesV1.App
        enum Screen: FlowScreen {
            case list, detail(note: String), stats, archive
            enum CodingKeys: CodingKey, CaseIterable { case list, detail, stats, archive }
        }
        enum Route: FlowRoute {
            case add(text: String, priority: Int?)
            case open(note: String)
            case showStats, showArchive, tips, delete
            enum CodingKeys: CodingKey, CaseIterable { case add, open, showStats, showArchive, tips, delete }
        }
        let children: [any Flow.Type] = [TipsFlow.self]
        let deepLinks: [Link1.Name] = [.note]

        func routes(on screen: Screen.Name) -> [Route.Name] {
            switch screen {
            case .list: [.add, .open, .showStats, .showArchive, .tips]
            case .detail: [.delete]
            case .stats, .archive: []
            }
        }

        func start(_ flow: inout FlowContext<Self>) throws { flow.show(.list) }

        func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
            switch (route, screen) {
            case (.add(let text, _), _): flow.model.notes.append(text)
            case (.open(let note), _): flow.push(.detail(note: note))
            case (.showStats, _): flow.push(.stats)
            case (.showArchive, _): flow.push(.archive)
            case (.tips, _): try flow.startChild(TipsFlow.self, placement: .push)
            case (.delete, .detail(let note)):
                if let index = Int(note), flow.model.notes.indices.contains(index - 1) { flow.model.notes.remove(at: index - 1) }
                try flow.pop()
            case (.delete, _): break
            }
        }

        func childDidFinish(_ child: FinishedChild, _ flow: inout FlowContext<Self>) throws { try flow.popToOwnTop() }

        func openDeepLink(_ link: Link1, _ flow: inout FlowContext<Self>) throws -> DeepLinkOutcome {
            guard case .note(let id) = link else { return .declined }
            try flow.reset(pushing: [.detail(note: id)])
            return .opened
        }

        func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
            switch screen {
            case .list: ScreenContent(title: "Notes", components: flow.model.notes.map { .text($0) })
            case .detail(let note): ScreenContent(title: "Note \(note)", components: [.text(note)])
            case .stats: ScreenContent(title: "Statistics", components: [.text("\(flow.model.notes.count) notes")])
            case .archive: ScreenContent(title: "Archive", components: [])
            }
        }
    }

    struct TipsFlow: Flow {
        typealias App = NotesV1.App
        enum Screen: FlowScreen {
            case tip(page: Int)
            enum CodingKeys: CodingKey, CaseIterable { case tip }
        }
        enum Route: FlowRoute {
            case next, done
            enum CodingKeys: CodingKey, CaseIterable { case next, done }
        }

        func routes(on screen: Screen.Name) -> [Route.Name] { [.next, .done] }
        func start(_ flow: inout FlowContext<Self>) throws { flow.show(.tip(page: 1)) }

        func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
            guard route == .next, case .tip(let page) = screen else { return try flow.finish() }
            flow.push(.tip(page: page + 1))
        }

        func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
            ScreenContent(title: "Tip", components: [.text("A tip")])
        }
    }
}

/// Who the user is, in both versions of the notes app.
public struct NotesContext: SessionContext {
    /// Whether the user signed in.
    public var signedIn = false
    /// The signed-in user's address.
    public var user: String?
    /// Signed out.
    public init() {}
}
