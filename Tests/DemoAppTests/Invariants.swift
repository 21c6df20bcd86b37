import DemoApp
import Foundation
import WayfinderCore
import WayfinderTesting

/// The structural rules every state must keep (the contract's "Route resolution" and "Precise
/// rules"); empty when all hold. Used after every action of every test and by the property test.
func invariantViolations(of state: SessionState, engine: Engine = demoEngine) -> [String] {
    structuralViolations(of: state, engine: engine) + renderingViolations(of: state, engine: engine)
        + storageViolations(of: state, engine: engine)
}

/// The tree rules, on the model alone (cheap).
func structuralViolations(of state: SessionState, engine: Engine = demoEngine) -> [String] {
    var problems: [String] = []
    let navigation = state.navigation

    if navigation.visibleScreens.isEmpty { problems.append("the visible stack is empty") }

    let treeIDs = Set(state.coordinators.subtreeIDs)
    let all = navigation.allScreens
    for screen in all where !treeIDs.contains(screen.coordinator) {
        problems.append("screen \(screen.id) (\(screen.name)) belongs to \(screen.coordinator), not in the tree")
    }
    let ids = all.map(\.id)
    if Set(ids).count != ids.count { problems.append("screen ids are not unique: \(ids)") }

    let owners = Set(all.map(\.coordinator))
    let containers = containerFlows(engine)
    for node in state.coordinators.postOrder where node.id != state.coordinators.id {
        let isContainer = containers.contains(node.flow)
        if !isContainer, !node.subtreeIDs.contains(where: owners.contains) {
            problems.append("coordinator \(node.id) (\(node.flow)) owns no screen, nor does any descendant")
        }
    }

    return problems
}

/// What clients see: `stack` equals the visible path of `navigation`, presentation follows
/// position, the JSON parses, and no action of the top screen sends a parameter its route does
/// not declare.
func renderingViolations(of state: SessionState, engine: Engine = demoEngine) -> [String] {
    var problems: [String] = []
    let navigation = state.navigation
    let rendered = engine.render(state)
    let path = visiblePath(of: rendered.navigation)
    if path != rendered.stack { problems.append("stack \(rendered.stack.map(\.id)) != visible path \(path.map(\.id))") }
    if rendered.stack.map(\.id) != navigation.visibleScreens.map(\.id) { problems.append("rendered stack differs from the model") }
    problems += presentationProblems(rendered.navigation, isModal: false)

    do {
        let json = try JSONParser.parse(rendered.jsonBytes)
        let names = json["stack"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        if names != rendered.stack.map(\.name) { problems.append("rendered JSON stack differs") }
        if json["revision"] != .int(state.revision) { problems.append("rendered JSON revision differs") }
    } catch {
        problems.append("rendered JSON does not parse: \(error)")
    }
    // Every tap on the top screen passes the server's parameter check.
    problems += TestSession.undeclaredParams(in: state, engine: engine)
    return problems
}

/// The state survives storage (Codable, as the store keeps it).
func storageViolations(of state: SessionState, engine: Engine = demoEngine) -> [String] {
    var problems: [String] = []
    do {
        let data = try JSONEncoder().encode(state)
        let decoded = try JSONDecoder().decode(SessionState.self, from: data)
        if decoded != state { problems.append("the state does not round-trip through Codable") }
    } catch {
        problems.append("Codable failed: \(error)")
    }
    return problems
}

/// The visible path of a rendered node: the root stack (or selected tab), then each modal.
func visiblePath(of node: RenderedNode) -> [RenderedScreen] {
    var screens: [RenderedScreen]
    switch node {
    case .stack(_, let base, _): screens = base
    case .tabs(_, let selected, let tabs, _):
        guard let tab = tabs.first(where: { $0.id == selected }), case .stack(_, let base, _) = tab.root else { return [] }
        screens = base
    }
    var modal = node.modal
    while let current = modal, case .stack(_, let more, let next) = current {
        screens += more
        modal = next
    }
    return screens
}

private func presentationProblems(_ node: RenderedNode, isModal: Bool) -> [String] {
    var problems: [String] = []
    func check(_ screens: [RenderedScreen], first: Set<Presentation>) {
        for (index, screen) in screens.enumerated() {
            let ok = index == 0 ? first.contains(screen.presentation) : screen.presentation == .push
            if !ok { problems.append("screen \(screen.id) at \(index) is \(screen.presentation)") }
        }
    }
    switch node {
    case .stack(_, let screens, _): check(screens, first: isModal ? [.sheet, .fullScreen] : [.root])
    case .tabs(_, _, let tabs, _):
        for tab in tabs {
            guard case .stack(_, let screens, let modal) = tab.root else { continue }
            check(screens, first: [.root])
            if modal != nil { problems.append("tab \(tab.id) carries a modal") }
        }
    }
    if let modal = node.modal { problems += presentationProblems(modal, isModal: true) }
    return problems
}

/// The flows without screens (containers), read from the catalog once per application.
private func containerFlows(_ engine: Engine) -> Set<String> {
    if engine.app.scheme == demoApplication.scheme { return demoContainers }
    return Set(engine.app.catalog.flows.filter(\.screens.isEmpty).map(\.name))
}

private let demoContainers = Set(demoApplication.catalog.flows.filter(\.screens.isEmpty).map(\.name))
