import Glibc
import Synchronization

/// Prometheus metrics of the API, rendered in the text exposition format (version 0.0.4).
public final class Metrics: Sendable {
    static let latencyBuckets: [Double] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]

    private struct Histogram {
        /// Observations per bucket: `counts[i]` those in (bound i-1, bound i], the last those above
        /// every bound. The exposition's cumulative counts are summed when rendering.
        var counts = [UInt64](repeating: 0, count: Metrics.latencyBuckets.count + 1)
        var sum: Double = 0
        var total: UInt64 = 0
        mutating func observe(_ seconds: Double) {
            var index = 0
            while index < Metrics.latencyBuckets.count, seconds > Metrics.latencyBuckets[index] { index += 1 }
            counts[index] += 1
            sum += seconds
            total += 1
        }
        /// Observations at or below `latencyBuckets[bucket]`.
        func cumulative(_ bucket: Int) -> UInt64 { counts[...bucket].reduce(0, +) }
        mutating func add(_ other: Histogram) {
            for index in counts.indices { counts[index] += other.counts[index] }
            sum += other.sum
            total += other.total
        }
    }

    /// The store calls that are timed, one histogram each.
    enum StoreOperation: Int, CaseIterable, Sendable {
        case load, save, create, delete, idempotency, ping

        var label: String {
            switch self {
            case .load: "load"
            case .save: "save"
            case .create: "create"
            case .delete: "delete"
            case .idempotency: "idempotency"
            case .ping: "ping"
            }
        }
    }

    private struct RequestKey: Hashable { var route: String; var method: String; var status: Int }
    private struct RouteKey: Hashable { var flow: String; var route: String }
    private struct UpgradeKey: Hashable { var outcome: String; var reason: String }
    private struct EffectKey: Hashable { var flow: String; var effect: String; var outcome: String }
    /// Values in rows, found through a dictionary; `last` remembers the row used last, which the
    /// next request of a busy route reuses without hashing its key.
    private struct Rows<Key: Hashable, Value> {
        var rows: [(key: Key, value: Value)] = []
        var index: [Key: Int] = [:]
        var last = 0

        mutating func update(_ key: Key, new: @autoclosure () -> Value, _ body: (inout Value) -> Void) {
            if last >= rows.count || rows[last].key != key {
                if let row = index[key] {
                    last = row
                } else {
                    last = rows.count
                    index[key] = last
                    rows.append((key, new()))
                }
            }
            body(&rows[last].value)
        }
    }

    private struct State {
        var requests = Rows<RequestKey, UInt64>()
        var latency = Rows<String, Histogram>()
        var routes: [RouteKey: UInt64] = [:]
        var upgrades: [UpgradeKey: UInt64] = [:]
        var effects: [EffectKey: UInt64] = [:]
        var store = [Histogram](repeating: Histogram(), count: StoreOperation.allCases.count)

        mutating func add(_ other: State) {
            for row in other.requests.rows { requests.update(row.key, new: 0) { $0 += row.value } }
            for row in other.latency.rows { latency.update(row.key, new: Histogram()) { $0.add(row.value) } }
            routes.merge(other.routes, uniquingKeysWith: +)
            upgrades.merge(other.upgrades, uniquingKeysWith: +)
            effects.merge(other.effects, uniquingKeysWith: +)
            for index in store.indices { store[index].add(other.store[index]) }
        }
    }

    /// The methods counted by name; any other token is counted as "other", so a client cannot
    /// add a series to `/metrics` with every method it makes up.
    static let countedMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE"]

    static func methodLabel(_ method: String) -> String {
        switch method {
        case "GET", "POST": method  // the common ones without hashing
        default: countedMethods.contains(method) ? method : "other"
        }
    }

    /// Counters per thread group: each event loop records into its own shard (no lock or cache
    /// line shared with the other loops on every request); `render` adds them up.
    private final class Shard: Sendable {
        let state = Mutex(State())
    }

    private static let shardCount = 8
    private let shards: [Shard] = (0..<Metrics.shardCount).map { _ in Shard() }
    let eventStreams = Atomic<Int>(0)

    /// Counters at zero.
    public init() {}

    /// The calling thread's shard: threads are numbered in turn the first time they record.
    private var shard: Shard {
        shards[ThreadNumber.current % Self.shardCount]
    }

    func request(route: String, method: String, status: Int, seconds: Double) {
        let key = RequestKey(route: route, method: Self.methodLabel(method), status: status)
        shard.state.withLock {
            $0.requests.update(key, new: 0) { $0 += 1 }
            $0.latency.update(route, new: Histogram()) { $0.observe(seconds) }
        }
    }

    func routeTriggered(flow: String, route: String) {
        shard.state.withLock { $0.routes[RouteKey(flow: flow, route: route), default: 0] += 1 }
    }

    /// A stored session that this version loaded and did not serve as it was: `outcome` is
    /// `migrated`, `rebuilt` or `refused` (saved by a newer version); `reason` says why a
    /// session was rebuilt (``RebuildReason``), empty otherwise.
    func sessionUpgrade(outcome: String, reason: String = "") {
        shard.state.withLock { $0.upgrades[UpgradeKey(outcome: outcome, reason: reason), default: 0] += 1 }
    }

    /// One call of an app's service for an effect (the flow and effect are the catalog's names,
    /// a bounded set; `outcome` is `success`, `failure` or `timed_out`).
    func effectCalled(flow: String, effect: String, outcome: String) {
        shard.state.withLock { $0.effects[EffectKey(flow: flow, effect: effect, outcome: outcome), default: 0] += 1 }
    }

    /// A label value as the Prometheus text format writes it: backslash, quote and newline escaped.
    static func escapeLabel(_ value: String) -> String {
        var out = ""
        for c in value {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }

    func storeOperation(_ op: StoreOperation, seconds: Double) {
        shard.state.withLock { $0.store[op.rawValue].observe(seconds) }
    }

    /// Records a store call that started at `started` (monotonic nanoseconds) and ended now.
    func storeOperation(_ op: StoreOperation, since started: UInt64) {
        storeOperation(op, seconds: Double(WallClock.monotonicNanos() - started) / 1e9)
    }

    /// The exposition text; gauges are read by the caller and passed in.
    func render(openConnections: Int, sessions: Int?, droppedLogLines: Int = 0, droppedAnswers: Int = 0) -> String {
        var snapshot = State()
        for shard in shards { snapshot.add(shard.state.withLock { $0 }) }
        var out = ""
        let escape = Metrics.escapeLabel
        func histogram(_ name: String, _ label: String, _ values: [String: Histogram]) {
            for (key, h) in values.sorted(by: { $0.key < $1.key }) {
                for (index, bound) in Self.latencyBuckets.enumerated() {
                    out += "\(name)_bucket{\(label)=\"\(escape(key))\",le=\"\(bound)\"} \(h.cumulative(index))\n"
                }
                out += "\(name)_bucket{\(label)=\"\(escape(key))\",le=\"+Inf\"} \(h.total)\n"
                out += "\(name)_sum{\(label)=\"\(escape(key))\"} \(h.sum)\n"
                out += "\(name)_count{\(label)=\"\(escape(key))\"} \(h.total)\n"
            }
        }
        out += "# HELP wayfinder_http_requests_total HTTP requests answered by the API, by route template, method and status.\n"
        out += "# TYPE wayfinder_http_requests_total counter\n"
        for (key, count) in snapshot.requests.rows.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
            out += "wayfinder_http_requests_total{route=\"\(escape(key.route))\",method=\"\(key.method)\",status=\"\(key.status)\"} \(count)\n"
        }
        out += "# HELP wayfinder_http_request_duration_seconds Time to answer a request, by route template.\n"
        out += "# TYPE wayfinder_http_request_duration_seconds histogram\n"
        histogram("wayfinder_http_request_duration_seconds", "route", Dictionary(uniqueKeysWithValues: snapshot.latency.rows.map { ($0.key, $0.value) }))
        out += "# HELP wayfinder_http_open_connections Open client connections.\n"
        out += "# TYPE wayfinder_http_open_connections gauge\n"
        out += "wayfinder_http_open_connections \(openConnections)\n"
        if let sessions {
            out += "# HELP wayfinder_sessions_active Sessions in the store.\n"
            out += "# TYPE wayfinder_sessions_active gauge\n"
            out += "wayfinder_sessions_active \(sessions)\n"
        }
        out += "# HELP wayfinder_routes_triggered_total Routes applied, by flow and route.\n"
        out += "# TYPE wayfinder_routes_triggered_total counter\n"
        for (key, count) in snapshot.routes.sorted(by: { ($0.key.flow, $0.key.route) < ($1.key.flow, $1.key.route) }) {
            out += "wayfinder_routes_triggered_total{flow=\"\(escape(key.flow))\",route=\"\(escape(key.route))\"} \(count)\n"
        }
        out += "# HELP wayfinder_session_upgrades_total Stored sessions of another app version loaded: migrated, rebuilt (with the reason) or refused (saved by a newer version).\n"
        out += "# TYPE wayfinder_session_upgrades_total counter\n"
        for (key, count) in snapshot.upgrades.sorted(by: { ($0.key.outcome, $0.key.reason) < ($1.key.outcome, $1.key.reason) }) {
            out += "wayfinder_session_upgrades_total{outcome=\"\(key.outcome)\",reason=\"\(key.reason)\"} \(count)\n"
        }
        out += "# HELP wayfinder_effect_calls_total Calls of the app's services for effects (each attempt), by flow, effect and outcome.\n"
        out += "# TYPE wayfinder_effect_calls_total counter\n"
        for (key, count) in snapshot.effects.sorted(by: { ($0.key.flow, $0.key.effect, $0.key.outcome) < ($1.key.flow, $1.key.effect, $1.key.outcome) }) {
            out += "wayfinder_effect_calls_total{flow=\"\(escape(key.flow))\",effect=\"\(escape(key.effect))\",outcome=\"\(key.outcome)\"} \(count)\n"
        }
        out += "# HELP wayfinder_store_operation_duration_seconds Session store calls, by operation.\n"
        out += "# TYPE wayfinder_store_operation_duration_seconds histogram\n"
        // Only the operations that happened, like the labelled series above.
        let store = StoreOperation.allCases.filter { snapshot.store[$0.rawValue].total > 0 }.map { ($0.label, snapshot.store[$0.rawValue]) }
        histogram("wayfinder_store_operation_duration_seconds", "op", Dictionary(uniqueKeysWithValues: store))
        out += "# HELP wayfinder_event_streams_open Open server-sent event streams.\n"
        out += "# TYPE wayfinder_event_streams_open gauge\n"
        out += "wayfinder_event_streams_open \(eventStreams.load(ordering: .relaxed))\n"
        out += "# HELP wayfinder_log_lines_dropped_total Log lines dropped because stdout did not keep up (or a write failed).\n"
        out += "# TYPE wayfinder_log_lines_dropped_total counter\n"
        out += "wayfinder_log_lines_dropped_total \(droppedLogLines)\n"
        out += "# HELP wayfinder_idempotency_answers_dropped_total Answers of idempotency records dropped to keep a session within its byte budget (a retry of one is refused 409).\n"
        out += "# TYPE wayfinder_idempotency_answers_dropped_total counter\n"
        out += "wayfinder_idempotency_answers_dropped_total \(droppedAnswers)\n"
        out += "# HELP process_resident_memory_bytes Resident memory size in bytes.\n"
        out += "# TYPE process_resident_memory_bytes gauge\n"
        out += "process_resident_memory_bytes \(Self.residentBytes())\n"
        return out
    }

    /// Resident set size from /proc/self/statm.
    static func residentBytes() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var size = 0, resident = 0
        guard withUnsafeMutablePointer(to: &size, { s in withUnsafeMutablePointer(to: &resident) { r in
            withVaList([s, r]) { vfscanf(file, "%ld %ld", $0) } } }) == 2 else { return 0 }
        return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// A small number for each thread that asks, in the order they first ask (one process-wide
/// thread-specific key, whatever the number of `Metrics` instances).
enum ThreadNumber {
    /// nil if the process has no thread-specific key left: then every thread records into shard 0.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()
    private static let next = Atomic<Int>(1)

    static var current: Int {
        guard let key else { return 0 }
        let stored = Int(bitPattern: pthread_getspecific(key))
        if stored != 0 { return stored }
        let number = next.wrappingAdd(1, ordering: .relaxed).oldValue
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: number))
        return number
    }
}
