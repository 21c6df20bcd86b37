import Foundation
import Testing

/// The README's "Define your own flow" code block is DefineYourOwnFlowTests.swift, byte for byte:
/// the test suite compiles and runs the example, so the README cannot go stale.
@Test func theReadmeExampleIsTheCompiledTestFile() throws {
    let tests = URL(filePath: #filePath).deletingLastPathComponent()
    let example = try String(contentsOf: tests.appending(path: "DefineYourOwnFlowTests.swift"), encoding: .utf8)
    let readme = try String(contentsOf: tests.appending(path: "../../README.md"), encoding: .utf8)
    let section = try #require(readme.range(of: "## Define your own flow"), "the README has no 'Define your own flow' section")
    let fence = try #require(readme.range(of: "```swift\n", range: section.upperBound..<readme.endIndex))
    let end = try #require(readme.range(of: "```\n", range: fence.upperBound..<readme.endIndex))
    #expect(String(readme[fence.upperBound..<end.lowerBound]) == example)
}
