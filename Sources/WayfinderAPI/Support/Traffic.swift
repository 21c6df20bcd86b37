import Synchronization
import WayfinderCore

/// Where users go: flows started and finished, screens shown, routes taken (from which screen to
/// which), deep links opened and deferred — each counted per experiment variant (the context
/// member the app names, ``SessionContext/variantKey``). In `/metrics` and on the flow graph.
///
/// Cardinality is bounded: flows, screens, routes and link patterns are the catalog's (a name it
/// does not have counts as `other`), and a variant past the first 16 values seen counts as
/// `other`. Counters are kept per thread group, like the other metrics, and added up when read.
final class Traffic: Sendable {
    enum Kind: Int, Sendable, Comparable {
        case flowStarted, flowFinished, screenShown, routeTaken, linkOpened, linkDeferred
        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    /// One counter: a kind, its names (a flow; a screen; from, route and to; a link pattern) and
    /// the variant.
    struct Key: Hashable, Sendable {
        var kind: Kind
        var name: String
        var route = ""
        var to = ""
        var variant: String
    }

    static let maxVariants = 16
    private let variantKey: String?
    private let known: Set<String>
    private let app: Application
    private let variants = Mutex<Set<String>>([])
    private final class Shard: Sendable { let counts = Mutex<[Key: UInt64]>([:]) }
    private let shards: [Shard] = (0..<8).map { _ in Shard() }

    init(_ app: Application) {
        self.app = app
        variantKey = app.variantKey
        var known: Set<String> = []
        for flow in app.catalog.flows {
            known.insert(flow.name)
            for screen in flow.screens { known.insert(flow.name + "." + screen) }
            for route in flow.routes { known.insert(route.name) }
        }
        for link in app.catalog.deepLinks { known.insert(link.pattern) }
        self.known = known
    }

    /// Counts what one change did: `before` is nil for a new session.
    func record(before: SessionState?, after: SessionState, actions: [JournalAction]) {
        let variant = self.variant(of: after.context)
        var keys: [Key] = []
        if before.map({ !$0.coordinators.sameCoordinators(as: after.coordinators) }) ?? true {
            let was = before.map(Self.flows) ?? []
            let now = Self.flows(after)
            for (id, flow) in now where !was.contains(where: { $0.id == id }) { keys.append(Key(kind: .flowStarted, name: label(flow), variant: variant)) }
            for (id, flow) in was where !now.contains(where: { $0.id == id }) { keys.append(Key(kind: .flowFinished, name: label(flow), variant: variant)) }
        }
        let topBefore = before?.navigation.topScreen
        let topAfter = after.navigation.topScreen
        let top = topAfter.flatMap { screenName($0, in: after) }
        if topBefore?.id != topAfter?.id, let top {
            keys.append(Key(kind: .screenShown, name: top, variant: variant))
        }
        for action in actions {
            switch action {
            case .action(.trigger(let route)):
                let from = before.flatMap { state in topBefore.flatMap { screenName($0, in: state) } }
                keys.append(Key(kind: .routeTaken, name: from ?? "other", route: label(route.name), to: top ?? "other", variant: variant))
            case .action(.openDeepLink(let url)), .start(_, let url?, _):
                // The catalog's form of a pattern: scheme included.
                let pattern = app.match(deepLink: url).map { label(app.scheme + "://" + $0.pattern) } ?? "other"
                keys.append(Key(kind: after.pendingDeepLink == url ? .linkDeferred : .linkOpened, name: pattern, variant: variant))
            default: break
            }
        }
        guard !keys.isEmpty else { return }
        shards[ThreadNumber.current % shards.count].counts.withLock { counts in
            for key in keys { counts[key, default: 0] += 1 }
        }
    }

    /// Every counter, added up over the shards.
    func snapshot() -> [Key: UInt64] {
        var total: [Key: UInt64] = [:]
        for shard in shards { total.merge(shard.counts.withLock { $0 }, uniquingKeysWith: +) }
        return total
    }

    /// The counters as the flow graph draws them (all variants together for moves and links).
    func graph() -> GraphTraffic {
        var graph = GraphTraffic()
        for (key, count) in snapshot() {
            let n = Int(count)
            switch key.kind {
            case .flowStarted: graph.started[key.name, default: [:]][key.variant, default: 0] += n
            case .flowFinished: graph.finished[key.name, default: [:]][key.variant, default: 0] += n
            case .routeTaken: graph.moves[GraphTraffic.Move(from: key.name, route: key.route, to: key.to), default: 0] += n
            case .linkOpened: graph.links[key.name, default: 0] += n
            case .screenShown, .linkDeferred: break
            }
        }
        return graph
    }

    private func label(_ name: String) -> String { known.contains(name) ? name : "other" }

    /// `flow.screen` of a screen of `state`.
    private func screenName(_ screen: ScreenInstance, in state: SessionState) -> String? {
        state.coordinators.flow(of: screen.coordinator).map { label($0 + "." + screen.name) }
    }

    private func variant(of context: JSONObject) -> String {
        guard let variantKey, let value = context[variantKey], !value.isNull else { return "none" }
        let text = value.stringValue ?? value.canonicalString
        return variants.withLock { seen in
            if seen.contains(text) { return text }
            guard seen.count < Self.maxVariants else { return "other" }
            seen.insert(text)
            return text
        }
    }

    /// Every coordinator of the tree: its id and flow.
    private static func flows(_ state: SessionState) -> [(id: String, flow: String)] {
        var out: [(id: String, flow: String)] = []
        func walk(_ node: Coordinator) {
            out.append((node.id, node.flow))
            for child in node.children { walk(child) }
        }
        walk(state.coordinators)
        return out
    }
}

extension Traffic {
    /// The counters in the Prometheus text format.
    func exposition() -> String {
        let escape = Metrics.escapeLabel
        let counts = snapshot().sorted { ($0.key.kind, $0.key.name, $0.key.route, $0.key.to, $0.key.variant) < ($1.key.kind, $1.key.name, $1.key.route, $1.key.to, $1.key.variant) }
        let families: [(Kind, String, String)] = [
            (.flowStarted, "wayfinder_flows_started_total", "Flows started, by flow and variant."),
            (.flowFinished, "wayfinder_flows_finished_total", "Flows finished (left the coordinator tree), by flow and variant."),
            (.screenShown, "wayfinder_screens_shown_total", "Screens that came on top, by flow.screen and variant."),
            (.routeTaken, "wayfinder_routes_taken_total", "Routes applied, by the screen they were taken on, the route, the screen on top after, and variant."),
            (.linkOpened, "wayfinder_deeplinks_opened_total", "Deep links opened, by pattern and variant."),
            (.linkDeferred, "wayfinder_deeplinks_deferred_total", "Deep links kept until the session can open them, by pattern and variant."),
        ]
        var out = ""
        for (kind, name, help) in families {
            out += "# HELP \(name) \(help)\n# TYPE \(name) counter\n"
            for (key, count) in counts where key.kind == kind {
                let labels: String
                switch kind {
                case .flowStarted, .flowFinished: labels = "flow=\"\(escape(key.name))\""
                case .screenShown: labels = "screen=\"\(escape(key.name))\""
                case .routeTaken: labels = "from=\"\(escape(key.name))\",route=\"\(escape(key.route))\",to=\"\(escape(key.to))\""
                case .linkOpened, .linkDeferred: labels = "pattern=\"\(escape(key.name))\""
                }
                out += "\(name){\(labels),variant=\"\(escape(key.variant))\"} \(count)\n"
            }
        }
        return out
    }
}
