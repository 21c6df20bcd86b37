/// How the stored sessions and the requests of an older version of an app map to this one: what
/// one release renamed, removed or reshaped, declared next to the flows that changed.
///
/// ```swift
/// try Application(
///     scheme: "notes", version: "2", root: AppFlow(), flows: [AuthFlow(), NotesFlow()],
///     migrations: [
///         Migration(to: "2", [
///             .renamed(flow: "signin", to: AuthFlow.self),
///             .renamed(screen: "list", to: .notes, in: NotesFlow.self),
///             .renamed(route: "signIn", to: .login, in: AuthFlow.self),
///             .removed(screen: "stats", in: NotesFlow.self, showing: .notes),
///             .model(from: NotesV1.self) { old in Notes(items: old.notes.map(Note.init)) },
///         ]),
///     ])
/// ```
///
/// A session saved by an earlier version gets, when it is next loaded, the changes of every
/// migration to a later version, oldest first; it is then saved with the version stamp of this
/// app and a new revision, and its clients are told (an `update` transition and an event).
/// Renamed routes, parameters and deep links also apply to what old clients send, whatever the
/// session's version. What no migration covers falls back to a fresh start of the session with
/// its context and model (``LoadedSession/Outcome/rebuilt(from:reason:detail:)``).
///
/// New names are the flows' own types and cases, so the compiler keeps every migration pointing
/// at what exists: when a later release renames `notes` again, the older migration is updated
/// to the newest name. Old names are strings; building the ``Application`` checks that none of
/// them is still in use (see ``ApplicationError``), and `wayfinder catalog --diff` lists the
/// changes since a release's catalog that no migration covers.
public struct Migration<App: AppSchema>: Sendable {
    /// The version that made these changes: states of earlier versions get them.
    public var version: String
    /// The changes, applied in order.
    public var changes: [Change]

    /// The changes `version` made, in the order they apply.
    public init(to version: String, _ changes: [Change]) {
        self.version = version
        self.changes = changes
    }

    /// One change between two versions of an app; see the static functions for each kind.
    public struct Change: Sendable {
        let step: MigrationStep
    }
}

extension Migration.Change {
    // MARK: Flows

    /// Flow `old` is now `new`: running coordinators of `old` run `new`, with their data.
    public static func renamed<F: Flow>(flow old: String, to new: F.Type) -> Self where F.App == App {
        Self(step: .renameFlow(old: old, new: F.name))
    }

    /// Flow `old` is gone: its screens are removed and its parent is told the child was removed
    /// (``FinishedChild/Reason/removed``), so the parent decides where its users go, as it does
    /// when the user leaves a child flow.
    public static func removed(flow old: String) -> Self {
        Self(step: .removeFlow(name: old, replacement: nil))
    }

    /// Flow `old` is gone and `replacement` runs in its place: started under the same parent,
    /// placed as the removed one was (root, tab, pushed or presented).
    public static func removed<F: Flow>(flow old: String, replacedBy replacement: F.Type) -> Self where F.App == App {
        Self(step: .removeFlow(name: old, replacement: F.name))
    }

    // MARK: Screens

    /// Screen `old` of flow `F` is now `new`.
    public static func renamed<F: Flow>(screen old: String, to new: F.Screen.Name, in flow: F.Type) -> Self where F.App == App {
        Self(step: .renameScreen(flow: F.name, old: old, new: new.stringValue))
    }

    /// The value labelled `old` of screen `screen` of flow `F` is now labelled `new`.
    public static func renamed<F: Flow>(screenParam old: String, to new: String, of screen: F.Screen.Name, in flow: F.Type) -> Self
    where F.App == App {
        Self(step: .renameScreenParam(flow: F.name, screen: screen.stringValue, old: old, new: new))
    }

    /// Screen `old` of flow `F` is gone; where it was shown, `replacement` is shown instead (the
    /// same place in the stack, an `update` transition).
    public static func removed<F: Flow>(screen old: String, in flow: F.Type, showing replacement: F.Screen) -> Self where F.App == App {
        do {
            let (name, params) = try CaseTable<F.Screen>().parts(of: replacement)
            return Self(step: .removeScreen(flow: F.name, name: old, replacement: ScreenReplacement(name: name, params: params)))
        } catch {
            return Self(step: .invalid("the replacement of screen '\(old)' of \(F.self) does not encode: \(error)"))
        }
    }

    /// Screen `old` of flow `F` is gone; where it was shown, it is taken off its stack (the
    /// screen below shows again; a flow left without screens is removed as usual).
    public static func removed<F: Flow>(screen old: String, in flow: F.Type) -> Self where F.App == App {
        Self(step: .removeScreen(flow: F.name, name: old, replacement: nil))
    }

    // MARK: Routes and their parameters (what clients send)

    /// Route `old` of flow `F` is now `new`: an old client triggering `old` triggers `new`.
    public static func renamed<F: Flow>(route old: String, to new: F.Route.Name, in flow: F.Type) -> Self where F.App == App {
        Self(step: .renameRoute(flow: F.name, old: old, new: new.stringValue))
    }

    /// Route `old` of flow `F` is gone on purpose: an old client triggering it gets
    /// `route_unavailable`, as for any route its screen does not offer.
    public static func removed<F: Flow>(route old: String, in flow: F.Type) -> Self where F.App == App {
        Self(step: .removeRoute(flow: F.name, name: old))
    }

    /// The parameter `old` of route `route` of flow `F` is now `new`: a request that sends `old`
    /// (and not `new`) has it renamed.
    public static func renamed<F: Flow>(param old: String, to new: String, of route: F.Route.Name, in flow: F.Type) -> Self
    where F.App == App {
        Self(step: .param(ParamStep(flow: F.name, route: route.stringValue, param: new, change: .renamed(from: old))))
    }

    /// The parameter `old` of route `route` of flow `F` is gone on purpose: what old clients send
    /// for it is ignored.
    public static func removed<F: Flow>(param old: String, of route: F.Route.Name, in flow: F.Type) -> Self where F.App == App {
        Self(step: .param(ParamStep(flow: F.name, route: route.stringValue, param: old, change: .removed)))
    }

    /// The parameter `param` of route `route` of flow `F` changed its type or its allowed values:
    /// a value sent that the route's declaration refuses is first passed to `convert` (nil: the
    /// request is refused as before, `invalid_params`).
    public static func converted<F: Flow>(
        param: String, of route: F.Route.Name, in flow: F.Type, _ convert: @escaping @Sendable (JSONValue) -> JSONValue?
    ) -> Self where F.App == App {
        Self(step: .param(ParamStep(flow: F.name, route: route.stringValue, param: param, change: .converted(convert))))
    }

    /// The parameter `param` of route `route` of flow `F` became required (or is new and
    /// required): a request without it gets `value`.
    public static func defaulted<F: Flow>(param: String, of route: F.Route.Name, in flow: F.Type, to value: JSONValue) -> Self
    where F.App == App {
        Self(step: .param(ParamStep(flow: F.name, route: route.stringValue, param: param, change: .defaulted(value))))
    }

    // MARK: Deep links

    /// The deep-link pattern `old` (without the scheme: `note/{id}`) is now `new`'s: links of the
    /// old form keep opening, with the same captures (their names must be the new case's labels).
    public static func renamed(deepLink old: String, to new: App.Link.Name) -> Self {
        Self(step: .renameDeepLink(old: old, new: new.stringValue))
    }

    /// The deep-link pattern `old` is gone on purpose: links of that form get `unknown_deeplink`.
    public static func removed(deepLink old: String) -> Self {
        Self(step: .removeDeepLink(old))
    }

    // MARK: The model

    /// The app's model changed shape: a stored model is read as `Old` (the earlier version's
    /// type, kept for this purpose) and `convert` makes the current model of it.
    public static func model<Old: Decodable & Sendable>(
        from old: Old.Type, _ convert: @escaping @Sendable (Old) throws -> App.Model
    ) -> Self {
        Self(step: .model(type: String(describing: Old.self)) { json in
            let value = try JSONValueDecoder().decode(Old.self, from: .object(json))
            guard case .object(let object) = try JSONValueEncoder().encode(try convert(value)) else {
                throw FlowDeclarationError("\(App.Model.self) does not encode as a JSON object")
            }
            return object
        })
    }
}
