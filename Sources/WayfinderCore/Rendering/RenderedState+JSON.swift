/// The wire form of rendered states, written straight to bytes (no Foundation on the hot path).
extension RenderedState {
    package func write(to w: inout JSONWriter) {
        // Visible screens appear twice (in `navigation` and in `stack`): serialize each once.
        var written: [String: [UInt8]] = [:]
        for screen in stack {
            var sw = JSONWriter(capacity: 512)
            screen.write(to: &sw)
            written[screen.id] = sw.bytes
        }
        w.beginObject()
        w.key("session"); w.string(session)
        w.key("revision"); w.int(revision)
        w.key("context"); w.value(.object(context))
        w.key("coordinators"); coordinators.writeTree(to: &w)
        w.key("navigation"); navigation.write(to: &w, written)
        w.key("stack"); w.beginArray(); for screen in stack {
            if let bytes = written[screen.id] { w.raw(bytes) } else { screen.write(to: &w) }
        }; w.endArray()
        w.key("pendingDeepLink"); w.optionalString(pendingDeepLink)
        w.endObject()
    }

    package var jsonBytes: [UInt8] {
        var writer = JSONWriter(capacity: 4096)
        write(to: &writer)
        return writer.bytes
    }
}

extension Coordinator {
    /// `{"id", "flow", "children"}` — the flow's private data is not part of the wire state.
    func writeTree(to w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(id)
        w.key("flow"); w.string(flow)
        w.key("children"); w.beginArray(); for child in children { child.writeTree(to: &w) }; w.endArray()
        w.endObject()
    }
}

extension RenderedNode {
    func write(to w: inout JSONWriter, _ written: [String: [UInt8]]) {
        w.beginObject()
        switch self {
        case .stack(let coordinator, let screens, let modal):
            w.key("kind"); w.string("stack")
            w.key("coordinator"); w.string(coordinator)
            w.key("screens"); w.beginArray()
            for screen in screens {
                if let bytes = written[screen.id] { w.raw(bytes) } else { screen.write(to: &w) }
            }
            w.endArray()
            w.key("modal"); if let modal { modal.write(to: &w, written) } else { w.null() }
        case .tabs(let coordinator, let selected, let tabs, let modal):
            w.key("kind"); w.string("tabs")
            w.key("coordinator"); w.string(coordinator)
            w.key("selected"); w.string(selected)
            w.key("tabs"); w.beginArray()
            for tab in tabs {
                w.beginObject()
                w.key("id"); w.string(tab.id)
                w.key("title"); w.string(tab.title)
                w.key("icon"); w.string(tab.icon)
                w.key("root"); tab.root.write(to: &w, written)
                w.endObject()
            }
            w.endArray()
            w.key("modal"); if let modal { modal.write(to: &w, written) } else { w.null() }
        }
        w.endObject()
    }
}

extension RenderedScreen {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(id)
        w.key("name"); w.string(name)
        if !values.isEmpty { w.key("values"); w.value(.object(values)) }
        w.key("title"); w.string(title)
        w.key("coordinator"); w.string(coordinator)
        w.key("presentation"); w.string(presentation.rawValue)
        if busy { w.key("busy"); w.bool(true) }
        w.key("routes"); w.beginArray(); for route in routes { w.string(route) }; w.endArray()
        w.key("components"); w.beginArray(); for component in components { component.write(to: &w, disabled: busy) }; w.endArray()
        w.endObject()
    }
}

extension Component {
    /// The component as JSON; `disabled` marks its buttons and list items `"disabled": true`
    /// (the screen waits for an effect, and its routes are blocked).
    package func write(to w: inout JSONWriter, disabled: Bool = false) {
        w.beginObject()
        switch self {
        case .heading(let text):
            w.key("type"); w.string("heading"); w.key("text"); w.string(text)
        case .text(let text):
            w.key("type"); w.string("text"); w.key("text"); w.string(text)
        case .notice(let notice):
            w.key("type"); w.string("notice"); w.key("style"); w.string(notice.style.rawValue); w.key("text"); w.string(notice.text)
        case .field(let name, let label, let value, let kind):
            w.key("type"); w.string("field"); w.key("name"); w.string(name); w.key("label"); w.string(label)
            w.key("value"); w.string(value); w.key("kind"); w.string(kind.rawValue)
        case .toggle(let name, let label, let value):
            w.key("type"); w.string("toggle"); w.key("name"); w.string(name); w.key("label"); w.string(label)
            w.key("value"); w.bool(value)
        case .button(let title, let style, let action, let submit):
            w.key("type"); w.string("button"); w.key("title"); w.string(title); w.key("style"); w.string(style.rawValue)
            w.key("action"); action.write(to: &w); w.key("submit"); w.bool(submit)
            if disabled { w.key("disabled"); w.bool(true) }
        case .list(let items):
            w.key("type"); w.string("list")
            w.key("items"); w.beginArray()
            for item in items {
                w.beginObject()
                w.key("id"); w.string(item.id); w.key("title"); w.string(item.title)
                w.key("subtitle"); w.string(item.subtitle)
                if let checked = item.checked { w.key("checked"); w.bool(checked) }
                w.key("action"); item.action.write(to: &w)
                if disabled { w.key("disabled"); w.bool(true) }
                w.endObject()
            }
            w.endArray()
        case .image(let url, let alt):
            w.key("type"); w.string("image"); w.key("url"); w.string(url); w.key("alt"); w.string(alt)
        }
        w.endObject()
    }
}

extension Component.Action {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("route"); w.string(route)
        w.key("params"); w.value(.object(params))
        w.endObject()
    }
}

extension Transition {
    package func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("op"); w.string(op.rawValue)
        w.key("screens"); w.beginArray(); for screen in screens { w.string(screen) }; w.endArray()
        w.key("tab"); w.optionalString(tab)
        w.key("animated"); w.bool(animated)
        w.endObject()
    }
}
