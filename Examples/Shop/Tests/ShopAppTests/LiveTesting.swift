import Foundation
@testable import ShopApp
import WayfinderCore
import WayfinderServer
import WayfinderLiveTesting

/// A shop served in this process on a free port (the memory store unless `arguments` name
/// another), with `services` behind its effects, stopped when the test is done with it.
func startShop(
    _ arguments: [String] = [], services: @escaping @Sendable (String?) throws -> EffectServices = Shop.makeServices
) throws -> RunningServer {
    let defaults = ["--port", "0", "--store", "memory", "--log-level", "error", "--threads", "1"]
    return try Server(Shop.makeApplication, services: services).start(arguments: defaults + arguments)
}

/// A folder of its own for a test's SQLite file, removed with ``remove()``.
struct ScratchFolder {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("shop-\(UUID().uuidString)").path

    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// What a server answered, read as the web client reads it.
struct Answer {
    var status: Int
    var state: JSONValue

    var revision: Int { state["revision"]?.intValue ?? 0 }
    var stack: [String] { state["stack"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? [] }
    var top: JSONValue { state["stack"]?.arrayValue?.last ?? .null }
    /// The top screen's notices, as `style: text`.
    var notices: [String] {
        top["components"]?.arrayValue?.compactMap { component in
            guard component["type"] == "notice", let style = component["style"]?.stringValue, let text = component["text"]?.stringValue else { return nil }
            return style + ": " + text
        } ?? []
    }
}

extension LiveSession {
    /// Triggers `route` and returns the answer whatever its status: `202 Accepted` included,
    /// the answer of an action whose effects outlast the server's wait (``send(_:)`` takes `200`
    /// only).
    func trigger<R: FlowRoute>(_ route: R) throws -> Answer {
        let request = try RouteRequest(route)
        var writer = JSONWriter()
        writer.value(["route": .string(request.name), "params": .object(request.params)])
        let response = try CurlClient().request(
            "POST", baseURL + "/v1/sessions/\(id)/routes",
            headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")], body: writer.bytes)
        return Answer(status: response.status, state: (try JSONParser.parse(response.body))["state"] ?? .null)
    }

    /// The session once it has moved past `revision`: a long poll (`If-None-Match` and
    /// `Prefer: wait`), answered as soon as the session changes. `server` is another server on
    /// the same store, if not the session's own.
    func state(after revision: Int, on server: String? = nil) throws -> Answer {
        let response = try CurlClient(timeoutMilliseconds: 40_000).request(
            "GET", (server ?? baseURL) + "/v1/sessions/\(id)",
            headers: [("Authorization", "Bearer \(token)"), ("If-None-Match", "\"\(revision)\""), ("Prefer", "wait=30")])
        return Answer(status: response.status, state: response.status == 200 ? try JSONParser.parse(response.body) : .null)
    }

    /// Puts the kettle in the cart and goes through a guest checkout (variant B) to the
    /// payment screen, with pick-up in the shop: €54.90.
    func kettleToPayment() throws {
        try send(CatalogFlow.Route.showProduct(id: "kettle"))
        try send(CatalogFlow.Route.addToCart)
        try selectTab("cart")
        try send(CartFlow.Route.checkout)
        try send(CheckoutFlow.Route.continueWithEmail(email: "grace@example.com"))
        try send(graceAddress)
        try send(CheckoutFlow.Route.chooseDelivery(option: .pickup))
    }
}
