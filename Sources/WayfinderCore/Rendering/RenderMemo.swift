/// The screens of a session's last rendering, as JSON, so the next rendering writes again only
/// the screens that can have changed.
///
/// A screen's JSON comes from its owning flow's `render` and from the chain's `availableRoutes`.
/// Flows see, through ``FlowContext``, the screen itself, the session's context and model, the
/// coordinator tree (with each coordinator's data) and, if they ask for it, the navigation
/// (``FlowContext/state``, ``FlowContext/topScreen``, ``FlowContext/ownScreens``). So a screen's
/// bytes are reused when the context, the model and the coordinator tree are equal to those of
/// the memo, the screen instance and its presentation are equal, and its flows did not read the
/// navigation when it was rendered (those screens are rendered every time). Nothing else is
/// assumed: flows are pure functions of what their context shows them. The client the bytes were
/// rendered for is one of the inputs: a memo never gives one client another's fallbacks.
///
/// A memo is a plain value. Keeping one per session is the caller's choice; any memo, even one
/// from another session, gives the same bytes as ``Engine/render(_:)``'s `jsonBytes`, only
/// faster when it fits.
package struct RenderMemo: Sendable {
    struct Inputs: Sendable, Equatable {
        var context: JSONObject
        var model: JSONObject
        var coordinators: Coordinator
    }

    struct Screen: Sendable {
        var instance: ScreenInstance
        var presentation: Presentation
        var bytes: [UInt8]
    }

    /// The root node's JSON, reusable while the inputs and the node are equal.
    struct Root: Sendable {
        var node: RootNode
        /// The root object's members without braces: `"kind":…,"coordinator":…,"screens"|"tabs":…`.
        var members: [UInt8]
        /// The root's visible screens as the start of `stack` (comma-separated, no brackets).
        var visible: [UInt8]
        /// Every screen of the root, hidden tabs included.
        var screenIDs: [String]
    }

    var inputs: Inputs?
    /// The client the screens were rendered for; nil for one that renders everything.
    var client: ClientComponents?
    var root: Root?
    var screens: [String: Screen] = [:]
    /// The ids of the modal screens among `screens` (the rest are the root's).
    var modalIDs: [String] = []
    /// `context` and `coordinators` as JSON: they depend on the inputs alone.
    var contextBytes: [UInt8] = []
    var coordinatorsBytes: [UInt8] = []
    /// The context and model as the app's types, for the next action or rendering.
    var decoded = DecodedValues()

    package init() {}

    /// Screens whose bytes the last rendering reused (for tests and diagnostics).
    package internal(set) var lastReused = 0

    /// Screens whose bytes the memo holds (for tests and diagnostics).
    package var heldScreens: Int { screens.count }
}

/// Notes whether a flow read the navigation while one screen was being rendered.
///
/// - Important: `@unchecked Sendable` because ``FlowContext`` is `Sendable`: an instance lives
///   inside one `renderJSON` call on one thread and is never shared.
final class NavigationReads: @unchecked Sendable {
    private(set) var happened = false
    func note() { happened = true }
    func reset() { happened = false }
}

extension Engine {
    /// The contract's `State` as JSON, byte for byte `render(state, for: client).jsonBytes`,
    /// reusing the memo's screens where they still hold; the memo is updated for the next call.
    /// `client` nil: a client that renders everything. In ``StateShape/screenIDs`` `stack` holds
    /// the visible screens' ids instead (the rest is the same, byte for byte).
    package func renderJSON(
        _ state: SessionState, memo: inout RenderMemo, for client: ClientComponents? = nil, shape: StateShape = .full
    ) -> [UInt8] {
        let adapting = client.flatMap { $0.rendersEverything ? nil : $0 }
        let decoded = DecodedCache(memo.decoded)
        defer { memo.decoded = decoded.values }
        let navigator = Navigator(app: app, state: state, decoded: decoded)
        let navigation = state.navigation
        let inputs = RenderMemo.Inputs(context: state.context, model: state.model, coordinators: state.coordinators)
        let fits = memo.client == adapting && memo.inputs == inputs
        if !fits {
            var cw = JSONWriter(capacity: 256)
            cw.value(.object(app.secrets.redact(context: state.context)))
            memo.contextBytes = cw.bytes
            var tw = JSONWriter(capacity: 256)
            state.coordinators.writeTree(to: &tw)
            memo.coordinatorsBytes = tw.bytes
            memo.root = nil
            memo.screens = [:]
        }
        // The root (a stack or the tab bar, without the modals over it) as it was last time: its
        // members and its visible screens, written as they are.
        let rootReused = fits && memo.root?.node == navigation.root
        let old = memo.screens
        var screens: [String: RenderMemo.Screen]
        if rootReused {
            // The root's screens stay as they are: keep the table, less the modal screens that
            // are gone (those still shown are checked against their instance below).
            screens = old
            for id in memo.modalIDs where !navigation.modals.contains(where: { $0.stack.screens.contains { $0.id == id } }) {
                screens.removeValue(forKey: id)
            }
        } else {
            screens = [:]
            screens.reserveCapacity(old.count + 1)
        }
        var reused = 0
        let reads = NavigationReads()
        // Screens rendered in this call that read the navigation: used twice below, kept once.
        var uncached: [String: [UInt8]] = [:]

        func bytes(_ instance: ScreenInstance, _ presentation: Presentation) -> [UInt8] {
            if let done = screens[instance.id], done.instance == instance, done.presentation == presentation {
                return done.bytes
            }
            if let done = uncached[instance.id] { return done }
            if let kept = old[instance.id], kept.instance == instance, kept.presentation == presentation {
                screens[instance.id] = kept
                reused += 1
                return kept.bytes
            }
            reads.reset()
            let screen = renderScreen(instance, presentation, navigator, reads: reads, for: adapting)
            var w = JSONWriter(capacity: 512)
            screen.write(to: &w)
            let written = w.bytes
            if reads.happened {
                uncached[instance.id] = written
            } else {
                screens[instance.id] = RenderMemo.Screen(instance: instance, presentation: presentation, bytes: written)
            }
            return written
        }

        func stack(_ location: StackLocation, _ w: inout JSONWriter) {
            w.key("screens"); w.beginArray()
            for (index, instance) in (navigation[location]?.screens ?? []).enumerated() {
                w.raw(bytes(instance, navigation.presentation(at: location, index: index)))
            }
            w.endArray()
        }

        func modal(_ index: Int, _ w: inout JSONWriter) {
            w.key("modal")
            guard index < navigation.modals.count else { return w.null() }
            w.beginObject()
            w.key("kind"); w.string("stack")
            w.key("coordinator"); w.string(navigation.modals[index].stack.coordinator)
            stack(.modal(index), &w)
            modal(index + 1, &w)
            w.endObject()
        }

        let root: RenderMemo.Root
        if rootReused, let kept = memo.root {
            root = kept
            reused += kept.screenIDs.count
        } else {
            let uncachedBefore = uncached.count
            // The root's members, as a fragment (no braces): kind, coordinator, screens or tabs.
            var rw = JSONWriter(capacity: 2048)
            switch navigation.root {
            case .stack(let stackRoot):
                rw.key("kind"); rw.string("stack")
                rw.key("coordinator"); rw.string(stackRoot.coordinator)
                stack(.root, &rw)
            case .tabs(let tabs):
                rw.key("kind"); rw.string("tabs")
                rw.key("coordinator"); rw.string(tabs.coordinator)
                rw.key("selected"); rw.string(tabs.selected)
                rw.key("tabs"); rw.beginArray()
                for tab in tabs.tabs {
                    rw.beginObject()
                    rw.key("id"); rw.string(tab.id)
                    rw.key("title"); rw.string(tab.title)
                    rw.key("icon"); rw.string(tab.icon)
                    rw.key("root"); rw.beginObject()
                    rw.key("kind"); rw.string("stack")
                    rw.key("coordinator"); rw.string(tab.stack.coordinator)
                    stack(.tab(tab.id), &rw)
                    rw.key("modal"); rw.null()
                    rw.endObject()
                    rw.endObject()
                }
                rw.endArray()
            }
            // The visible part of the root, as the start of `stack` (comma-separated screens).
            var sw = JSONWriter(capacity: 2048)
            let base = navigation.baseLocation
            for (index, instance) in (navigation[base]?.screens ?? []).enumerated() {
                sw.raw(bytes(instance, navigation.presentation(at: base, index: index)))
            }
            var ids: [String] = []
            for location in navigation.allLocations where location.isRoot {
                for instance in navigation[location]?.screens ?? [] { ids.append(instance.id) }
            }
            root = RenderMemo.Root(node: navigation.root, members: rw.bytes, visible: sw.bytes, screenIDs: ids)
            // A root with a screen that read the navigation is never reused.
            memo.root = uncached.count == uncachedBefore ? root : nil
        }

        // Sized from the parts already written (a state outgrowing a fixed guess is copied
        // into a buffer twice the size); modal screens are not written yet: a guess for them.
        let known = memo.contextBytes.count + memo.coordinatorsBytes.count + root.members.count + root.visible.count
        var w = JSONWriter(capacity: 1024 + known + (navigation.modals.isEmpty ? 0 : 2048))
        w.beginObject()
        w.key("session"); w.string(state.session)
        w.key("revision"); w.int(state.revision)
        w.key("context"); w.raw(memo.contextBytes)
        w.key("coordinators"); w.raw(memo.coordinatorsBytes)
        w.key("navigation"); w.beginObject()
        w.raw(root.members)
        modal(0, &w)
        w.endObject()
        w.key("stack"); w.beginArray()
        switch shape {
        case .full:
            if !root.visible.isEmpty { w.raw(root.visible) }
            for (m, presented) in navigation.modals.enumerated() {
                for (index, instance) in presented.stack.screens.enumerated() {
                    w.raw(bytes(instance, navigation.presentation(at: .modal(m), index: index)))
                }
            }
        case .screenIDs:
            for instance in navigation.visibleScreens { w.string(instance.id) }
        }
        w.endArray()
        w.key("pendingDeepLink"); w.optionalString(state.pendingDeepLink)
        w.endObject()

        memo.inputs = inputs
        memo.client = adapting
        memo.screens = screens
        memo.modalIDs = navigation.modals.flatMap { $0.stack.screens.map(\.id) }
        memo.lastReused = reused
        return w.bytes
    }
}

extension StackLocation {
    /// A root stack or a tab's stack (not a modal).
    var isRoot: Bool {
        if case .modal = self { return false }
        return true
    }
}
