/// A point in time, in unix milliseconds: when an action reached the server (``FlowContext/now``).
///
/// The reducer has no clock. The server reads its own when a request arrives, journals it with
/// the revision, and hands it to the flows that handle the action, so a replay sees the same
/// time and decides the same; a test sets it (`TestSession.now`).
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01 00:00 UTC.
    public var millisecondsSince1970: Int64

    /// The time `millisecondsSince1970` ms after 1970-01-01 00:00 UTC.
    public init(millisecondsSince1970: Int64) { self.millisecondsSince1970 = millisecondsSince1970 }

    /// 1970-01-01 00:00 UTC: the time of an action nobody timed (``Engine/reduce(_:_:at:)``'s default).
    public static let zero = Timestamp(millisecondsSince1970: 0)

    /// This time moved by `duration` (to the millisecond).
    public func advanced(by duration: Duration) -> Timestamp {
        let (seconds, attoseconds) = duration.components
        return Timestamp(millisecondsSince1970: millisecondsSince1970 + seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.millisecondsSince1970 < rhs.millisecondsSince1970 }

    /// Encoded as its number of milliseconds.
    public init(from decoder: any Decoder) throws {
        millisecondsSince1970 = try decoder.singleValueContainer().decode(Int64.self)
    }

    /// Encoded as its number of milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(millisecondsSince1970)
    }

    /// The milliseconds, as a number.
    public var description: String { "\(millisecondsSince1970)" }
}
