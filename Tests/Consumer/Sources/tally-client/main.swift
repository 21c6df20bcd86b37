// A thin client on WayfinderClient: starts a session on the server at the URL it is given, adds
// two, and prints each top screen's name and title.
import Foundation
import WayfinderClient

guard CommandLine.arguments.count == 2, let url = URL(string: CommandLine.arguments[1]) else {
    print("usage: tally-client URL")
    exit(2)
}
do {
    guard try await ServerEndpoint(url: url).isReady() else {
        print("the server is not ready")
        exit(1)
    }
    let session = try await WayfinderSession.create(on: url)
    let first: WireState? = await session.state
    print(first?.top.map { "\($0.name): \($0.title)" } ?? "no screen")
    let added = try await session.trigger("add", params: ["amount": 2])
    print(added.state.top.map { "\($0.name): \($0.title)" } ?? "no screen")
} catch {
    print("failed: \(error)")
    exit(1)
}
