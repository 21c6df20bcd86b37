import Foundation

/// The endpoints of a server that belong to no session: the flow catalog, liveness and readiness.
public struct ServerEndpoint: Sendable {
    /// The server's base URL (`http://127.0.0.1:8080`, or a path behind a proxy).
    public let url: URL
    private let transport: Transport

    /// A server at `url`.
    public init(url: URL, configuration: ClientConfiguration = ClientConfiguration()) {
        self.url = url
        transport = Transport(server: url, configuration: configuration)
    }

    /// The flow catalog (`GET /v1/flows`).
    public func catalog() async throws(WayfinderError) -> FlowCatalog {
        let answer = try await transport.send(HTTPCall(method: "GET", path: "/v1/flows", repeats: .always))
        return try Transport.decode(FlowCatalog.self, from: answer)
    }

    /// Whether the server is alive (`GET /healthz`); throws if it cannot be reached.
    public func isAlive() async throws(WayfinderError) -> Bool {
        try await status("/healthz")
    }

    /// Whether the server can serve sessions now (`GET /readyz`: its store answers); a server that
    /// is alive but not ready answers `false`.
    public func isReady() async throws(WayfinderError) -> Bool {
        do {
            return try await status("/readyz")
        } catch .problem(let problem) where problem.code == .serviceUnavailable {
            return false
        }
    }

    private func status(_ path: String) async throws(WayfinderError) -> Bool {
        let answer = try await transport.send(HTTPCall(method: "GET", path: path, repeats: .never))
        return try Transport.decode([String: WireValue].self, from: answer)["status"] == "ok"
    }
}
