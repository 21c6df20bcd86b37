import Foundation
import Testing

/// What the typed flow API refuses at compile time, checked by compiling small flows with the
/// real compiler against the built `WayfinderCore` module: each mistake the string API let
/// through must now be a compile error, and the correct flow must compile.
@Suite struct CompileTimeCheckTests {
    /// A correct flow; each case below changes one part of it.
    static let base = """
        import WayfinderCore
        enum Greeting: AppSchema {}
        struct GreetingFlow: Flow {
            typealias App = Greeting
            enum Screen: FlowScreen {
                case hello, waved(name: String)
                enum CodingKeys: CodingKey, CaseIterable { case hello, waved }
            }
            enum Route: FlowRoute {
                case wave(name: String)
                case leave
                enum CodingKeys: CodingKey, CaseIterable { case wave, leave }
            }
            let children: [any Flow.Type] = []
            func routes(on screen: Screen.Name) -> [Route.Name] {
                switch screen {
                case .hello: [.wave, .leave]
                case .waved: [.leave]
                }
            }
            func start(_ flow: inout FlowContext<Self>) throws { flow.show(.hello) }
            func handle(_ route: Route, on screen: Screen, _ flow: inout FlowContext<Self>) throws {
                switch route {
                case .wave(let name): flow.push(.waved(name: name))
                case .leave: try flow.finish()
                }
            }
            func render(_ screen: Screen, _ flow: FlowContext<Self>) -> ScreenContent {
                switch screen {
                case .hello: ScreenContent(title: "Hello", components: [flow.button("Wave", submitting: .wave)])
                case .waved(let name): ScreenContent(title: name, components: [])
                }
            }
        }
        """

    /// (what the mistake is, the text replaced, its replacement, words of the compiler's error)
    static let mistakes: [(String, String, String, String)] = [
        ("a route offered on a screen the flow does not declare", "case .waved: [.leave]", "case .tododetail: [.leave]", "tododetail"),
        ("a route offered that the flow does not declare", "case .waved: [.leave]", "case .waved: [.levae]", "levae"),
        ("two routes with one name in one flow", "case leave\n", "case leave\n        case leave(now: Bool)\n", "redeclaration"),
        ("a route added without handling it", "case leave\n", "case stay\n        case leave\n", "must be exhaustive"),
        ("a screen shown that does not exist", "flow.show(.hello)", "flow.show(.tododetail)", "tododetail"),
        ("a screen rendered that does not exist", "case .hello: ScreenContent", "case .tododetail: ScreenContent", "tododetail"),
        ("a param read by name", "case .wave(let name): flow.push(.waved(name: name))", "case .wave: flow.push(.waved(name: route.string(\"name\") ?? \"\"))", "string"),
        ("a child flow named by a string", "flow.show(.hello)", "try flow.startChild(\"changePassword\", placement: .push)", "changePassword"),
        ("a case name listed that is no case", "case wave, leave }", "case wave, leave, wvae }", "does not match any"),
    ]

    private func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let executable = URL(filePath: CommandLine.arguments[0])
        // The test bundle sits in the build folder beside the `Modules` folder of the targets.
        var folder = executable.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appending(path: "Modules/WayfinderCore.swiftmodule").path) {
            let parent = folder.deletingLastPathComponent()
            guard parent.path != folder.path else { throw CocoaError(.fileNoSuchFile) }
            folder = parent
        }
        let file = FileManager.default.temporaryDirectory.appending(path: "wayfinder-typecheck-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", folder.appending(path: "Modules").path, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test func theCorrectFlowCompiles() throws {
        let result = try typecheck(Self.base)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(arguments: mistakes.indices)
    func eachMistakeIsACompileError(_ index: Int) throws {
        let (mistake, original, replacement, words) = Self.mistakes[index]
        #expect(Self.base.contains(original), "the base flow has no '\(original)'")
        let result = try typecheck(Self.base.replacingOccurrences(of: original, with: replacement))
        #expect(result.status != 0, "\(mistake) compiled")
        #expect(result.output.contains("error:") && result.output.contains(words), "\(mistake): \(result.output)")
    }
}
