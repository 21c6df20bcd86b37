/// What a flow sees and does, acting as one coordinator, in the flow's own types: its data, the
/// session's context and the app's model, and the navigation operations (XCoordinator's push,
/// present, dismiss, pop, popToRoot, set, select, trigger; the Router's popToModule and
/// setRootModule), recorded as transitions.
///
/// Everything here is a value: a flow that throws leaves the session exactly as it was.
public struct FlowContext<F: Flow>: Sendable {
    var base: NavigationContext
    /// The screen being rendered, or the screen that offered the route being handled (nil while
    /// starting, when a child finished, or for a deep link).
    public let screen: ScreenInstance?
    /// The flows this flow declares as children or tabs.
    let declaredChildren: [String]
    let screens: CaseTable<F.Screen>
    let routes: CaseTable<F.Route>
    /// A declaration error met while the flow ran (a screen its `CodingKeys` leaves out, an
    /// undeclared child): the engine refuses the action with it once the flow returns.
    var failure: FlowDeclarationError?

    init(
        base: NavigationContext, screen: ScreenInstance?, declaredChildren: [String], screens: CaseTable<F.Screen>,
        routes: CaseTable<F.Route>
    ) {
        self.base = base
        self.screen = screen
        self.declaredChildren = declaredChildren
        self.screens = screens
        self.routes = routes
    }

    // MARK: Data

    /// When the action this flow handles reached the server: its clock then, journaled with the
    /// revision, so a replay (and a test, which sets it) sees the same time. Record it in the
    /// flow's data or the model to show it later (a booked trip's date). In ``Flow/render(_:_:)``,
    /// a pure function of the state, it reads ``Timestamp/zero``.
    public var now: Timestamp { base.navigator.now }

    /// The session's context (who the user is, platform, …), shown to clients.
    ///
    /// A stored context that does not decode as the app's type reads as `init()`, and setting it
    /// then refuses the action (nothing is replaced; the error names the decoding problem).
    public var context: F.App.Context {
        get { base.navigator.decoded.value(.context, base.context) { F.App.Context() } }
        set {
            if let reason = base.navigator.decoded.undecodable(.context, base.context) {
                return fail("the session's context does not decode as \(F.App.Context.self), so it is not replaced: \(reason)")
            }
            guard let object = encodeObject(newValue) else { return }
            base.context = object
            base.navigator.decoded.keep(.context, object, newValue)
        }
    }

    /// The app's model, shared by the session's flows; `init()` until a flow changes it.
    ///
    /// A stored model that does not decode as the app's type (a release changed the type without
    /// a migration: see `Migration`) reads as `init()`, and setting it then refuses the action:
    /// the stored model is never replaced by one built on `init()`, and the error names the
    /// decoding problem. Navigation that leaves the model alone goes on.
    public var model: F.App.Model {
        get {
            if base.model.isEmpty { return F.App.Model() }
            return base.navigator.decoded.value(.model, base.model) { F.App.Model() }
        }
        set {
            if let reason = base.navigator.decoded.undecodable(.model, base.model) {
                return fail("the session's model does not decode as \(F.App.Model.self), so it is not replaced: \(reason)")
            }
            guard let object = encodeObject(newValue) else { return }
            base.model = object
            base.navigator.decoded.keep(.model, object, newValue)
        }
    }

    /// This coordinator's own data.
    public var data: F.Data {
        get {
            if base.data.isNull { return F.Data() }
            return (try? JSONValueDecoder().decode(F.Data.self, from: base.data)) ?? F.Data()
        }
        set {
            if newValue == F.Data() { return base.data = .null }
            do { base.data = try JSONValueEncoder().encode(newValue) } catch { fail("\(F.self).Data does not encode: \(error)") }
        }
    }

    /// This coordinator's id in the coordinator tree.
    public var coordinator: String { base.coordinator }

    /// Who the user is, as the server verified it when the session was created (a bearer JWT of
    /// the team's identity provider, or the team's own authenticator); nil when nobody was.
    /// Never a client's claim, and the same for the session's whole life.
    public var identity: Identity? { base.navigator.state.identity }

    /// How this coordinator was placed by its parent.
    public var placement: Placement { base.placement }

    /// The whole state, read-only. A screen whose rendering reads it is rendered every time.
    public var state: SessionState { base.state }

    /// The screen on top of everything. A screen whose rendering reads it is rendered every time.
    public var topScreen: ScreenInstance? { base.topScreen }

    /// This coordinator's screens, bottom to top, in the stack that holds its top-most screen.
    /// A screen whose rendering reads them is rendered every time.
    public var ownScreens: [ScreenInstance] { base.ownScreens }

    // MARK: The screen at hand

    /// The notice shown on the screen being rendered (set by ``showNotice(_:keepingForm:)``).
    public var notice: Notice? { screen?.notice }

    /// The form values kept on the screen being rendered.
    public var form: JSONObject { screen?.form ?? [:] }

    /// A kept form value as text, or `fallback`.
    public func formString(_ key: String, default fallback: String = "") -> String {
        form[key]?.stringValue ?? fallback
    }

    /// Shows `notice` on the screen whose route is being handled, with the form values to show
    /// again (never secrets): what a flow does with input the user can fix. An `update`
    /// transition if the screen changed.
    public mutating func showNotice(_ notice: Notice, keepingForm form: JSONObject = [:]) {
        guard let id = screen?.id else { return }
        base.updateScreen(id) {
            $0.notice = notice
            $0.form = form
        }
    }

    /// Shows an error notice with `message` on the screen whose route is being handled, keeping
    /// `form` (never secrets): what a flow does with input the user can fix.
    public mutating func reject(_ message: String, keeping form: JSONObject = [:]) {
        showNotice(Notice(.error, message), keepingForm: form)
    }

    /// The screen's notice as components: one `.notice`, or none when there is none.
    public var noticeComponents: [Component] { notice.map { [.notice($0)] } ?? [] }

    // MARK: Showing screens

    /// Shows this coordinator's first screen where its parent placed it: as the new root
    /// (`setRoot`), as a tab's root, pushed (`push`) or presented (`present`).
    public mutating func show(_ screen: F.Screen) {
        guard let (name, params) = parts(of: screen) else { return }
        base.show(name, params: params)
    }

    /// Pushes a screen onto the stack holding this coordinator's top-most screen.
    public mutating func push(_ screen: F.Screen) {
        guard let (name, params) = parts(of: screen) else { return }
        base.push(name, params: params)
    }

    /// Presents a screen in a new modal over everything.
    public mutating func present(_ screen: F.Screen, style: ModalStyle) {
        guard let (name, params) = parts(of: screen) else { return }
        base.present(name, params: params, style: style)
    }

    /// Makes this coordinator the root as a tab bar, starting one child flow per tab.
    public mutating func showTabs(_ tabs: [TabSpec], selected: String) throws {
        for tab in tabs where !declaredChildren.contains(tab.flow) {
            throw FlowDeclarationError("\(F.self) shows a tab run by '\(tab.flow)', which it does not declare in tabs or children")
        }
        try base.showTabs(tabs, selected: selected)
    }

    // MARK: Removing screens

    /// Pops the top screen of this coordinator's stack (not below its first screen's stack root).
    public mutating func pop() throws { try base.pop() }

    /// Pops everything above this coordinator's top-most screen (the Router's `popToModule`):
    /// what a parent does when a pushed child flow finishes.
    public mutating func popToOwnTop() throws { try base.popToOwnTop() }

    /// Pops to the root of this coordinator's stack (`popToRoot`).
    public mutating func popToRoot() throws { try base.popToRoot() }

    /// Dismisses the top-most modal holding this coordinator's screens, with any above it.
    public mutating func dismiss() throws { try base.dismiss() }

    /// Makes this coordinator's own stack exactly its root screen plus `screens`: every modal is
    /// dismissed, its tab selected, the stack popped to its root, then the screens pushed (fresh
    /// ids). What a deep link does; a no-op when nothing changes.
    public mutating func reset(pushing screens: [F.Screen] = []) throws {
        var named: [(name: String, params: JSONObject)] = []
        for screen in screens {
            guard let (name, params) = parts(of: screen) else { return }
            named.append((name, params))
        }
        try base.reset(pushing: named)
    }

    /// Selects a tab of the tab bar.
    public mutating func selectTab(_ id: String) { base.selectTab(id) }

    // MARK: Effects

    /// Asks for `effect` to be done. The server runs it with the service the app registered,
    /// after this action is saved, and calls ``Flow/complete(_:with:_:)`` with the result; the
    /// screen whose route asked shows as busy until then. Effects of a session run in order.
    public mutating func perform(_ effect: F.Effect) {
        do {
            let encoder = CaseEncoder()
            try effect.encode(to: encoder)
            guard let name = encoder.name, !encoder.unexpected else {
                return fail("\(F.Effect.self) does not encode as one case with labelled values")
            }
            base.perform(name: name, params: encoder.params, secrets: encoder.secrets, screen: screen?.id)
        } catch {
            fail("\(F.Effect.self): \(error)")
        }
    }

    // MARK: Children and finishing

    /// Whether a child of flow `child` is running under this coordinator.
    public func isRunning<C: Flow>(_ child: C.Type) -> Bool { base.child(running: C.name) != nil }

    /// Starts a child flow with `data` (its ``Flow/Data``); its first screen goes where
    /// `placement` says. Returns its coordinator id.
    @discardableResult
    public mutating func startChild<C: Flow>(_ child: C.Type, placement: Placement, data: C.Data = C.Data()) throws -> String {
        guard declaredChildren.contains(C.name) else {
            throw FlowDeclarationError("\(F.self) starts \(C.self), which it does not declare in children")
        }
        let json: JSONValue = data == C.Data() ? .null : try JSONValueEncoder().encode(data)
        return try base.startChild(C.name, placement: placement, data: json)
    }

    /// This coordinator is done: it is removed from the tree and its parent's `childDidFinish`
    /// decides what comes next. Do nothing more with this context afterwards.
    public mutating func finish(_ result: F.Result) throws {
        let json: JSONValue = F.Result.self == NoResult.self ? .null : try JSONValueEncoder().encode(result)
        try base.finish(json)
    }

    /// Offers a deep link to this coordinator's running child of flow `child` (a container
    /// forwarding to the right tab); nil when no such child runs.
    public mutating func offer<C: Flow>(_ link: F.App.Link, to child: C.Type) throws -> DeepLinkOutcome? {
        guard let id = base.child(running: C.name), let deepLink = deepLink(link) else { return nil }
        return try base.offer(deepLink, to: id)
    }

    /// Opens a deep link from the root, exactly as `POST /deeplinks` would (composite navigation).
    @discardableResult
    public mutating func openDeepLink(_ link: F.App.Link) throws -> DeepLinkOutcome {
        guard let deepLink = deepLink(link) else { return .declined }
        return try base.openDeepLink(deepLink.url)
    }

    // MARK: Encoding

    private mutating func fail(_ message: String) {
        failure = failure ?? FlowDeclarationError(message)
    }

    private mutating func parts(of screen: F.Screen) -> (String, JSONObject)? {
        do { return try screens.parts(of: screen) } catch {
            fail("\(F.self).Screen: \(error)")
            return nil
        }
    }

    private mutating func encodeObject<T: Encodable>(_ value: T) -> JSONObject? {
        do {
            if case .object(let object) = try JSONValueEncoder().encode(value) { return object }
            fail("\(T.self) does not encode as a JSON object")
        } catch {
            fail("\(T.self) does not encode: \(error)")
        }
        return nil
    }

    /// The link as the engine matches it: its URL under the app's scheme, pattern and captures.
    private mutating func deepLink(_ link: F.App.Link) -> DeepLink? {
        do {
            let (pattern, params) = try link.parts()
            return DeepLink(url: try base.navigator.app.url(for: link), pattern: pattern, params: params.mapValues(\.scalarText))
        } catch {
            fail("\(F.App.Link.self): \(error)")
            return nil
        }
    }
}

extension FlowContext where F.Result == NoResult {
    /// This coordinator is done (see ``finish(_:)``).
    public mutating func finish() throws { try finish(NoResult()) }
}
