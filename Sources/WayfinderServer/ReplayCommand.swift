import Glibc
import WayfinderCore

/// `wayfinder replay BUNDLE.json`: runs a replay bundle through the pure engine of the app this
/// server was built with, and prints one line per revision (`r4 ok route login`) and, at the
/// first divergence, what differs.
///
/// Exit status: 0 when every revision replays equal, 1 on a divergence, 2 when the bundle cannot
/// be read or the application does not build.
enum ReplayCommand {
    static func run(_ arguments: [String], makeApplication: () throws -> Application) -> Never {
        guard arguments.count == 1, let path = arguments.first, !path.hasPrefix("-") else {
            fail("usage: replay BUNDLE.json")
        }
        let bytes: [UInt8]
        do { bytes = try readFile(path) } catch { fail("\(path): \(error)") }
        let bundle: ReplayBundle
        do { bundle = try ReplayBundle(bytes: bytes) } catch { fail("\(path): \(error)") }
        let engine: Engine
        do { engine = Engine(try makeApplication()) } catch { fail("the application does not build: \(error)") }
        let report = Replay(engine).run(bundle)
        print(report.description)
        exit(report.isClean ? 0 : 1)
    }

    struct ReadError: Error, CustomStringConvertible { var description: String }

    /// The whole file.
    static func readFile(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw ReadError(description: String(cString: strerror(errno))) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count > 0 { bytes.append(contentsOf: buffer[..<count]) }
            if count < buffer.count {
                if ferror(file) != 0 { throw ReadError(description: "read failed") }
                return bytes
            }
        }
    }

    private static func fail(_ message: String) -> Never {
        let line = "replay: \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
}
