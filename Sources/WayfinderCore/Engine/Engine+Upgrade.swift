/// A stored state as this version of the application serves it: as it was, migrated from an
/// earlier version, or rebuilt because nothing covered it.
public struct LoadedSession: Sendable, Hashable {
    /// What loading did.
    public enum Outcome: Sendable, Hashable {
        /// Saved by this version and valid: unchanged.
        case current
        /// Saved by an earlier version (`from`; nil before apps had versions) and migrated.
        case migrated(from: String?)
        /// Saved by `from` and not usable by this version (a flow or screen it no longer has,
        /// values that do not decode, a migration that failed): started afresh, as a new session
        /// with the same context and model would start.
        case rebuilt(from: String?, reason: RebuildReason, detail: String)
    }

    /// The state to serve.
    public var state: SessionState
    /// How a client showing the stored state gets to `state` (empty when what it shows is the same).
    public var transitions: [Transition]
    /// What loading did.
    public var outcome: Outcome
    /// Whether `state` differs from what is stored (a new revision, or only the version stamp)
    /// and is to be saved.
    public var changed: Bool
    /// Effects the upgrade asked for (a flow started in place of a removed one, the launch of a
    /// rebuilt session), to run once `state` is saved; they are also in `state.effects`.
    public var effects: [EffectRequest] = []
}

/// Why a stored state was rebuilt: a small fixed set, so metrics can be labelled with it.
public enum RebuildReason: String, Sendable, Hashable, CaseIterable {
    /// A coordinator runs a flow the application does not register.
    case unknownFlow = "unknown_flow"
    /// A screen is not one of its flow's screens, or belongs to no coordinator.
    case unknownScreen = "unknown_screen"
    /// A screen's values do not decode as its case.
    case undecodableScreen = "undecodable_screen"
    /// The stored bytes are not a state.
    case undecodableState = "undecodable_state"
    /// A migration threw (a model that does not read as the old type, a flow that refused).
    case failedMigration = "failed_migration"
    /// Nothing would be on screen.
    case noScreen = "no_screen"
}

extension Engine {
    /// Reads a stored state (``StateCodec``) as this application serves it: see ``upgrade(_:)``.
    /// Bytes that are not a state are rebuilt from the context and model they still hold, with
    /// revision `revision + 1` (`revision` is the store's).
    ///
    /// - Throws: ``SessionVersionAhead`` for a state of a newer version.
    public func load(_ bytes: [UInt8], session: String, revision: Int) throws -> LoadedSession {
        let state: SessionState
        do {
            state = try StateCodec.decode(bytes, session: session)
        } catch {
            let salvaged = StateCodec.salvage(bytes)
            try checkNotAhead(salvaged.appVersion, layout: salvaged.layout)
            return try rebuild(
                session: session, revision: revision, context: salvaged.context, identity: salvaged.identity, model: salvaged.model,
                from: salvaged.appVersion, reason: .undecodableState, detail: "\(error)")
        }
        return try upgrade(state)
    }

    /// A state as this application serves it. Saved by this version and valid: as it is. Saved
    /// by an earlier one: with the changes of every newer migration, its context read again
    /// member by member, this version's stamp and, if anything else changed, a new revision (an
    /// `update` transition names the visible screens). Whatever no migration covers (a flow or
    /// screen this version lacks, values that do not decode) is rebuilt: launched again with the
    /// same context and model, a new revision and a `setRoot` transition.
    ///
    /// - Throws: ``SessionVersionAhead`` for a state of a newer version: it is never changed.
    public func upgrade(_ state: SessionState) throws -> LoadedSession {
        let from = state.appVersion
        var navigator = Navigator(app: app, state: state)
        if from != app.version {
            try checkNotAhead(from, layout: 1)
            let steps = app.migrations.steps(after: from.flatMap(AppVersion.init))
            do {
                try navigator.migrate(steps)
            } catch {
                // The model changes may still hold: the rebuilt session keeps what they make.
                var kept = state
                kept.model = (try? Navigator.migrated(model: state.model, steps)) ?? state.model
                return try rebuild(kept, from: from, reason: .failedMigration, detail: "\(error)")
            }
            navigator.state.context = contextRead(navigator.state.context)
            navigator.state.appVersion = app.version
        }
        if let (reason, detail) = problem(in: navigator.state) { return try rebuild(navigator.state, from: from, reason: reason, detail: detail) }
        guard from != app.version else { return LoadedSession(state: state, transitions: [], outcome: .current, changed: false) }
        var next = navigator.state
        next.appVersion = from
        guard next != state else {
            next.appVersion = app.version
            return LoadedSession(state: next, transitions: [], outcome: .migrated(from: from), changed: true)
        }
        next.appVersion = app.version
        next.revision = state.revision + 1
        var transitions = navigator.transitions
        let shown = Set(transitions.filter { [.push, .present, .setRoot].contains($0.op) }.flatMap(\.screens))
        let updated = next.navigation.visibleScreens.map(\.id).filter { !shown.contains($0) }
        if !updated.isEmpty { transitions.append(Transition(.update, updated)) }
        return LoadedSession(state: next, transitions: transitions, outcome: .migrated(from: from), changed: true, effects: navigator.requested)
    }

    /// Throws ``SessionVersionAhead`` if `version` is newer than this application's, or the
    /// codec layout is one this build does not know (a newer one).
    private func checkNotAhead(_ version: String?, layout: Int) throws {
        let newer = version.flatMap(AppVersion.init).map { stateVersion in AppVersion(app.version).map { stateVersion > $0 } ?? false }
        if layout > 1 || newer == true {
            throw SessionVersionAhead(stateVersion: version ?? "layout \(layout)", appVersion: app.version)
        }
    }

    private func rebuild(_ state: SessionState, from: String?, reason: RebuildReason, detail: String) throws -> LoadedSession {
        try rebuild(
            session: state.session, revision: state.revision, context: state.context, identity: state.identity, model: state.model,
            from: from, reason: reason,
            detail: detail)
    }

    /// A session launched again with `context` (read member by member; empty if the launch
    /// refuses it) and `model` (none if the launch still refuses), at revision `revision + 1`.
    /// It keeps its identity: who the user is does not change with the app's version.
    private func rebuild(
        session: String, revision: Int, context: JSONObject, identity: Identity?, model: JSONObject, from: String?,
        reason: RebuildReason, detail: String
    ) throws -> LoadedSession {
        let read = contextRead(context)
        let navigator: Navigator
        if let launched = try? launch(session: session, context: read, identity: identity, model: model) {
            navigator = launched
        } else if let launched = try? launch(session: session, context: try app.normalizeContext([:]), identity: identity, model: model) {
            navigator = launched
        } else {
            navigator = try launch(session: session, context: try app.normalizeContext([:]), identity: identity, model: [:])
        }
        var state = navigator.state
        state.revision = revision + 1
        var transitions = navigator.transitions.filter { $0.op == .setRoot }.suffix(1).map { $0 }
        if transitions.isEmpty { transitions = [Transition(.setRoot, state.navigation.visibleScreens.map(\.id))] }
        transitions[0].screens = state.navigation.visibleScreens.map(\.id)
        return LoadedSession(
            state: state, transitions: transitions, outcome: .rebuilt(from: from, reason: reason, detail: detail), changed: true,
            effects: navigator.requested)
    }

    /// `context` read again by this version's context type, member by member: members it no
    /// longer reads are dropped rather than the whole context.
    private func contextRead(_ context: JSONObject) -> JSONObject {
        var context = context
        for _ in 0..<2 {
            do {
                return try app.normalizeContext(context)
            } catch NavigationError.invalidParams(let params) {
                for param in params where param.name.hasPrefix("context.") { context.removeValue(forKey: String(param.name.dropFirst(8))) }
            } catch {
                break
            }
        }
        return context
    }

    /// What makes `state` unusable by this application, if anything: a coordinator of an
    /// unknown flow, a screen its flow does not declare or cannot decode, nothing on screen.
    func problem(in state: SessionState) -> (RebuildReason, String)? {
        if let unknown = state.coordinators.firstID(where: { app.flow(named: $0.flow) == nil }) {
            let flow = state.coordinators.lookup(unknown) { $0.flow } ?? ""
            return (.unknownFlow, "coordinator \(unknown) runs flow '\(flow)', which the application does not have")
        }
        let navigation = state.navigation
        for location in navigation.allLocations {
            for screen in navigation[location]?.screens ?? [] {
                guard let flow = state.coordinators.lookup(screen.coordinator, { $0.flow }).flatMap(app.flow(named:)) else {
                    return (.unknownScreen, "screen \(screen.id) '\(screen.name)' belongs to coordinator \(screen.coordinator), which is not running")
                }
                guard flow.screens.contains(screen.name) else {
                    return (.unknownScreen, "screen \(screen.id) is '\(screen.name)', which flow '\(flow.name)' does not have")
                }
                if let problem = flow.screenProblem(screen) { return (.undecodableScreen, problem) }
            }
        }
        if navigation.topScreen == nil { return (.noScreen, "no screen is on top") }
        return nil
    }
}

extension Coordinator {
    /// The id of the first node (pre-order) for which `test` holds.
    func firstID(where test: (Coordinator) -> Bool) -> String? {
        if test(self) { return id }
        for child in children {
            if let found = child.firstID(where: test) { return found }
        }
        return nil
    }
}
