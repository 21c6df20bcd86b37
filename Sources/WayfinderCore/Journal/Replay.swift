/// Runs a ``ReplayBundle`` through the pure engine and checks, revision by revision, that the
/// state it computes is the one recorded (by digest), stopping at the first divergence with a
/// readable account of it.
///
/// `wayfinder replay BUNDLE.json` prints a report; an app's tests load a bundle from a bug
/// report and assert it replays clean (`TestSession.replay`), so the bug stays fixed.
public struct Replay: Sendable {
    /// One revision replayed.
    public struct Step: Sendable, Hashable {
        /// The revision replayed.
        public var revision: Int
        /// What made it (`route login`, `back`, `effect e1`, …).
        public var summary: String
        /// How the computed state compared with the recorded one.
        public var verdict: Verdict
    }

    /// How a revision compared.
    public enum Verdict: String, Sendable, Hashable {
        /// The computed state is the recorded one.
        case ok
        /// It differs (the run stops here).
        case diverged
        /// Its action carried a redacted secret and the computed state differs: the engine cannot
        /// see the value the user typed (a too-short password, say), so the recorded state is
        /// taken and the run goes on from it.
        case recorded
        /// Made by an earlier version of the app, before a migration the bundle records: this
        /// engine cannot compute it, so it is taken as recorded.
        case earlier
    }

    /// Where the computed story left the recorded one.
    public struct Divergence: Sendable, Hashable, CustomStringConvertible {
        /// The first revision whose computed state differs.
        public var revision: Int
        /// Why, in one line (a different state, an action the engine refused, a gap).
        public var reason: String
        /// The differences between the recorded and the computed state (and transitions).
        public var differences: [String]

        public var description: String {
            (["revision \(revision) diverged: \(reason)"] + differences.map { "  " + $0 }).joined(separator: "\n")
        }
    }

    /// The outcome: every revision checked, and the divergence that stopped the run, if any.
    public struct Report: Sendable, Hashable, CustomStringConvertible {
        /// Every revision replayed, oldest first, up to and including a divergence.
        public var steps: [Step]
        /// The divergence that stopped the run; nil when it ran clean.
        public var divergence: Divergence?
        /// The state of every revision replayed without divergence.
        public var states: [Int: SessionState] = [:]
        /// True when every recorded revision was computed again, equal.
        public var isClean: Bool { divergence == nil }

        /// One line per revision (`r3 ok  route login`), then the divergence.
        public var description: String {
            var lines = steps.map { step in
                let note = switch step.verdict {
                case .recorded: " (a secret was redacted: the recorded state is taken)"
                case .earlier: " (made by an earlier version of the app: taken as recorded)"
                case .ok, .diverged: ""
                }
                return "r\(step.revision) \(step.verdict.rawValue) \(step.summary)" + note
            }
            if let divergence { lines.append(divergence.description) } else { lines.append("\(steps.count) revisions replayed, no divergence") }
            return lines.joined(separator: "\n")
        }
    }

    /// The engine the bundle runs through: the app under test or the one the server was built with.
    public let engine: Engine
    private let secrets: SecretParams

    /// A replayer running bundles through `engine`.
    public init(_ engine: Engine) {
        self.engine = engine
        self.secrets = SecretParams(engine.app)
    }

    /// Replays `bundle`.
    public func run(_ bundle: ReplayBundle) -> Report {
        var report = Report(steps: [], divergence: nil)
        var states: [Int: SessionState] = [:]
        var current: SessionState?
        // Entries before the last migration were made by an earlier version of the app, which
        // this engine cannot compute again: they are taken as recorded, and the migration is
        // replayed from the state of the entry before it (or taken as recorded too).
        let lastMigration = bundle.entries.lastIndex { $0.actions.contains { if case .migration = $0 { true } else { false } } }
        let recordedBy = bundle.app["version"]?.stringValue
        let versionNote = recordedBy.flatMap { $0 == engine.app.version || lastMigration != nil ? nil : $0 }
            .map { " (the bundle was recorded by version \($0) of the app; this is version \(engine.app.version))" } ?? ""
        for (index, entry) in bundle.entries.enumerated() {
            let summary = entry.actions.map(Self.summary).joined(separator: ", ")
            func diverge(_ reason: String, _ differences: [String] = []) -> Report {
                report.steps.append(Step(revision: entry.revision, summary: summary, verdict: .diverged))
                report.divergence = Divergence(revision: entry.revision, reason: reason + versionNote, differences: differences)
                report.states = states
                return report
            }
            if let lastMigration, index < lastMigration {
                report.steps.append(Step(revision: entry.revision, summary: summary, verdict: .earlier))
                current = recordedState(entry, bundle)
                if let current { states[entry.revision] = current }
                continue
            }
            var state: SessionState
            var transitions: [Transition] = []
            do {
                if let previous = current {
                    guard entry.revision == previous.revision + 1 else {
                        return diverge("the bundle has no entry for revision \(previous.revision + 1)")
                    }
                    state = previous
                    for action in entry.actions {
                        transitions += try apply(action, to: &state, at: entry.timestamp, history: states)
                    }
                    state.revision = entry.revision
                } else if case .start(let context, let deepLink, let identity)? = entry.actions.first {
                    state = try engine.start(
                        session: bundle.session, context: context, deepLink: deepLink, identity: identity, at: entry.timestamp)
                    for action in entry.actions.dropFirst() { transitions += try apply(action, to: &state, at: entry.timestamp, history: states) }
                    state.revision = entry.revision
                    transitions = entry.transitions
                } else {
                    // A bundle whose journal had dropped its first entries starts from the state
                    // of its oldest one.
                    guard let recorded = entry.state else { return diverge("the oldest entry has no recorded state to start from") }
                    state = try StateCodec.decode(recorded.canonicalBytes, session: bundle.session)
                    transitions = entry.transitions
                }
            } catch Missing.rewindTarget {
                // A rewind to a revision before the bundle's first: its entry keeps the state.
                guard let recorded = recordedState(entry, bundle) else { return diverge("a rewind to a revision the bundle lacks") }
                report.steps.append(Step(revision: entry.revision, summary: summary, verdict: .ok))
                states[entry.revision] = recorded
                current = recorded
                continue
            } catch {
                if let recorded = adoptable(entry, bundle, after: current) {
                    report.steps.append(Step(revision: entry.revision, summary: summary, verdict: .recorded))
                    states[entry.revision] = recorded
                    current = recorded
                    continue
                }
                return diverge("the engine refused it: \(error)")
            }
            let bytes = StateCodec.encode(state)
            guard StateDigest.of(secrets.digestBytes(state, stateBytes: bytes)) == entry.digest else {
                if let recorded = adoptable(entry, bundle, after: current) {
                    report.steps.append(Step(revision: entry.revision, summary: summary, verdict: .recorded))
                    states[entry.revision] = recorded
                    current = recorded
                    continue
                }
                var differences: [String] = []
                if let recorded = entry.state, let computed = try? JSONParser.parse(bytes) {
                    differences = JSONDiff.lines(recorded: recorded, computed: computed)
                }
                if transitions != entry.transitions {
                    differences.append("transitions: \(Self.text(entry.transitions)) → \(Self.text(transitions))")
                }
                let screens = state.navigation.visibleScreens.map(\.name)
                if screens != entry.screens {
                    differences.insert("screens: \(entry.screens.joined(separator: " > ")) → \(screens.joined(separator: " > "))", at: 0)
                }
                return diverge("the computed state differs from the recorded one", differences)
            }
            report.steps.append(Step(revision: entry.revision, summary: summary, verdict: .ok))
            states[entry.revision] = state
            current = state
        }
        report.states = states
        return report
    }

    /// The recorded state of `entry` if its actions carried a redacted secret or the state before
    /// it held one in its context (so the engine could not decide as it did), and the state is in
    /// the bundle and consistent with its digest.
    private func adoptable(_ entry: JournalRecord, _ bundle: ReplayBundle, after previous: SessionState?) -> SessionState? {
        let redacted = JSONValue.string(JournalAction.redacted)
        let secretBefore = previous.map { state in secrets.contextMembers.contains { state.context[$0] == redacted } } ?? false
        return secretBefore || entry.actions.contains { $0.carriesRedacted(secrets) } ? recordedState(entry, bundle) : nil
    }

    /// The state `entry` keeps, if it keeps one consistent with its digest.
    private func recordedState(_ entry: JournalRecord, _ bundle: ReplayBundle) -> SessionState? {
        guard let recorded = entry.state, let state = try? StateCodec.decode(recorded.canonicalBytes, session: bundle.session),
            StateDigest.of(secrets.digestBytes(state, stateBytes: StateCodec.encode(state))) == entry.digest
        else { return nil }
        return state
    }

    private enum Missing: Error { case rewindTarget }

    /// Applies one recorded action, made at `time`; returns its transitions.
    private func apply(_ action: JournalAction, to state: inout SessionState, at time: Timestamp, history: [Int: SessionState]) throws -> [Transition] {
        switch action {
        case .start: throw JournalError.malformed("a session starts only once")
        case .action(let action):
            let outcome = try engine.reduce(state, action, at: time)
            state = outcome.state
            return outcome.transitions
        case .abandonEffect(let id):
            state = engine.abandonEffect(id, in: state).state
            return []
        case .rewind(let revision):
            guard let earlier = history[revision] else { throw Missing.rewindTarget }
            let outcome = engine.rewind(state, to: earlier)
            state = outcome.state
            return outcome.transitions
        case .migration:
            let loaded = try engine.upgrade(state)
            state = loaded.state
            return loaded.transitions
        }
    }

    static func summary(_ action: JournalAction) -> String {
        switch action {
        case .start(_, let link, _): link.map { "start \($0)" } ?? "start"
        case .action(.trigger(let route)): "route \(route.name)"
        case .action(.back): "back"
        case .action(.selectTab(let tab)): "tab \(tab)"
        case .action(.openDeepLink(let url)): "deep link \(url)"
        case .action(.completeEffect(let id, _)): "effect \(id) result"
        case .action(.signal(let signal)): "signal \(signal.name)"
        case .abandonEffect(let id): "effect \(id) abandoned"
        case .rewind(let revision): "rewind to r\(revision)"
        case .migration(let from, let to, let rebuilt):
            "\(rebuilt.map { "rebuilt (\($0))" } ?? "migration") from version \(from ?? "none") to \(to)"
        }
    }

    private static func text(_ transitions: [Transition]) -> String {
        var w = JSONWriter()
        w.beginArray()
        for transition in transitions { transition.write(to: &w) }
        w.endArray()
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
