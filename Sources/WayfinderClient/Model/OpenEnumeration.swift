/// A set of string values the server may extend: the values this client knows are static
/// members, and any other value still decodes (and round-trips) instead of failing.
///
/// A newer server that adds a button style, a field kind or a problem code therefore never breaks
/// an older client; compare with the static members (`style == .primary`) or `switch` over them
/// with a `default` for values added later.
public protocol OpenEnumeration: RawRepresentable, Codable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible where RawValue == String
{
    /// Any value, known to this client or not.
    init(rawValue: String)
}

extension OpenEnumeration {
    /// Decodes any string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the raw string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// A value from a string literal: `let style: ButtonStyle = "primary"`.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// The raw string.
    public var description: String { rawValue }
}
