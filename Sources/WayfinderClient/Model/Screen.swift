/// One screen: what a client renders, and the routes it may trigger while the screen is on top.
public struct Screen: Codable, Sendable, Hashable, Identifiable {
    /// Unique within the session; a rebuilt screen gets a fresh id (send it with
    /// ``WayfinderSession/back(from:ifMatch:idempotencyKey:)`` so a double tap cannot pop twice).
    public var id: String
    /// The screen's name in the catalog (`todoDetail`).
    public var name: String
    /// The screen's typed values (`["id": "1"]` for the to-do detail of to-do 1), as the catalog's
    /// `screenValues` describes them: what a native client needs to show its own view of the
    /// screen. Absent for a screen that carries none; never secrets.
    public var values: [String: WireValue]?
    /// The navigation title.
    public var title: String
    /// The id of the coordinator that owns the screen.
    public var coordinator: String
    /// How it came to be shown (by position: root, pushed, or the first screen of a modal).
    public var presentation: WirePresentation
    /// Every route the responder chain accepts while this screen is on top.
    public var routes: [String]
    /// What to render, in order.
    public var components: [WireComponent]

    /// A screen as the server would send it.
    public init(
        id: String, name: String, values: [String: WireValue]? = nil, title: String, coordinator: String,
        presentation: WirePresentation = .root, routes: [String] = [], components: [WireComponent] = []
    ) {
        self.id = id
        self.name = name
        self.values = values
        self.title = title
        self.coordinator = coordinator
        self.presentation = presentation
        self.routes = routes
        self.components = components
    }

    /// The values the screen's fields and toggles show (what a submit sends if nothing is edited).
    public var formValues: FormValues { FormValues(self) }
}
