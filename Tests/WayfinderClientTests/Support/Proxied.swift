import WayfinderClient

/// A session on a live server, and the same session reached through a proxy where the test
/// breaks things: the proxied one is the client under test, the direct one plays another client.
struct Proxied {
    let server: LiveServer
    let proxy: TCPProxy
    /// The session straight on the server.
    let direct: WayfinderSession
    /// The same session through the proxy.
    let session: WayfinderSession

    static func start(
        server: LiveServer? = nil, configuration: ClientConfiguration = .fast
    ) async throws -> Proxied {
        let server = try server ?? LiveServer()
        let proxy = try TCPProxy(to: server.port)
        let direct = try await WayfinderSession.create(on: server.url)
        let session = WayfinderSession(on: proxy.url, credentials: direct.credentials, configuration: configuration)
        return Proxied(server: server, proxy: proxy, direct: direct, session: session)
    }

    func stop() {
        proxy.stop()
        server.stop()
    }
}
