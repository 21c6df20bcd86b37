import WayfinderCore

/// New sessions' first states by launch input (context and deep link), so creating a session
/// does not run the launch flows, encode the state and render every screen each time.
///
/// The engine is pure: the same context and link always start the same state, except for the
/// session id and the time (``FlowContext/now``). A launch is kept only if neither shows: on a
/// miss the launch runs for two different ids a day apart, and is cached only when the two
/// states are equal once the id is set aside (a flow that copied the session id or the time into
/// its data would make them differ, and is then run every time). The stored form does not contain the id, so its bytes are shared too, and the render
/// memo makes a new session's first rendering write only the envelope.
///
/// Bounded: at `capacity` distinct launches the table is cleared, and a launch whose context
/// takes more than `maxKeyBytes` (members the app ignores count too) is never kept. Nor is a
/// launch that asks for effects: their values may hold a ``Secret``, which lives only for the run
/// that follows, and such a launch waits for a service anyway. Nor is the launch of a verified
/// user: its state holds the identity, and a table per user would only grow.
final class LaunchCache: Sendable {
    struct Launch: Sendable {
        /// The first state, with a placeholder session id.
        var state: SessionState
        /// `StateCodec.encode(state)` (the id is not part of it).
        var stored: [UInt8]
        /// Screens of the first rendering, valid for every session started this way.
        var memo: RenderMemo
    }

    private struct Key: Hashable, Sendable {
        var context: [UInt8]
        var deepLink: String?
    }

    private let table = Locked<[Key: Launch]>([:])
    private let capacity: Int
    private let maxKeyBytes: Int

    init(capacity: Int = 256, maxKeyBytes: Int = 4096) {
        self.capacity = capacity
        self.maxKeyBytes = maxKeyBytes
    }

    /// The first state of a session `id` started with `context` and `deepLink` for `identity`,
    /// its stored bytes, a render memo for it, and the effects it asked for. Throws what
    /// `Engine.start` throws. `now`: when the request arrived.
    func start(
        _ engine: Engine, session id: String, context: JSONObject, deepLink: String?, identity: Identity?, at now: Timestamp
    ) throws -> (state: SessionState, stored: [UInt8], memo: RenderMemo, effects: [EffectRequest]) {
        if identity != nil {
            let launched = try engine.launched(session: id, context: context, deepLink: deepLink, identity: identity, at: now)
            var memo = RenderMemo()
            _ = engine.renderJSON(launched.state, memo: &memo)
            return (launched.state, StateCodec.encode(launched.state), memo, launched.effects)
        }
        let key = Key(context: JSONValue.object(context).canonicalBytes, deepLink: deepLink)
        if let launch = table.withLock({ $0[key] }) {
            var state = launch.state
            state.session = id
            return (state, launch.stored, launch.memo, [])
        }
        let launched = try engine.launched(session: id, context: context, deepLink: deepLink, at: now)
        var state = launched.state
        let stored = StateCodec.encode(state)
        var memo = RenderMemo()
        _ = engine.renderJSON(state, memo: &memo)
        guard launched.effects.isEmpty else { return (state, stored, memo, launched.effects) }
        // Launched again under another id, a day later: kept only if neither shows in the state.
        var check = try engine.start(session: id + "~", context: context, deepLink: deepLink, at: now.advanced(by: .seconds(86_400)))
        check.session = id
        if check == state, key.context.count <= maxKeyBytes {
            let launch = Launch(state: state, stored: stored, memo: memo)
            let capacity = self.capacity
            table.withLock { table in
                if table.count >= capacity { table.removeAll(keepingCapacity: true) }
                table[key] = launch
            }
        }
        state.session = id
        return (state, stored, memo, [])
    }
}
