/// Applying an application's migrations to a state saved by an earlier version.
extension Navigator {
    /// Applies `steps` (those of every migration newer than the state, oldest first) in three
    /// passes: the renames, which only change names; then the model changes; then the removals,
    /// which call flows (a parent told its child is gone, a replacement started) and so need the
    /// names and the model of this version. Throws what a flow or a model conversion throws.
    mutating func migrate(_ steps: [MigrationStep]) throws {
        for step in steps {
            switch step {
            case .renameFlow(let old, let new):
                state.coordinators.renameFlows(old, to: new)
                // A pending effect names its flow: its service is found by that name.
                for index in state.effects.indices where state.effects[index].flow == old { state.effects[index].flow = new }
            case .renameScreen(let flow, let old, let new):
                updateScreens(of: flow, named: old) { $0.name = new }
            case .renameScreenParam(let flow, let screen, let old, let new):
                updateScreens(of: flow, named: screen) { screen in
                    if screen.params[new] == nil, let value = screen.params.removeValue(forKey: old) { screen.params[new] = value }
                }
            default:
                break
            }
        }
        state.model = try Self.migrated(model: state.model, steps)
        for step in steps {
            switch step {
            case .removeScreen(let flow, let name, let replacement?):
                updateScreens(of: flow, named: name) { screen in
                    screen.name = replacement.name
                    screen.params = replacement.params
                    screen.form = [:]
                    screen.notice = nil
                }
            case .removeScreen(let flow, let name, nil):
                try removeScreens(of: flow, named: name)
            case .removeFlow(let name, let replacement):
                try removeFlows(named: name, replacedBy: replacement)
            default:
                break
            }
        }
    }

    /// `model` after the model changes among `steps` (an empty model is the new type's `init()`).
    static func migrated(model: JSONObject, _ steps: [MigrationStep]) throws -> JSONObject {
        var model = model
        for case .model(_, let convert) in steps where !model.isEmpty { model = try convert(model) }
        return model
    }

    /// Changes every screen named `name` whose coordinator runs `flow` (its current name).
    private mutating func updateScreens(of flow: String, named name: String, _ change: (inout ScreenInstance) -> Void) {
        for location in state.navigation.allLocations {
            guard var stack = state.navigation[location] else { continue }
            var changed = false
            for index in stack.screens.indices where stack.screens[index].name == name && runs(stack.screens[index].coordinator, flow) {
                change(&stack.screens[index])
                changed = true
            }
            if changed { state.navigation[location] = stack }
        }
    }

    /// Takes every screen named `name` of flow `flow` off its stack (a modal left empty is
    /// dismissed), then removes the coordinators left without screens, as `back` would.
    private mutating func removeScreens(of flow: String, named name: String) throws {
        for location in state.navigation.allLocations {
            guard var stack = state.navigation[location] else { continue }
            let removed = stack.screens.filter { $0.name == name && runs($0.coordinator, flow) }.map(\.id)
            guard !removed.isEmpty else { continue }
            stack.screens.removeAll { removed.contains($0.id) }
            if case .modal(let index) = location, stack.screens.isEmpty {
                state.navigation.modals.remove(at: index)
            } else {
                state.navigation[location] = stack
            }
            record(Transition(location.isModal ? .dismiss : .pop, removed))
        }
        try prune()
    }

    /// Removes every coordinator of flow `name` with its subtree and screens; then starts
    /// `replacement` under the same parent with the same placement, or tells the parent its child
    /// was removed.
    private mutating func removeFlows(named name: String, replacedBy replacement: String?) throws {
        while let id = state.coordinators.firstID(where: { $0.flow == name }) {
            let path = state.coordinators.path(to: id)
            guard path.count >= 2, let removed = state.coordinators.remove(id) else {
                throw FlowDeclarationError("the application coordinator's flow '\(name)' was removed")
            }
            let parent = path[path.count - 2]
            removeScreens(ownedBy: Set(removed.subtreeIDs))
            if let replacement {
                _ = try startChild(replacement, parent: parent, placement: removed.placement, data: .null)
            } else {
                let child = FinishedChild(id: id, flow: name, reason: .removed)
                try with(parent) { flow, context in try flow.childDidFinish(child, &context) }
            }
            try prune()
        }
    }

    /// Whether coordinator `id` runs `flow`, by the flow's name after every rename.
    private func runs(_ id: String, _ flow: String) -> Bool {
        guard let name = state.coordinators.lookup(id, { $0.flow }) else { return false }
        return name == flow || app.migrations.currentFlowName(name) == flow
    }
}

extension Coordinator {
    /// Every node of flow `old` runs flow `new`.
    mutating func renameFlows(_ old: String, to new: String) {
        if flow == old { flow = new }
        for index in children.indices { children[index].renameFlows(old, to: new) }
    }
}
