import WayfinderClient

/// Something on the top screen a person can act on by its number.
enum Control {
    case field(WireComponent.Field)
    case toggle(WireComponent.Toggle)
    case button(WireComponent.Button)
    case row(WireComponent.ListItem)
}

/// What the terminal shows besides the state: the form being edited, the input line, messages.
struct Frame {
    var server: String
    var state: WireState?
    var snapshot: NavigationLayers
    var form: FormValues?
    /// Shown under the screen (a refusal, a lost connection, a hint).
    var message: String?
    /// The prompt and what the person typed so far.
    var prompt: String
    var input: String
    var secretInput = false
    var busy = false
    var width = 80
}

/// Renders a state as lines of text: header, tab bar, where the user is, the top screen's
/// components with numbers on everything actionable, and the keys. It knows no app: everything
/// comes from the state.
enum ScreenText {
    /// The actionable components of `screen`, in order; their numbers start at 1.
    static func controls(of screen: Screen) -> [Control] {
        screen.components.flatMap { component -> [Control] in
            switch component {
            case .field(let field): [.field(field)]
            case .toggle(let toggle): [.toggle(toggle)]
            case .button(let button): [.button(button)]
            case .list(let items): items.map(Control.row)
            default: []
            }
        }
    }

    static func render(_ frame: Frame) -> [String] {
        let width = max(40, frame.width)
        let rule = String(repeating: "─", count: width)
        var lines: [String] = []
        let revision = frame.state.map { " · revision \($0.revision)" } ?? ""
        lines.append(bold("Wayfinder") + " · \(frame.server)\(revision)\(frame.busy ? " · working…" : "")")
        lines.append(rule)
        guard let top = frame.snapshot.top else {
            lines.append("(no screen yet)")
            return lines + footer(frame, rule)
        }
        if let tabs = frame.snapshot.tabBar {
            let items = tabs.items.enumerated().map { index, item in
                item.id == tabs.selected ? inverse("[t\(index + 1) \(item.title)]") : " t\(index + 1) \(item.title) "
            }
            let covered = frame.snapshot.layers.count > 1 ? dim("  (under a modal)") : ""
            lines.append("Tabs: " + items.joined(separator: " ") + covered)
        }
        if frame.snapshot.layers.count > 1 || frame.snapshot.layers.first?.screens.count ?? 0 > 1 {
            lines.append(dim(breadcrumb(frame.snapshot)))
        }
        lines.append("")
        lines.append(bold(underline(top.title)))
        lines.append("")
        var number = 0
        for component in top.components {
            lines += render(component, form: frame.form, width: width, number: &number)
        }
        if let pending = frame.state?.pendingDeepLink { lines += ["", dim("Pending deep link: \(pending)")] }
        return lines + footer(frame, rule)
    }

    /// Where the user is: each layer's stack of titles, modals marked by their presentation.
    static func breadcrumb(_ snapshot: NavigationLayers) -> String {
        snapshot.layers.map { layer in
            let titles = layer.screens.map(\.title).joined(separator: " › ")
            return layer.presentation.isModal ? "[\(layer.presentation) \(titles)]" : titles
        }.joined(separator: " ▸ ")
    }

    private static func render(_ component: WireComponent, form: FormValues?, width: Int, number: inout Int) -> [String] {
        func next() -> String {
            number += 1
            return "[\(number)]"
        }
        switch component {
        case .heading(let text):
            return wrap(text, width).map(bold)
        case .text(let text):
            return wrap(text, width)
        case .notice(let notice):
            let mark = notice.style == .error ? "!" : notice.style == .success ? "✓" : "i"
            return wrap("\(mark) \(notice.text)", width)
        case .field(let field):
            let value = form?.text(field.name) ?? field.value
            let shown = field.kind == .password ? String(repeating: "•", count: value.count) : value.replacingOccurrences(of: "\n", with: " ⏎ ")
            return ["\(next()) \(field.label): \(shown.isEmpty ? dim("(empty)") : shown)"]
        case .toggle(let toggle):
            let on = form?.isOn(toggle.name) ?? toggle.value
            return ["\(next()) [\(on ? "x" : " ")] \(toggle.label)"]
        case .button(let button):
            let title = button.style == .destructive ? red(button.title) : button.style == .primary ? bold(button.title) : button.title
            return ["\(next()) ( \(title) )"]
        case .list(let items):
            if items.isEmpty { return [dim("(empty list)")] }
            return items.map { item in
                let subtitle = item.subtitle.isEmpty ? "" : dim(" — \(item.subtitle)")
                let check = item.checked.map { $0 ? "☑ " : "☐ " } ?? ""
                return "\(next()) \(check)\(item.title)\(subtitle)"
            }
        case .image(let image):
            return [dim("[image: \(image.alt)]")]
        case .unknown(let unknown):
            return [dim("[\(unknown.type.isEmpty ? "a component" : unknown.type) this client cannot show]")]
        }
    }

    private static func footer(_ frame: Frame, _ rule: String) -> [String] {
        var lines = ["", rule]
        if let message = frame.message { lines.append(message) }
        lines.append(dim("number: press/edit · b back · t<n> tab · g <link> deep link · r reload · q quit"))
        let input = frame.secretInput ? String(repeating: "•", count: frame.input.count) : frame.input
        lines.append("\(frame.prompt)\(input)")
        return lines
    }

    /// Word-wraps `text` to `width` columns (counting characters).
    static func wrap(_ text: String, _ width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = String(word)
            } else {
                line += line.isEmpty ? String(word) : " " + word
            }
        }
        lines.append(line)
        return lines
    }

    /// `text` without its ANSI styles (for output that is not a terminal).
    static func plain(_ text: String) -> String {
        text.replacing(/\u{1B}\[[0-9;]*m/, with: "")
    }

    static func bold(_ text: String) -> String { "\u{1B}[1m\(text)\u{1B}[22m" }
    static func dim(_ text: String) -> String { "\u{1B}[2m\(text)\u{1B}[22m" }
    static func underline(_ text: String) -> String { "\u{1B}[4m\(text)\u{1B}[24m" }
    static func inverse(_ text: String) -> String { "\u{1B}[7m\(text)\u{1B}[27m" }
    static func red(_ text: String) -> String { "\u{1B}[31m\(text)\u{1B}[39m" }
}
