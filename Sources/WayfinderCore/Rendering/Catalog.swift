/// The flow catalog (`GET /v1/flows`): every flow with its screens, routes (their params and the
/// screens that offer them) and children, and every deep-link pattern with the flows that open
/// it — derived from the flows' typed declarations, so it cannot drift from them.
///
/// The JSON form is this value encoded with ``JSONValueEncoder`` (keys sorted); it decodes back
/// with ``JSONValueDecoder``, so a team can keep a release's catalog and compare the next one
/// (`wayfinder catalog --diff`, ``Application/breakingChanges(since:)``). Its shape is stable:
/// members are only ever added, and a reader ignores members it does not know.
public struct Catalog: Sendable, Hashable, Codable {
    /// One flow.
    public struct Flow: Sendable, Hashable, Codable {
        /// The flow's name (``Flow/name``).
        public var name: String
        /// Its screens' names, in the order its `Screen` declares them.
        public var screens: [String]
        /// Each screen's values (a screen's `values` on the wire), by screen name: every screen,
        /// `[]` for one that carries none. Absent in catalogs kept by earlier versions.
        public var screenValues: [String: [ParamSpec]]?
        /// Its routes, in the order its `Route` declares them.
        public var routes: [Route]
        /// The flows it may start: declared children, then tab flows.
        public var children: [String]
    }

    /// One route of a flow.
    public struct Route: Sendable, Hashable, Codable {
        /// The route's name.
        public var name: String
        /// Its parameters, in declaration order.
        public var params: [ParamSpec]
        /// The flow's screens that offer it, in the flow's screen order.
        public var screens: [String]
    }

    /// One deep-link pattern.
    public struct DeepLink: Sendable, Hashable, Codable {
        /// The full pattern, scheme included: `wayfinder://todos/{id}`.
        public var pattern: String
        /// What a link of this pattern shows (``DeepLinkDestination/describe(_:)``).
        public var description: String
        /// The flows that open it.
        public var flows: [String]
    }

    /// The application's version (absent in catalogs of apps without versions).
    public var version: String?
    /// The flows, root first, in registration order.
    public var flows: [Flow]
    /// The patterns, in matching order.
    public var deepLinks: [DeepLink]

    /// The catalog as Graphviz DOT: a cluster per flow with its screens (labelled with the
    /// routes they offer), an edge per child flow, a dashed edge from each link to its flows.
    public var dot: String {
        func quoted(_ s: String) -> String { "\"" + s.dotEscaped + "\"" }
        var lines = ["digraph wayfinder {", "  rankdir=LR;", "  node [shape=box, style=rounded];", "  compound=true;"]
        for flow in flows {
            lines.append("  subgraph \(quoted("cluster_" + flow.name)) {")
            lines.append("    label=\(quoted(flow.name));")
            lines.append("    \(quoted(flow.name)) [shape=ellipse];")
            for screen in flow.screens {
                let routes = flow.routes.filter { $0.screens.contains(screen) }.map(\.name)
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
            lines.append("  \(quoted(link.pattern)) [shape=note];")
            for flow in link.flows { lines.append("  \(quoted(link.pattern)) -> \(quoted(flow)) [style=dashed];") }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The catalog as compact JSON with sorted keys.
    public var json: [UInt8] { jsonValue.canonicalBytes }

    /// The catalog as indented JSON with sorted keys: the form to keep in a repository.
    public var prettyJSON: String { jsonValue.prettyText }

    private var jsonValue: JSONValue { (try? JSONValueEncoder().encode(self)) ?? .null }
}

extension Application {
    /// This application's catalog.
    public var catalog: Catalog {
        Catalog(
            version: version,
            flows: flows.map { flow in
                Catalog.Flow(
                    name: flow.name, screens: flow.screens, screenValues: flow.screenValues,
                    routes: flow.routes.map { route in
                        Catalog.Route(name: route.name, params: route.params, screens: flow.screens.filter(route.isOffered(on:)))
                    },
                    children: flow.children)
            },
            deepLinks: deepLinks.map { link in
                Catalog.DeepLink(
                    pattern: scheme + "://" + link.pattern, description: link.description,
                    flows: flows.filter { $0.deepLinks.contains(link.pattern) }.map(\.name))
            })
    }
}

extension ParamSpec: Codable {
    private enum CodingKeys: String, CodingKey { case name, type, required, values, secret }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(String.self, forKey: .name), try container.decode(ParamType.self, forKey: .type),
            required: try container.decode(Bool.self, forKey: .required),
            values: try container.decodeIfPresent([String].self, forKey: .values),
            secret: try container.decodeIfPresent(Bool.self, forKey: .secret) ?? false)
    }

    /// `values` only for an enum-typed param, `secret` only when true.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(type, forKey: .type)
        try container.encode(required, forKey: .required)
        if let values { try container.encode(values, forKey: .values) }
        if secret { try container.encode(true, forKey: .secret) }
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
