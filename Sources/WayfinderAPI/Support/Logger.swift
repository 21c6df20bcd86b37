import Glibc
import Synchronization
import WayfinderCore

/// Structured logs: one JSON object per line on stdout.
///
/// - Important: callers never pass tokens, query strings, bodies or route params; fields whose
///   name looks like a secret are redacted here as a second line of defence.
public final class Logger: Sendable {
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case debug, info, warn, error
        public var name: String { ["debug", "info", "warn", "error"][rawValue] }
        public init?(name: String) {
            guard let level = Level.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
            self = level
        }
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    public let level: Level
    private let fd: Int32
    private let lock = Mutex(())

    public init(level: Level, fd: Int32 = 1) {
        self.level = level
        self.fd = fd
    }

    public func enabled(_ level: Level) -> Bool { level >= self.level }

    public func log(_ level: Level, _ event: String, _ fields: [(String, JSONValue)] = []) {
        guard enabled(level) else { return }
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.key("time"); w.string(WallClock.timestamp())
        w.key("level"); w.string(level.name)
        w.key("event"); w.string(event)
        for (name, value) in fields {
            w.key(name)
            if Self.isSecret(name) { w.string("[redacted]") } else { w.value(value) }
        }
        w.endObject()
        var line = w.bytes
        line.append(0x0A)
        lock.withLock { _ in
            line.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 { if errno == EINTR { continue } else { return } }
                    offset += written
                }
            }
        }
    }

    static func isSecret(_ name: String) -> Bool {
        let lower = name.lowercased()
        return ["password", "token", "secret", "authorization", "confirm"].contains { lower.contains($0) }
    }
}
