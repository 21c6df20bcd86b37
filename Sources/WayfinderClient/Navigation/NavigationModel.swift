import Observation

/// The navigation a UI binds to: the session's current state as layers (stack, tab bar, modal
/// chain), the transitions of the last change, and what the user does, sent to the server.
///
/// It is `@Observable` (SwiftUI views that read it update by themselves) and also publishes
/// every change on ``updates()`` for UIKit or any other medium. It knows no UI framework.
/// States are applied in revision order whichever way they come (an action's answer or the
/// event stream), so a late event never rolls the screen back. User actions never throw: a
/// refusal is kept in ``problem`` (show it, then ``dismissProblem()``), no answer in ``failure``.
@MainActor
@Observable
public final class NavigationModel {
    /// The session it drives.
    public let session: WayfinderSession
    /// The state on screen (nil until the first one arrives).
    public private(set) var state: WireState?
    /// The state as layers: base stack or tabs, then the modal chain.
    public private(set) var snapshot: NavigationLayers
    /// How to animate to ``state`` (empty when it came from the event stream or a read).
    public private(set) var transitions: [ScreenTransition] = []
    /// The server's refusal of the last user action (`invalid_params`, `stale_screen`, ...), or
    /// `not_found` once the session is gone.
    public private(set) var problem: Problem?
    /// Why the last user action got no answer (after the retries), or a bad one.
    public private(set) var failure: WayfinderError?
    /// Whether the session is gone (ended, expired): start a new one.
    public private(set) var sessionIsGone = false
    /// How many user actions are waiting for their answer (disable input while above zero if
    /// the app wants one action at a time).
    public private(set) var actionsInFlight = 0
    /// Whether user actions carry `If-Match` with the revision on screen, so a tap on a screen
    /// that changed meanwhile (a push from elsewhere) is refused with `412` and nothing happens.
    public var actsOnDisplayedRevision = false

    @ObservationIgnored private var subscribers: [Int: AsyncStream<NavigationUpdate>.Continuation] = [:]
    @ObservationIgnored private var nextSubscriber = 0

    /// A model for `session`, showing `state` until a newer one arrives (without one,
    /// ``follow()`` or ``refresh()`` reads it).
    public init(session: WayfinderSession, state: WireState? = nil) {
        self.session = session
        self.state = state
        snapshot = state.map(NavigationLayers.init) ?? NavigationLayers.empty
    }

    /// The screen on top.
    public var top: Screen? { snapshot.top }

    // MARK: Following the server

    /// Follows the session's event stream until the session is gone or the calling task is
    /// cancelled (in SwiftUI: `.task { await model.follow() }`). Reads the state first if the
    /// model has none.
    public func follow() async {
        if state == nil { await refresh() }
        do {
            for try await next in session.events(since: state?.revision) {
                apply(next)
            }
        } catch {
            record(error)
        }
    }

    /// Reads the current state.
    public func refresh() async {
        do {
            apply(try await session.refresh())
        } catch {
            record(error)
        }
    }

    /// Shows `next` if it is newer than the state on screen; returns whether it did.
    @discardableResult
    public func apply(_ next: WireState, transitions: [ScreenTransition] = []) -> Bool {
        if let state, state.revision >= next.revision { return false }
        state = next
        snapshot = NavigationLayers(next)
        self.transitions = transitions
        let update = NavigationUpdate(state: next, snapshot: snapshot, transitions: transitions)
        for subscriber in subscribers.values { subscriber.yield(update) }
        return true
    }

    /// Every state the model shows from now on, with its layers and transitions (for UIKit, a
    /// terminal, or tests). Ends when the caller stops iterating.
    public func updates() -> AsyncStream<NavigationUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: NavigationUpdate.self, bufferingPolicy: .bufferingNewest(64))
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.subscribers[id] = nil }
        }
        return stream
    }

    // MARK: What the user does

    /// Sends a button's action, with `values` merged in if it submits.
    @discardableResult
    public func press(_ button: WireComponent.Button, values: FormValues? = nil) async -> ActionResult? {
        await trigger(values?.action(for: button) ?? button.action)
    }

    /// Sends a list row's action.
    @discardableResult
    public func select(_ item: WireComponent.ListItem) async -> ActionResult? {
        await trigger(item.action)
    }

    /// Triggers a route.
    @discardableResult
    public func trigger(_ action: RouteAction) async -> ActionResult? {
        await perform { session, ifMatch throws(WayfinderError) in try await session.trigger(action, ifMatch: ifMatch) }
    }

    /// Goes back from the screen on top (the back button).
    @discardableResult
    public func goBack() async -> ActionResult? {
        guard let top = snapshot.top else { return nil }
        return await perform { session, ifMatch throws(WayfinderError) in try await session.back(from: top.id, ifMatch: ifMatch) }
    }

    /// Selects a tab.
    @discardableResult
    public func selectTab(_ id: String) async -> ActionResult? {
        await perform { session, ifMatch throws(WayfinderError) in try await session.selectTab(id, ifMatch: ifMatch) }
    }

    /// Opens a deep link.
    @discardableResult
    public func openDeepLink(_ url: String) async -> ActionResult? {
        await perform { session, ifMatch throws(WayfinderError) in try await session.openDeepLink(url, ifMatch: ifMatch) }
    }

    /// The UI already removed screens: the top layer's stack was cut to `count` screens (a
    /// `NavigationStack` path binding shrank after a swipe or a long press on back). Sends one
    /// `back` per removed screen, each naming the screen it removes.
    public func userPopped(toScreenCount count: Int) async {
        while let layer = snapshot.layers.last, layer.screens.count > max(count, 1), let top = layer.top {
            guard await perform({ session, ifMatch throws(WayfinderError) in try await session.back(from: top.id, ifMatch: ifMatch) }) != nil
            else { return }
        }
    }

    /// The UI already dismissed the modal with this ``NavigationLayer/id`` (a sheet swiped down):
    /// goes back until it is gone.
    public func userDismissed(_ layer: NavigationLayer.ID) async {
        while let index = snapshot.layers.firstIndex(where: { $0.id == layer }), index > 0, let top = snapshot.top {
            guard await perform({ session, ifMatch throws(WayfinderError) in try await session.back(from: top.id, ifMatch: ifMatch) }) != nil
            else { return }
        }
    }

    /// Forgets ``problem`` (the alert was shown).
    public func dismissProblem() { problem = nil }

    // MARK: Shared

    private func perform(
        _ body: (WayfinderSession, Int?) async throws(WayfinderError) -> ActionResult
    ) async -> ActionResult? {
        actionsInFlight += 1
        defer { actionsInFlight -= 1 }
        problem = nil
        failure = nil
        do {
            let result = try await body(session, actsOnDisplayedRevision ? state?.revision : nil)
            apply(result.state, transitions: result.transitions)
            return result
        } catch {
            record(error)
            // The screen the user acted on is outdated: show the current one.
            if error.code == .revisionMismatch || error.code == .staleScreen { await refresh() }
            return nil
        }
    }

    private func record(_ error: WayfinderError) {
        switch error {
        case .cancelled: return
        case .problem(let refusal):
            problem = refusal
            if error.sessionIsGone { sessionIsGone = true }
        default:
            failure = error
        }
    }
}

/// One change of a ``NavigationModel``: the new state, its layers and how to animate there.
public struct NavigationUpdate: Sendable, Hashable {
    /// The state now on screen.
    public var state: WireState
    /// Its layers.
    public var snapshot: NavigationLayers
    /// How to animate (empty for a state from the event stream or a read).
    public var transitions: [ScreenTransition]
}

extension NavigationLayers {
    /// No layers (before the first state).
    static let empty = NavigationLayers(layers: [])

    private init(layers: [NavigationLayer]) { self.layers = layers }
}
