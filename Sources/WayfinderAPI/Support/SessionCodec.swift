import WayfinderCore

/// A session's state as stored: the engine's compact storage JSON (``StateCodec``).
enum SessionCodec {
    static func encode(_ state: SessionState) throws -> [UInt8] { StateCodec.encode(state) }
    /// The same bytes, reusing the start of the session's previous encoding where it holds.
    static func encode(_ state: SessionState, memo: inout StateCodec.Memo) throws -> [UInt8] {
        StateCodec.encode(state, memo: &memo)
    }
    static func decode(_ bytes: [UInt8], session: String) throws -> SessionState {
        try StateCodec.decode(bytes, session: session)
    }
}
