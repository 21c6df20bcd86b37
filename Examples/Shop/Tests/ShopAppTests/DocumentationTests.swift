import Foundation
import Testing

/// The repository's guides quote the shop's real code: each `swift` code block they take from
/// the shop stands, line for line and indented as a whole, in the file that the paragraph
/// before it links to. A block that drifts from its file fails here, so the guides cannot go
/// stale.
@Suite struct DocumentationTests {
    @Test func everySnippetOfTheTestingGuideIsQuotedFromTheFileItLinks() throws {
        let snippets = try QuotedSnippet.all(in: "docs/testing.md")
        #expect(snippets.count >= 8)
        for snippet in snippets {
            let source = try #require(snippet.source, "docs/testing.md line \(snippet.line): the paragraph before the block links no file")
            #expect(try snippet.isQuoted(), "docs/testing.md line \(snippet.line): the block is not in \(source)")
        }
    }

    /// The effects section quotes the shop, the signals section the sample app.
    @Test func everyBlockOfBuildYourOwnAppThatLinksAFileIsQuotedFromIt() throws {
        let snippets = try QuotedSnippet.all(in: "docs/build-your-own-app.md").filter { $0.source != nil }
        #expect(snippets.filter { $0.source?.contains("Examples/Shop/") == true }.count >= 3)
        #expect(snippets.filter { $0.source?.contains("Sources/DemoApp/") == true }.count >= 2)
        for snippet in snippets {
            #expect(try snippet.isQuoted(), "docs/build-your-own-app.md line \(snippet.line): the block is not in \(snippet.source ?? "")")
        }
    }

    @Test func aBlockThatDriftsFromItsFileIsNotQuoted() throws {
        let file = "Examples/Shop/Sources/shop/main.swift"
        let quoted = QuotedSnippet(line: 1, code: ["Server(Shop.makeApplication, services: Shop.makeServices).run()"], source: file)
        let drifted = QuotedSnippet(line: 1, code: ["Server(Shop.makeApplication).run()"], source: file)
        #expect(try quoted.isQuoted())
        #expect(try !drifted.isQuoted())
    }
}

/// A `swift` code block of a guide and the repository file its paragraph links to.
private struct QuotedSnippet {
    /// The repository's root, four folders above this file.
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The line of the block's opening fence.
    var line: Int
    var code: [String]
    /// The linked file, from the repository's root; nil when the paragraph links none.
    var source: String?

    /// Every `swift` block of `guide` (a path from the repository's root), with the last `.swift`
    /// file linked in the paragraph just before it.
    static func all(in guide: String) throws -> [QuotedSnippet] {
        let lines = try String(contentsOf: root.appending(path: guide), encoding: .utf8).components(separatedBy: "\n")
        let folder = root.appending(path: guide).deletingLastPathComponent()
        var snippets: [QuotedSnippet] = []
        var index = 0
        while index < lines.count {
            guard lines[index] == "```swift" else {
                index += 1
                continue
            }
            let paragraph = lines[..<index].reversed().drop { $0.isEmpty }.prefix { !$0.isEmpty }.reversed().joined(separator: " ")
            let link = paragraph.matches(of: /\]\(([^)\s]+\.swift)\)/).last.map { String($0.output.1) }
            let end = lines[(index + 1)...].firstIndex(of: "```") ?? lines.count
            let source = link.map { folder.appending(path: $0).standardized.path.replacingOccurrences(of: root.standardized.path + "/", with: "") }
            snippets.append(QuotedSnippet(line: index + 1, code: Array(lines[(index + 1)..<end]), source: source))
            index = end + 1
        }
        return snippets
    }

    /// Whether the block's lines follow each other in the linked file, all behind one indentation.
    func isQuoted() throws -> Bool {
        guard let source, let first = code.first else { return false }
        let file = try String(contentsOf: Self.root.appending(path: source), encoding: .utf8).components(separatedBy: "\n")
        return file.indices.contains { start in
            guard file[start].hasSuffix(first) else { return false }
            let indent = file[start].dropLast(first.count)
            guard indent.allSatisfy({ $0 == " " }), start + code.count <= file.count else { return false }
            return zip(code, file[start...]).allSatisfy { quoted, line in
                quoted.isEmpty ? line.allSatisfy(\.isWhitespace) : line == indent + quoted
            }
        }
    }
}
