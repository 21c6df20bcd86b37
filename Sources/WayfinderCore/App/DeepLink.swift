/// A deep-link pattern an application registers: `todos/{id}` under its scheme.
public struct DeepLinkPattern: Sendable, Hashable {
    /// The path under the scheme, with `{name}` segments that capture: `todos/{id}`.
    public var pattern: String
    /// What a link of this pattern shows, for the catalog.
    public var description: String
    let segments: [Substring]

    /// A pattern and its description; ``Application`` derives them from the app's
    /// ``AppSchema/Link`` type.
    public init(_ pattern: String, description: String) {
        self.pattern = pattern
        self.description = description
        self.segments = pattern.split(separator: "/", omittingEmptySubsequences: false)
    }

    /// The captured `{name}` segments if `path` matches exactly (case-sensitive, no trailing slash).
    func match(_ path: Substring) -> [String: String]? {
        // At most one part more than the pattern has: enough to refuse, and a hostile path of
        // thousands of segments is not split in full for every pattern.
        let parts = path.split(separator: "/", maxSplits: segments.count, omittingEmptySubsequences: false)
        guard parts.count == segments.count else { return nil }
        var captures: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            if segment.hasPrefix("{"), segment.hasSuffix("}") {
                guard !part.isEmpty else { return nil }
                captures[String(segment.dropFirst().dropLast())] = String(part)
            } else if segment != part {
                return nil
            }
        }
        return captures
    }
}

/// A deep link that matched one of the application's patterns.
public struct DeepLink: Sendable, Hashable {
    /// The link as it was opened, e.g. `wayfinder://todos/2`.
    public var url: String
    /// The pattern it matched, e.g. `todos/{id}`.
    public var pattern: String
    /// The captured segments, e.g. `["id": "2"]`.
    public var params: [String: String]
}
