/// A refusal from the server: RFC 9457 problem details (`application/problem+json`), plus what
/// its headers said.
public struct Problem: Codable, Sendable, Hashable {
    /// `about:blank` from this server.
    public var type: String
    /// The status's reason phrase.
    public var title: String
    /// The HTTP status.
    public var status: Int
    /// What went wrong, for code.
    public var code: ProblemCode
    /// What went wrong, for people.
    public var detail: String?
    /// The request path (absent on `404`).
    public var instance: String?
    /// The request id, for the server's logs.
    public var requestId: String?
    /// With `invalid_params`: the first bad param (`body`, `route`, `context.platform`, ...).
    public var param: String?
    /// With `invalid_params`: every bad param, in the catalog's order.
    public var invalidParams: [InvalidParam]
    /// With `route_unavailable`: the routes the top screen accepts.
    public var availableRoutes: [String]
    /// From `Retry-After` (`503`): seconds after which a retry may succeed.
    public var retryAfter: Int?
    /// From `ETag` on `412`: the session's current revision.
    public var currentRevision: Int?
    /// From `Allow` on `405`: the methods the path accepts.
    public var allow: [String]

    /// A problem as the server would send it.
    public init(
        status: Int, code: ProblemCode, title: String = "", detail: String? = nil, type: String = "about:blank",
        instance: String? = nil, requestId: String? = nil, param: String? = nil, invalidParams: [InvalidParam] = [],
        availableRoutes: [String] = [], retryAfter: Int? = nil, currentRevision: Int? = nil, allow: [String] = []
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.code = code
        self.detail = detail
        self.instance = instance
        self.requestId = requestId
        self.param = param
        self.invalidParams = invalidParams
        self.availableRoutes = availableRoutes
        self.retryAfter = retryAfter
        self.currentRevision = currentRevision
        self.allow = allow
    }

    private enum CodingKeys: String, CodingKey {
        case type, title, status, code, detail, instance, requestId, param, invalidParams, availableRoutes
    }

    /// Decodes the body's members (the header-borne ones are filled in by the client).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "about:blank"
        title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        status = try container.decode(Int.self, forKey: .status)
        code = try container.decode(ProblemCode.self, forKey: .code)
        detail = try container.decodeIfPresent(String.self, forKey: .detail)
        instance = try container.decodeIfPresent(String.self, forKey: .instance)
        requestId = try container.decodeIfPresent(String.self, forKey: .requestId)
        param = try container.decodeIfPresent(String.self, forKey: .param)
        invalidParams = try container.decodeIfPresent([InvalidParam].self, forKey: .invalidParams) ?? []
        availableRoutes = try container.decodeIfPresent([String].self, forKey: .availableRoutes) ?? []
        retryAfter = nil
        currentRevision = nil
        allow = []
    }

    /// Encodes the body's members.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(title, forKey: .title)
        try container.encode(status, forKey: .status)
        try container.encode(code, forKey: .code)
        try container.encodeIfPresent(detail, forKey: .detail)
        try container.encodeIfPresent(instance, forKey: .instance)
        try container.encodeIfPresent(requestId, forKey: .requestId)
        try container.encodeIfPresent(param, forKey: .param)
        if !invalidParams.isEmpty { try container.encode(invalidParams, forKey: .invalidParams) }
        if !availableRoutes.isEmpty { try container.encode(availableRoutes, forKey: .availableRoutes) }
    }

    /// One bad param of an `invalid_params` problem.
    public struct InvalidParam: Codable, Sendable, Hashable {
        /// The param (dotted for nested members).
        public var name: String
        /// Why it is bad (`missing`, `must be a string`).
        public var reason: String

        /// A bad param.
        public init(name: String, reason: String) {
            self.name = name
            self.reason = reason
        }
    }
}
