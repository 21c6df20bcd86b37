/// Where users went, as counts the flow graph is drawn with (`GET /v1/flows?format=dot&traffic=1`):
/// flows started and finished per variant, moves from screen to screen by route, deep links
/// opened. Screens are named `flow.screen`, as the graph's nodes are.
public struct GraphTraffic: Sendable, Hashable {
    /// A route taken from one screen that left another on top.
    public struct Move: Sendable, Hashable {
        /// The screen the route was taken on (`flow.screen`).
        public var from: String
        /// The route's name.
        public var route: String
        /// The screen on top after it (`flow.screen`).
        public var to: String

        /// A move from `from` by `route` to `to`.
        public init(from: String, route: String, to: String) {
            self.from = from
            self.route = route
            self.to = to
        }
    }

    /// Flows started, by flow, then variant.
    public var started: [String: [String: Int]] = [:]
    /// Flows finished, by flow, then variant.
    public var finished: [String: [String: Int]] = [:]
    /// Routes taken, by move.
    public var moves: [Move: Int] = [:]
    /// Deep links opened, by pattern.
    public var links: [String: Int] = [:]

    /// No traffic yet.
    public init() {}
}

extension Catalog {
    /// ``dot`` with `traffic` drawn on it: each flow labelled with how many of its starts
    /// finished per variant, each edge to a child flow or from a deep link weighed by its count,
    /// and an edge per move between screens, labelled with its route and count.
    public func dot(traffic: GraphTraffic) -> String {
        func quoted(_ s: String) -> String { "\"" + s.dotEscaped + "\"" }
        let heaviest = max(1, (traffic.moves.values.max() ?? 0), traffic.started.values.map { $0.values.reduce(0, +) }.max() ?? 0)
        func weight(_ count: Int) -> String {
            let width = 1 + 4 * Double(count) / Double(heaviest)
            return "label=\"\(count)\", penwidth=\((width * 10).rounded() / 10)"
        }
        var lines = dot.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast(2)  // "}" and the empty line after it
        for flow in flows {
            let started = traffic.started[flow.name] ?? [:]
            guard !started.isEmpty else { continue }
            let finished = traffic.finished[flow.name] ?? [:]
            let rates = started.keys.sorted().map { variant -> String in
                let (done, all) = (finished[variant] ?? 0, started[variant] ?? 0)
                return "\(variant): \(done)/\(all) finished (\(all == 0 ? 0 : Int((100 * Double(done) / Double(all)).rounded()))%)"
            }
            let label = ([flow.name] + rates).map(\.dotEscaped).joined(separator: "\\n")
            lines.append("  \(quoted(flow.name)) [label=\"\(label)\"];")
            for parent in flows where parent.children.contains(flow.name) {
                lines.append("  \(quoted(parent.name)) -> \(quoted(flow.name)) [\(weight(started.values.reduce(0, +)))];")
            }
        }
        for link in deepLinks {
            guard let count = traffic.links[link.pattern] else { continue }
            for flow in link.flows { lines.append("  \(quoted(link.pattern)) -> \(quoted(flow)) [style=dashed, \(weight(count))];") }
        }
        for (move, count) in traffic.moves.sorted(by: { ($0.key.from, $0.key.route, $0.key.to) < ($1.key.from, $1.key.route, $1.key.to) }) {
            let width = 1 + 4 * Double(count) / Double(heaviest)
            lines.append(
                "  \(quoted(move.from)) -> \(quoted(move.to)) [label=\(quoted("\(move.route) ×\(count)")), penwidth=\((width * 10).rounded() / 10), color=\"#2b6cb0\"];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
