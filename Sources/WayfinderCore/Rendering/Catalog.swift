/// The flow catalog (`GET /v1/flows`): every flow, its screens, routes and children, and the
/// deep-link patterns — generated from the registered flows, so it cannot drift from them.
extension Application {
    public func writeCatalog(to w: inout JSONWriter) {
        w.beginObject()
        w.key("flows"); w.beginArray()
        for flow in flows {
            w.beginObject()
            w.key("name"); w.string(flow.name)
            w.key("screens"); w.beginArray(); for screen in flow.screens { w.string(screen) }; w.endArray()
            w.key("routes"); w.beginArray()
            for route in flow.routes {
                w.beginObject()
                w.key("name"); w.string(route.name)
                w.key("params"); w.beginArray()
                for param in route.params {
                    w.beginObject()
                    w.key("name"); w.string(param.name)
                    w.key("type"); w.string(param.type.rawValue)
                    w.key("required"); w.bool(param.required)
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
            w.endArray()
            w.key("children"); w.beginArray(); for child in flow.children { w.string(child) }; w.endArray()
            w.endObject()
        }
        w.endArray()
        w.key("deepLinks"); w.beginArray()
        for link in deepLinks {
            w.beginObject()
            w.key("pattern"); w.string("\(scheme)://\(link.pattern)")
            w.key("description"); w.string(link.description)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// The catalog as Graphviz DOT: a cluster per flow with its screens, an edge per child flow.
    public var catalogDOT: String {
        func quoted(_ s: String) -> String { "\"" + s.dotEscaped + "\"" }
        var lines = ["digraph wayfinder {", "  rankdir=LR;", "  node [shape=box, style=rounded];", "  compound=true;"]
        for flow in flows {
            lines.append("  subgraph \(quoted("cluster_" + flow.name)) {")
            lines.append("    label=\(quoted(flow.name));")
            lines.append("    \(quoted(flow.name)) [shape=ellipse];")
            for screen in flow.screens {
                let routes = flow.routes.filter { $0.isOffered(on: screen) }.map(\.name)
                // Escape the names, not the `\n` between them: it is DOT's line break.
                let label = ([screen] + (routes.isEmpty ? [] : [routes.joined(separator: ", ")]))
                    .map(\.dotEscaped).joined(separator: "\\n")
                lines.append("    \(quoted(flow.name + "." + screen)) [label=\"\(label)\"];")
            }
            lines.append("  }")
        }
        for flow in flows {
            for child in flow.children { lines.append("  \(quoted(flow.name)) -> \(quoted(child));") }
        }
        for link in deepLinks {
            lines.append("  \(quoted(scheme + "://" + link.pattern)) [shape=note];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// Escapes `\` and `"` for a quoted DOT identifier.
    var dotEscaped: String {
        var result = ""
        for character in self {
            if character == "\\" || character == "\"" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
