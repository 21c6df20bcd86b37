/// What a button or a list item triggers: a route to send as is (see
/// ``WayfinderSession/trigger(_:ifMatch:idempotencyKey:)``).
public struct RouteAction: Codable, Sendable, Hashable {
    /// The route's name (`showTodo`).
    public var route: String
    /// The route's params (`{"id": "2"}`).
    public var params: [String: WireValue]

    /// An action for `route` with `params`.
    public init(_ route: String, params: [String: WireValue] = [:]) {
        self.route = route
        self.params = params
    }

    private enum CodingKeys: String, CodingKey { case route, params }

    /// Decodes; absent or `null` params are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        route = try container.decode(String.self, forKey: .route)
        params = try container.decodeIfPresent([String: WireValue].self, forKey: .params) ?? [:]
    }

    /// This action with `values` merged into its params (a submit button: the screen's field and
    /// toggle values win over the button's own params, as in the contract).
    public func merging(_ values: [String: WireValue]) -> RouteAction {
        RouteAction(route, params: params.merging(values) { _, value in value })
    }
}
