/// An app's signals: what the team's backend tells a live session ("your driver has arrived",
/// "payment settled"), as an enum with labelled values, like routes. Declared once per app
/// (``AppSchema/Signal``); a flow names the signals it wants (``Flow/signals``) and handles them
/// in ``Flow/receive(_:_:)``.
///
/// ```swift
/// enum RideSignal: AppSignal {
///     case driverArrived(driver: String), paymentSettled(amount: Int)
///     enum CodingKeys: CodingKey, CaseIterable { case driverArrived, paymentSettled }
/// }
/// ```
///
/// The backend sends one with the operator key (`POST /v1/sessions/{id}/signals`, or to every
/// session of a user): unknown names and ill-typed params are refused before a flow sees them,
/// and a signal goes to the deepest coordinator that wants it, the top screen's first.
public protocol AppSignal: NamedCases {}

/// The signals of an app that has none; there is no value of it.
public struct NoSignals: AppSignal {
    private init() {}
    public enum CodingKeys: CodingKey, CaseIterable, Hashable, Sendable {}
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "this app has no signals"))
    }
    public func encode(to encoder: any Encoder) throws {}
}

/// A signal as the team's backend sends it: its name and params, as JSON. The same shape as a
/// route request, checked the same way against the signal's declaration.
public typealias SignalRequest = RouteRequest
