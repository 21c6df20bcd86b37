import Foundation
import WayfinderClient

extension ClientConfiguration {
    /// Short backoffs, so retries and reconnections do not slow the tests down.
    static var fast: ClientConfiguration {
        var configuration = ClientConfiguration()
        configuration.retry = RetryPolicy(maxAttempts: 3, backoff: Backoff(initial: 0.01, maximum: 0.05))
        configuration.eventReconnect = Backoff(initial: 0.01, maximum: 0.1)
        return configuration
    }
}

/// The value of header `name` in a raw request head.
func header(_ name: String, in head: String) -> String? {
    for line in head.components(separatedBy: "\r\n") {
        guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else { continue }
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return nil
}

/// Whether a request head is for the events of a session.
@Sendable func isEvents(_ head: String) -> Bool { head.hasPrefix("GET ") && head.contains("/events ") }

/// Waits until `condition` holds, for at most `seconds` (for what the server does that the test
/// cannot await, such as ending a subscription).
func eventually(within seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}
