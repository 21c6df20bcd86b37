/// A flow's effects: work it asks the outside world to do ("verify these credentials",
/// "authorise this payment"), as an enum with labelled values, like its routes.
///
/// A flow asks with ``FlowContext/perform(_:)``; the reducer only records the request. The
/// server runs it with the service the app registered (``EffectServices``) and feeds the result
/// back to the flow's ``Flow/complete(_:with:_:)`` as a new action on the same session.
public protocol FlowEffect: NamedCases {}

/// The effects of a flow that asks for none.
public struct NoEffects: FlowEffect {
    private init() {}
    public enum CodingKeys: CodingKey, CaseIterable, Hashable, Sendable {}
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "this flow performs no effects"))
    }
    public func encode(to encoder: any Encoder) throws {}
}

/// What an effect came to: the service's reply, or why there is none.
public enum EffectResult<Reply: Sendable & Hashable>: Sendable, Hashable {
    /// The service's reply, decoded as the flow's `EffectReply`.
    case success(Reply)
    /// No reply: the service timed out, failed on every attempt, or the effect was interrupted.
    case failure(EffectFailure)
}

/// Why an effect has no reply. Each is the flow's to show (a screen, a notice), never a `500`.
public enum EffectFailure: Error, Sendable, Hashable, Codable {
    /// Every attempt took longer than the service's timeout.
    case timedOut
    /// The service threw on every attempt (it is down, or refused): retryable later.
    case unavailable(String)
    /// The effect was accepted but the server stopped before it ran, and a value it needs was
    /// never stored (a ``Secret``): it cannot be run again.
    case interrupted
}

/// What a flow does with the result of an effect whose asking screen is gone (the user went
/// back or elsewhere while it ran).
public enum StaleEffectRule: Sendable, Hashable {
    /// The flow's `complete` is still called (without the screen): for work whose result
    /// matters wherever the user is (a payment went through).
    case deliver
    /// The result is dropped: for work that only fed that screen (a search).
    case drop
}

/// A text that must never be stored or logged in clear: a password, a card number. It is an
/// ordinary string on the wire (a route param, an effect's value), shown as `•••` by
/// `description`, and withheld from the stored form of a pending effect.
public struct Secret: Codable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The text itself.
    public var value: String

    /// Wraps `value`; from here on it is shown as `•••`.
    public init(_ value: String) { self.value = value }
    public init(stringLiteral value: String) { self.value = value }

    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    public var description: String { "•••" }
}
