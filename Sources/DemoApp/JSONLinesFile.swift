import Glibc
import WayfinderCore

/// A file of one JSON document per line, read whole at start and appended to durably: how the
/// sample app's services keep their records (a team's would use a database).
enum JSONLinesFile {
    struct Failure: Error { var errno: Int32 }

    /// The file's lines, empty when it does not exist yet.
    static func lines(_ path: String) -> [Substring] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    }

    /// Appends `value` as one line and makes it durable (fsync) before returning.
    static func append(_ value: some Encodable, to path: String) throws {
        var writer = JSONWriter()
        writer.value(try JSONValueEncoder().encode(value))
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(errno: errno) }
        defer { close(fd) }
        let bytes = writer.bytes + [UInt8(ascii: "\n")]
        guard write(fd, bytes, bytes.count) == bytes.count, fsync(fd) == 0 else { throw Failure(errno: errno) }
    }

    /// Every line that decodes as `T` (others are skipped).
    static func decode<T: Decodable>(_ type: T.Type, from path: String) -> [T] {
        lines(path).compactMap { line in
            guard let json = try? JSONParser.parse(String(line)) else { return nil }
            return try? JSONValueDecoder().decode(T.self, from: json)
        }
    }
}
