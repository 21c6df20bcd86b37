import Glibc
import WayfinderCore

/// Structured logs: one JSON object per line on stdout, written by a thread of their own
/// (`LogSink`): logging never waits for stdout, and lines that find the buffer full are dropped
/// and counted (`droppedLines`, in `/metrics`).
///
/// - Important: callers never pass tokens, query strings, bodies or route params; fields whose
///   name looks like a secret are redacted here as a second line of defence.
public final class Logger: Sendable {
    /// How much a line matters; a logger writes the lines of its level and above.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        /// In increasing order of importance.
        case debug, info, warn, error
        /// The level's name in a line's `level` and in `--log-level`.
        public var name: String { ["debug", "info", "warn", "error"][rawValue] }
        /// The level named `name` (any case); nil for another name.
        public init?(name: String) {
            guard let level = Level.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
            self = level
        }
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// The least important level written.
    public let level: Level
    private let sink: LogSink

    /// - Parameters:
    ///   - fd: the descriptor lines go to (stdout by default).
    ///   - bufferBytes: unwritten log bytes kept at most; past that, lines are dropped.
    public init(level: Level, fd: Int32 = 1, bufferBytes: Int = 4 << 20) {
        self.level = level
        self.sink = LogSink(fd: fd, capacity: bufferBytes)
    }

    /// Whether lines of `level` are written: callers skip building fields that would be dropped.
    public func enabled(_ level: Level) -> Bool { level >= self.level }

    /// Lines dropped so far because the buffer was full (stdout did not keep up) or a write failed.
    public var droppedLines: Int { sink.droppedLines }

    /// Writes every line logged so far; call before the process exits.
    public func flush() { sink.flush() }

    /// Writes one line: the time, `level`, `event`, then `fields` in order (secret-looking names
    /// redacted).
    public func log(_ level: Level, _ event: String, _ fields: [(String, JSONValue)] = []) {
        guard enabled(level) else { return }
        var w = start(level, event)
        for (name, value) in fields {
            w.key(name)
            if Self.isSecret(name) { w.string("[redacted]") } else { w.value(value) }
        }
        finish(&w)
    }

    /// The info-level line of one answered request (its field names are fixed, none secret).
    func request(
        method: String, path: String, status: Int, durationMicros: Int, bytes: Int, requestID: String, session: String?
    ) {
        guard enabled(.info) else { return }
        var w = start(.info, "request")
        w.key("method"); w.string(method)
        w.key("path"); w.string(path)
        w.key("status"); w.int(status)
        w.key("durationMicros"); w.int(durationMicros)
        w.key("bytes"); w.int(bytes)
        w.key("requestId"); w.string(requestID)
        if let session { w.key("session"); w.string(session) }
        finish(&w)
    }

    /// An open line with `time`, `level` and `event`.
    private func start(_ level: Level, _ event: String) -> JSONWriter {
        var w = JSONWriter(capacity: 320)
        w.beginObject()
        w.key("time"); w.raw(Self.timestamp())
        w.key("level"); w.string(level.name)
        w.key("event"); w.string(event)
        return w
    }

    private func finish(_ w: inout JSONWriter) {
        w.endObject()
        w.bytes.append(0x0A)
        w.bytes.withUnsafeBytes { sink.append($0) }
    }

    /// `"2026-12-01T17:14:37.062Z"` (RFC 3339, UTC, milliseconds), quoted, written as bytes.
    static func timestamp() -> [UInt8] {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var out = [UInt8](repeating: 0, count: 26)
        out.withUnsafeMutableBufferPointer { out in
            func put(_ value: Int, _ at: Int, _ width: Int) {
                var value = value
                for index in stride(from: at + width - 1, through: at, by: -1) {
                    out[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            for (index, byte) in #""0000-00-00T00:00:00.000Z""#.utf8.enumerated() { out[index] = byte }
            put(Int(parts.tm_year) + 1900, 1, 4)
            put(Int(parts.tm_mon) + 1, 6, 2)
            put(Int(parts.tm_mday), 9, 2)
            put(Int(parts.tm_hour), 12, 2)
            put(Int(parts.tm_min), 15, 2)
            put(Int(parts.tm_sec), 18, 2)
            put(Int(now.tv_nsec) / 1_000_000, 21, 3)
        }
        return out
    }

    static func isSecret(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["password", "token", "secret", "authorization", "confirm"].contains { lower.contains($0) }
    }
}
