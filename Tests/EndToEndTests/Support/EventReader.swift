import Foundation
import WayfinderLiveTesting

/// One server-sent event.
struct SSEEvent: CustomStringConvertible {
    var event: String?
    var id: String?
    var data: String
    var json: J { J(text: data) }
    var description: String { "event:\(event ?? "-") id:\(id ?? "-") data:\(data.prefix(120))" }
}

/// Reads an event stream through libcurl on its own thread; the test takes events one by one
/// with bounded waits (no sleeps).
final class EventReader: @unchecked Sendable {
    private let condition = NSCondition()
    private var buffer: [UInt8] = []
    private var events: [SSEEvent] = []
    private var comments = 0
    private var finished = false
    private var stopRequested = false
    private var response: CurlClient.Response?
    private var failure: String?

    init(url: String, headers: [(String, String)] = []) {
        let thread = Thread { [self] in
            let curl = CurlClient(timeoutMilliseconds: 60_000)
            do {
                let response = try curl.stream(url, headers: headers, isCancelled: { [self] in isStopRequested }) { [self] bytes in
                    feed(bytes)
                }
                condition.withLock { self.response = response }
            } catch {
                condition.withLock { self.failure = "\(error)" }
            }
            condition.withLock {
                finished = true
                condition.broadcast()
            }
        }
        thread.start()
    }

    private func feed(_ bytes: [UInt8]) -> Bool {
        condition.withLock {
            buffer.append(contentsOf: bytes)
            while let end = blockEnd() {
                let block = String(decoding: buffer[..<end.start], as: UTF8.self)
                buffer.removeFirst(end.next)
                parse(block)
            }
            condition.broadcast()
            return !stopRequested
        }
    }

    /// The end of the first complete block (a blank line).
    private func blockEnd() -> (start: Int, next: Int)? {
        guard buffer.count >= 2 else { return nil }
        for i in 0..<(buffer.count - 1) where buffer[i] == 10 && buffer[i + 1] == 10 { return (i, i + 2) }
        return nil
    }

    private func parse(_ block: String) {
        var event = SSEEvent(event: nil, id: nil, data: "")
        var sawField = false
        var dataLines: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") { comments += 1; continue }
            guard let colon = line.firstIndex(of: ":") else { continue }
            var value = line[line.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
            sawField = true
            switch line[..<colon] {
            case "event": event.event = String(value)
            case "id": event.id = String(value)
            case "data": dataLines.append(String(value))
            default: break
            }
        }
        guard sawField else { return }
        event.data = dataLines.joined(separator: "\n")
        events.append(event)
    }

    /// The next event, waiting at most `seconds`; nil if none came (or the stream ended).
    func next(within seconds: Double = 10) -> SSEEvent? {
        let deadline = Date().addingTimeInterval(seconds)
        return condition.withLock {
            while events.isEmpty && !finished {
                if !condition.wait(until: deadline) { break }
            }
            return events.isEmpty ? nil : events.removeFirst()
        }
    }

    /// Waits for the transfer to end; true if it did within `seconds`.
    func waitUntilFinished(within seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        return condition.withLock {
            while !finished {
                if !condition.wait(until: deadline) { break }
            }
            return finished
        }
    }

    /// Events received and not taken yet.
    var pending: [SSEEvent] { condition.withLock { events } }
    var commentCount: Int { condition.withLock { comments } }
    var isFinished: Bool { condition.withLock { finished } }
    /// The finished transfer (status and headers), once it ended.
    var result: CurlClient.Response? { condition.withLock { response } }
    var error: String? { condition.withLock { failure } }

    /// Asks the reader to stop: at its next piece of data, or within about a second if none comes
    /// (libcurl asks `isCancelled` that often).
    func stop() { condition.withLock { stopRequested = true } }

    private var isStopRequested: Bool { condition.withLock { stopRequested } }
}
