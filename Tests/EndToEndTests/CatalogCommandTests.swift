@testable import DemoApp
import Foundation
import Testing
import WayfinderCore
@testable import WayfinderServer

/// `wayfinder catalog --diff`: the sample app against a copy of its catalog in which one route
/// had another name and one parameter another type (as a previous release would have had them).
@Suite struct CatalogCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-catalog-\(UUID().uuidString)").path

    /// The sample app's catalog with `login` named `signIn` and `showTodo`'s `id` an integer, as
    /// version 0 of the app.
    func previousRelease() throws -> String {
        var catalog = try DemoApp.makeApplication().catalog
        catalog.version = "0"
        let auth = try #require(catalog.flows.firstIndex { $0.name == "auth" })
        let login = try #require(catalog.flows[auth].routes.firstIndex { $0.name == "login" })
        catalog.flows[auth].routes[login].name = "signIn"
        let todos = try #require(catalog.flows.firstIndex { $0.name == "todos" })
        let show = try #require(catalog.flows[todos].routes.firstIndex { $0.name == "showTodo" })
        catalog.flows[todos].routes[show].params[0].type = .integer
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/catalog.json"
        try Data(catalog.prettyJSON.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs the real `wayfinder` binary.
    func wayfinder(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BinaryServer.executablePath)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func theBinaryNamesARenamedRouteAndARetypedParamAndFails() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (status, output) = try wayfinder(["catalog", "--diff", try previousRelease()])
        #expect(status == 1)
        #expect(output.contains("""
            Breaking changes without a migration:
              - route 'signIn' of flow 'auth' is gone
              - param 'id' of route 'showTodo' of flow 'todos' was integer, is now string
            2 breaking changes have no migration.
            """), "\(output)")
    }

    @Test func withARenameMigrationOnlyTheRetypeRemains() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try previousRelease()
        let result = CatalogCommand.run(["--diff", path], name: "wayfinder") {
            try DemoApp.makeApplication(migrations: [Migration(to: "1", [.renamed(route: "signIn", to: .login, in: AuthFlow.self)])])
        }
        #expect(result.status == 1)
        #expect(result.output == """
            Compared with \(path) (version 0): this application is version 1.
            Breaking changes without a migration:
              - param 'id' of route 'showTodo' of flow 'todos' was integer, is now string
            Breaking changes covered by migrations:
              - route 'signIn' of flow 'auth' is gone: renamed to 'login' (migration to 1)
            1 breaking change has no migration.

            """)
    }

    @Test func theCatalogPrintedIsTheOneServedAndHasNoBreakingChangeAgainstItself() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (status, printed) = try wayfinder(["catalog"])
        #expect(status == 0)
        let catalog = try JSONValueDecoder().decode(Catalog.self, from: try JSONParser.parse(printed))
        #expect(catalog == (try DemoApp.makeApplication()).catalog)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(printed.utf8).write(to: URL(fileURLWithPath: folder + "/same.json"))
        let same = try wayfinder(["catalog", "--diff", folder + "/same.json"])
        #expect(same.status == 0 && same.output.hasSuffix("No breaking change without a migration.\n"), "\(same.output)")
        let missing = try wayfinder(["catalog", "--diff", folder + "/missing.json"])
        #expect(missing.status == 2 && missing.output.contains("cannot read"))
        #expect(try wayfinder(["catalog", "--bogus"]).status == 2)
        #expect(try wayfinder(["catalog", "--dot"]).output.hasPrefix("digraph wayfinder {"))
    }
}
