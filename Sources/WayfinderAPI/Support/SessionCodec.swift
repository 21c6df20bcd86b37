import Foundation
import WayfinderCore

/// A session's state as stored: JSON bytes of the `Codable` ``SessionState``.
enum SessionCodec {
    static func encode(_ state: SessionState) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(state))
    }

    static func decode(_ bytes: [UInt8]) throws -> SessionState {
        try JSONDecoder().decode(SessionState.self, from: Data(bytes))
    }
}
