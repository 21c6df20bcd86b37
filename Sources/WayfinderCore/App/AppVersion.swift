/// An application's version as the engine compares them: dotted numbers, `2`, `1.4`, `2024.5.1`.
///
/// Versions order states: a state written by an older version is migrated, one written by a
/// newer version is never changed (see ``SessionVersionAhead``). Missing trailing parts count as
/// zero (`1.0` equals `1`); leading zeros are ignored.
struct AppVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    let parts: [Int]
    let description: String

    /// Nil unless `text` is one or more runs of digits separated by single dots.
    init?(_ text: String) {
        var parts: [Int] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part) else { return nil }
            parts.append(number)
        }
        while parts.count > 1, parts.last == 0 { parts.removeLast() }
        self.parts = parts
        self.description = text
    }

    static func < (lhs: AppVersion, rhs: AppVersion) -> Bool {
        for index in 0..<max(lhs.parts.count, rhs.parts.count) {
            let a = index < lhs.parts.count ? lhs.parts[index] : 0
            let b = index < rhs.parts.count ? rhs.parts[index] : 0
            if a != b { return a < b }
        }
        return false
    }

    static func == (lhs: AppVersion, rhs: AppVersion) -> Bool { lhs.parts == rhs.parts }
    func hash(into hasher: inout Hasher) { hasher.combine(parts) }
}

/// A stored state was written by a newer version of the application than the one reading it (a
/// rolling deploy, with the old and the new version serving one store).
///
/// An older server never changes such a state, nor renders it with its older flows: the API
/// answers `409 version_ahead` with `Retry-After`, and a retry reaches a server of the newer
/// version once the deploy has moved on.
public struct SessionVersionAhead: Error, Sendable, Hashable, CustomStringConvertible {
    /// The version that wrote the state.
    public var stateVersion: String
    /// The version of the application that read it.
    public var appVersion: String

    /// A state saved by `stateVersion`, read by an application of `appVersion`.
    public init(stateVersion: String, appVersion: String) {
        self.stateVersion = stateVersion
        self.appVersion = appVersion
    }

    /// One sentence naming both versions.
    public var description: String {
        "the session was last saved by version \(stateVersion) of the app; this server runs version \(appVersion)"
    }
}
