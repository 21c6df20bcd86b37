import WayfinderClient

/// The terminal client: draws the top screen, reads keys, sends what the person does through the
/// navigation model, and redraws whenever the state changes (their actions or pushes from the
/// server).
@MainActor
final class TerminalApp {
    private let terminal = Terminal()
    private let model: NavigationModel
    private let server: String
    /// What the person is typing (a command, or a field's new value), as UTF-8.
    private var typed: [UInt8] = []
    private var editing: WireComponent.Field?
    private var message: String?
    /// Edited form values, and the values the server rendered, by screen id.
    private var edits: [String: FormValues] = [:]
    private var served: [String: FormValues] = [:]
    private var escape = EscapeState.none
    private var quitting = false

    private enum EscapeState { case none, started, sequence }

    init(session: WayfinderSession, state: WireState?, server: String) {
        model = NavigationModel(session: session, state: state)
        self.server = server
        if let state { forget(staleEditsIn: state) }
    }

    /// Runs until `q`, Ctrl-C, Ctrl-D or the end of input.
    func run() async {
        terminal.enterRawMode()
        defer { terminal.restore() }
        let updates = model.updates()
        let redraws = Task {
            for await update in updates {
                self.forget(staleEditsIn: update.state)
                self.draw()
            }
        }
        let follow = Task {
            await self.model.follow()
            if self.model.sessionIsGone { self.message = "The session has ended (\(self.model.problem?.code.rawValue ?? "gone")). Press q to quit." }
            self.draw()
        }
        draw()
        for await bytes in terminal.keys() {
            for byte in bytes where !quitting { await handle(byte) }
            draw()
            if quitting { break }
        }
        follow.cancel()
        redraws.cancel()
    }

    // MARK: Drawing

    private var form: FormValues? {
        guard let top = model.top else { return nil }
        return edits[top.id] ?? FormValues(top)
    }

    private func draw() {
        let prompt = editing.map { "\($0.label): " } ?? "> "
        let frame = Frame(
            server: server, state: model.state, snapshot: model.snapshot, form: form, message: message,
            prompt: prompt, input: String(decoding: typed, as: UTF8.self), secretInput: editing?.kind == .password, busy: model.actionsInFlight > 0,
            width: terminal.width)
        terminal.draw(ScreenText.render(frame))
    }

    /// Drops edits of screens that left, or that the server rendered anew (after an update
    /// its values are the server's), and stops editing a field that is no longer on top.
    private func forget(staleEditsIn state: WireState) {
        let screens = Dictionary(state.stack.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for id in Array(served.keys) where screens[id] == nil {
            served[id] = nil
            edits[id] = nil
        }
        for (id, screen) in screens {
            let values = FormValues(screen)
            if served[id] != values { edits[id] = nil }
            served[id] = values
        }
        if let field = editing, !(state.top.map(ScreenText.controls)?.contains { if case .field(let f) = $0 { f.name == field.name } else { false } } ?? false) {
            editing = nil
            typed = []
        }
    }

    // MARK: Keys

    private func handle(_ byte: UInt8) async {
        switch (escape, byte) {
        case (.none, 0x1B): escape = .started  // an escape sequence (arrow keys): ignored
        case (.started, UInt8(ascii: "[")), (.started, UInt8(ascii: "O")): escape = .sequence
        case (.started, _): escape = .none
        case (.sequence, 0x40...0x7E): escape = .none
        case (.sequence, _): break
        case (_, 0x03), (_, 0x04): quitting = true  // Ctrl-C, Ctrl-D
        case (_, 0x0D), (_, 0x0A): await enter()
        case (_, 0x7F), (_, 0x08): eraseCharacter()
        case (_, 0x15): typed = []  // Ctrl-U
        case (_, 0x20...0xFF): typed.append(byte)
        default: break
        }
    }

    /// Removes the last character typed: its UTF-8 continuation bytes and its first byte.
    private func eraseCharacter() {
        while let last = typed.popLast(), last & 0xC0 == 0x80 {}
    }

    private func enter() async {
        let line = String(decoding: typed, as: UTF8.self)
        typed = []
        if let field = editing {
            editing = nil
            if let top = model.top {
                var values = form ?? FormValues(top)
                values[field.name] = .string(line)
                edits[top.id] = values
            }
            return
        }
        await command(line.trimmingCharacters(in: .whitespaces))
    }

    private func command(_ line: String) async {
        message = nil
        if line.isEmpty { return }
        if let number = Int(line) { return await activate(number) }
        let words = line.split(separator: " ", maxSplits: 1).map(String.init)
        switch words[0] {
        case "q", "quit": quitting = true
        case "b", "back": report(await model.goBack())
        case "r", "reload": await model.refresh()
        case "g", "go": await openLink(words.count > 1 ? words[1] : "")
        case let tab where tab.hasPrefix("t"): await selectTab(tab.dropFirst() + (words.count > 1 ? words[1] : ""))
        default: message = "Unknown command \"\(line)\"; type a number, b, t<n>, g <link>, r or q."
        }
    }

    private func activate(_ number: Int) async {
        guard let top = model.top else { return }
        let controls = ScreenText.controls(of: top)
        guard controls.indices.contains(number - 1) else {
            message = "There is no [\(number)] on this screen."
            return
        }
        switch controls[number - 1] {
        case .field(let field):
            editing = field
            typed = field.kind == .password ? [] : Array((form?.text(field.name) ?? field.value).utf8)
        case .toggle(let toggle):
            var values = form ?? FormValues(top)
            values[toggle.name] = .bool(!values.isOn(toggle.name))
            edits[top.id] = values
        case .button(let button):
            report(await model.press(button, values: form))
        case .row(let item):
            report(await model.select(item))
        }
    }

    private func selectTab(_ which: some StringProtocol) async {
        let which = which.trimmingCharacters(in: .whitespaces)
        guard let tabs = model.snapshot.tabBar else {
            message = "There is no tab bar on screen."
            return
        }
        let tab = Int(which).flatMap { tabs.items.indices.contains($0 - 1) ? tabs.items[$0 - 1].id : nil } ?? which
        report(await model.selectTab(tab))
    }

    private func openLink(_ link: String) async {
        guard !link.isEmpty else {
            message = "Usage: g <deep link>, for example g wayfinder://todos"
            return
        }
        report(await model.openDeepLink(link))
    }

    /// Puts a refusal or a failure of the last action under the screen.
    private func report(_ result: ActionResult?) {
        guard result == nil else { return }
        if let problem = model.problem {
            var text = "! \(problem.status) \(problem.code)" + (problem.detail.map { ": \($0)" } ?? "")
            if !problem.availableRoutes.isEmpty { text += " (routes here: \(problem.availableRoutes.joined(separator: ", ")))" }
            message = text
            model.dismissProblem()
        } else if let failure = model.failure {
            message = "! \(failure)"
        }
    }
}
