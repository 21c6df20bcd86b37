import WayfinderCore

/// A session's state as stored: the engine's compact storage JSON (``StateCodec``).
enum SessionCodec {
    static func encode(_ state: SessionState) throws -> [UInt8] { StateCodec.encode(state) }
    static func decode(_ bytes: [UInt8], session: String) throws -> SessionState {
        try StateCodec.decode(bytes, session: session)
    }
}
