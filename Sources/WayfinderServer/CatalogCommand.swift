import Foundation
import WayfinderCore

/// `wayfinder catalog`: the application's catalog, for people and for CI.
///
/// - `catalog` prints it as indented JSON with sorted keys (its documented, stable shape): the
///   file a team keeps from each release, e.g. `wayfinder catalog > catalog.json`.
/// - `catalog --dot` prints it as Graphviz DOT.
/// - `catalog --diff OLD.json` compares a release's catalog with this application: it lists the
///   breaking changes (a flow, screen, route, parameter or deep link gone, a parameter retyped or
///   newly required), those no migration covers first, and exits 1 if there is one, 0 if not.
///
/// Exit status 2 for a usage error, an unreadable file or an application that does not build.
enum CatalogCommand {
    struct Result: Sendable, Equatable {
        var status: Int32
        var output: String
        var errors: String
    }

    static func usage(_ name: String) -> String {
        """
        Usage: \(name) catalog                 the catalog as indented JSON (keep each release's)
               \(name) catalog --dot           the catalog as Graphviz DOT
               \(name) catalog --diff OLD.json the breaking changes since OLD.json; exit status 1
                                                 when one has no migration, 0 when none

        """
    }

    /// Runs `catalog` with `arguments` (those after the word `catalog`).
    static func run(_ arguments: [String], name: String, application makeApplication: () throws -> Application) -> Result {
        let application: Application
        switch arguments.first {
        case "--help", "-h":
            return Result(status: 0, output: usage(name), errors: "")
        case nil, "--dot", "--diff":
            do { application = try makeApplication() } catch {
                return Result(status: 2, output: "", errors: "\(name): \(error)\n")
            }
        default:
            return Result(status: 2, output: "", errors: "\(name): unknown catalog option '\(arguments[0])'\n" + usage(name))
        }
        switch (arguments.first, arguments.count) {
        case (nil, _): return Result(status: 0, output: application.catalog.prettyJSON, errors: "")
        case ("--dot", 1): return Result(status: 0, output: application.catalog.dot, errors: "")
        case ("--diff", 2): return diff(application, oldPath: arguments[1], name: name)
        default: return Result(status: 2, output: "", errors: "\(name): wrong arguments for catalog\n" + usage(name))
        }
    }

    private static func diff(_ application: Application, oldPath: String, name: String) -> Result {
        guard let bytes = FileManager.default.contents(atPath: oldPath) else {
            return Result(status: 2, output: "", errors: "\(name): cannot read \(oldPath)\n")
        }
        let old: Catalog
        do {
            old = try JSONValueDecoder().decode(Catalog.self, from: try JSONParser.parse(Array(bytes)))
        } catch {
            return Result(status: 2, output: "", errors: "\(name): \(oldPath) is not a catalog: \(error)\n")
        }
        let changes = application.breakingChanges(since: old)
        let open = changes.filter { $0.migration == nil }
        let covered = changes.filter { $0.migration != nil }
        var lines = ["Compared with \(oldPath) (version \(old.version ?? "none")): this application is version \(application.version)."]
        if !open.isEmpty {
            lines.append("Breaking changes without a migration:")
            lines += open.map { "  - \($0.change)" }
        }
        if !covered.isEmpty {
            lines.append("Breaking changes covered by migrations:")
            lines += covered.map { "  - \($0.change): \($0.migration ?? "")" }
        }
        switch open.count {
        case 0: lines.append("No breaking change without a migration.")
        case 1: lines.append("1 breaking change has no migration.")
        default: lines.append("\(open.count) breaking changes have no migration.")
        }
        return Result(status: open.isEmpty ? 0 : 1, output: lines.joined(separator: "\n") + "\n", errors: "")
    }
}
