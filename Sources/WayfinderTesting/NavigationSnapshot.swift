import WayfinderCore

/// What a session looks like after an action, in the words a test asserts: screen names with
/// their values, the navigation and coordinator trees as short text, the transitions, the
/// context, the model and the top screen's notice.
///
/// ``TestSession`` hands each step's assertion the snapshot before the step; the assertion
/// changes it into what it expects, and any difference from the real snapshot fails the test.
public struct NavigationSnapshot: Hashable, Sendable, CustomStringConvertible {
    /// The visible screens, bottom to top: `login`, `todoDetail(id: "2")`.
    public var stack: [String]
    /// The whole navigation tree, hidden tabs included: `tabs(home: [dashboard], *todos:
    /// [todoList], profile: [profile])`, then `+ sheet: [todoAdd]` for each modal. The selected
    /// tab has a `*`.
    public var navigation: String
    /// The coordinator tree by flow name: `app(main(home, todos, profile))`.
    public var coordinators: String
    /// The last action's transitions, each an operation and the screens it names:
    /// `push todoDetail(id: "2")`, `selectTab todos: todoList`, `dismiss todoAdd`.
    public var transitions: [String]
    /// The session's context.
    public var context: JSONObject
    /// The app's model (empty until a flow first changes it).
    public var model: JSONObject
    /// The notice on the top screen.
    public var notice: Notice?
    /// The form values kept on the top screen.
    public var form: JSONObject
    /// A deep link waiting for the root to change (sign-in).
    public var pendingDeepLink: String?
    /// Effects asked for and not yet completed, oldest first, as `flow: name(label: value, …)`
    /// (``Secret`` values are never stored, so never shown): `auth: checkPassword(email: "a@b.c")`.
    public var effects: [String]

    public var description: String {
        var lines = [
            "stack: \(stack.joined(separator: " > "))",
            "navigation: \(navigation)",
            "coordinators: \(coordinators)",
            "transitions: \(transitions.isEmpty ? "none" : transitions.joined(separator: ", "))",
            "context: \(Self.text(.object(context)))",
            "model: \(Self.text(.object(model)))",
        ]
        if let notice { lines.append("notice: \(notice.style.rawValue) \"\(notice.text)\"") }
        if !form.isEmpty { lines.append("form: \(Self.text(.object(form)))") }
        if let pendingDeepLink { lines.append("pendingDeepLink: \(pendingDeepLink)") }
        if !effects.isEmpty { lines.append("effects: \(effects.joined(separator: ", "))") }
        return lines.joined(separator: "\n")
    }

    /// Each part that differs from `other`, as `part: expected … actual …` lines.
    func differences(from actual: NavigationSnapshot) -> [String] {
        var lines: [String] = []
        func compare<T: Equatable>(_ name: String, _ expected: T, _ found: T, _ show: (T) -> String) {
            if expected != found { lines.append("\(name): expected \(show(expected)), found \(show(found))") }
        }
        compare("stack", stack, actual.stack) { $0.joined(separator: " > ") }
        compare("navigation", navigation, actual.navigation) { $0 }
        compare("coordinators", coordinators, actual.coordinators) { $0 }
        compare("transitions", transitions, actual.transitions) { "[\($0.joined(separator: ", "))]" }
        compare("context", context, actual.context) { Self.text(.object($0)) }
        compare("model", model, actual.model) { Self.text(.object($0)) }
        compare("notice", notice, actual.notice) { $0.map { "\($0.style.rawValue) \"\($0.text)\"" } ?? "none" }
        compare("form", form, actual.form) { Self.text(.object($0)) }
        compare("pendingDeepLink", pendingDeepLink, actual.pendingDeepLink) { $0 ?? "none" }
        compare("effects", effects, actual.effects) { "[\($0.joined(separator: ", "))]" }
        return lines
    }

    init(_ state: SessionState, transitions: [Transition], before: SessionState?) {
        let navigation = state.navigation
        stack = navigation.visibleScreens.map(Self.describe)
        var tree: String
        switch navigation.root {
        case .stack(let root):
            tree = "[" + root.screens.map(Self.describe).joined(separator: ", ") + "]"
        case .tabs(let tabs):
            tree = "tabs(" + tabs.tabs.map { tab in
                (tab.id == tabs.selected ? "*" : "") + tab.id + ": [" + tab.stack.screens.map(Self.describe).joined(separator: ", ") + "]"
            }.joined(separator: ", ") + ")"
        }
        for modal in navigation.modals {
            tree += " + \(modal.style.rawValue): [" + modal.stack.screens.map(Self.describe).joined(separator: ", ") + "]"
        }
        self.navigation = tree
        coordinators = Self.describe(state.coordinators)
        // Screens are named from the state that has them: removed ones from the state before.
        let known = (before?.navigation.allScreens ?? []) + navigation.allScreens
        self.transitions = transitions.map { transition in
            let names = transition.screens.map { id in known.last { $0.id == id }.map(Self.describe) ?? id }
            let op = transition.op.rawValue + (transition.tab.map { " " + $0 + ":" } ?? "")
            return names.isEmpty ? op : op + " " + names.joined(separator: ", ")
        }
        context = state.context
        model = state.model
        notice = navigation.topScreen?.notice
        form = navigation.topScreen?.form ?? [:]
        pendingDeepLink = state.pendingDeepLink
        effects = state.effects.map { effect in
            let values = effect.params.keys.sorted().map { "\($0): \(Self.text(effect.params[$0] ?? .null))" }
            return "\(effect.flow): \(effect.name)" + (values.isEmpty ? "" : "(" + values.joined(separator: ", ") + ")")
        }
    }

    /// `name`, or `name(label: value, …)` with the labels sorted.
    static func describe(_ screen: ScreenInstance) -> String {
        guard !screen.params.isEmpty else { return screen.name }
        return screen.name + "(" + screen.params.keys.sorted().map { "\($0): \(text(screen.params[$0] ?? .null))" }.joined(separator: ", ") + ")"
    }

    /// `flow(child, child(grandchild))`.
    static func describe(_ node: Coordinator) -> String {
        node.children.isEmpty ? node.flow : node.flow + "(" + node.children.map(describe).joined(separator: ", ") + ")"
    }

    static func text(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.value(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
