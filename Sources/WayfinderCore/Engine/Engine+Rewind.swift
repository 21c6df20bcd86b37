/// Rewind: back in time for the navigation only.
extension Engine {
    /// The navigation of `earlier` (coordinator and navigation trees, pending deep link) on
    /// `state`'s model, context and id generators, as the next revision; one `setRoot`
    /// transition shows the restored screens. Unchanged if the navigation already is that.
    ///
    /// The model stays current (nobody wants saved to-dos undone by a trip back in time), and
    /// ids keep counting up, so a screen id a client saw is never reused for another screen. A
    /// restored screen that waited for an effect no longer pending waits no more.
    public func rewind(_ state: SessionState, to earlier: SessionState) -> Outcome {
        var next = state
        next.coordinators = earlier.coordinators
        next.navigation = earlier.navigation
        next.pendingDeepLink = earlier.pendingDeepLink
        // A restored screen waits only for effects still pending now: one that waited for an
        // effect since done would otherwise stay busy for ever.
        let pending = Set(next.effects.map(\.id))
        for location in next.navigation.allLocations {
            guard var stack = next.navigation[location], stack.screens.contains(where: { !$0.waitingFor.isEmpty }) else { continue }
            for index in stack.screens.indices { stack.screens[index].waitingFor.removeAll { !pending.contains($0) } }
            next.navigation[location] = stack
        }
        guard next != state else { return Outcome(state: state, transitions: [], changed: false) }
        next.revision = state.revision + 1
        return Outcome(state: next, transitions: [Transition(.setRoot, next.navigation.visibleScreens.map(\.id))], changed: true)
    }
}
