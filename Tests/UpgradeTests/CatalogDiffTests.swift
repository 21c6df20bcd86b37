@testable import NotesApp
import Testing
import WayfinderCore

/// The compatibility check for CI: version 1's catalog (as kept in a repository) against
/// version 2, with and without its migrations.
@Suite struct CatalogDiffTests {
    let old: Catalog

    init() throws {
        // Kept as a file in a repository: the indented JSON, read back.
        let text = try NotesV1.makeApplication().catalog.prettyJSON
        old = try JSONValueDecoder().decode(Catalog.self, from: try JSONParser.parse(text))
    }

    @Test func theCatalogFileReadsBackAsTheCatalogWithItsVersion() throws {
        let catalog = try NotesV1.makeApplication().catalog
        #expect(old == catalog)
        #expect(old.version == "1")
        #expect(catalog.prettyJSON.hasPrefix("{\n  \"deepLinks\": [\n    {\n      \"description\": \"\",\n"))
        #expect(catalog.prettyJSON.hasSuffix("  \"version\": \"1\"\n}\n"))
        #expect(try JSONParser.parse(catalog.prettyJSON) == JSONParser.parse(catalog.json))
    }

    @Test func everyChangeOfVersion2IsCoveredByItsMigrations() throws {
        let changes = try NotesV2.makeApplication().breakingChanges(since: old)
        #expect(changes.filter { $0.migration == nil } == [])
        #expect(changes.map(\.description) == [
            "flow 'signin' is gone: renamed to 'auth' (migration to 2)",
            "route 'signIn' of flow 'signin' is gone: renamed to 'login' (migration to 2)",
            "param 'mail' of route 'signIn' of flow 'signin' is gone: renamed to 'email' (migration to 2)",
            "screen 'list' of flow 'notes' is gone: renamed to 'notes' (migration to 2)",
            "screen 'stats' of flow 'notes' is gone: replaced by 'notes' (migration to 2)",
            "screen 'archive' of flow 'notes' is gone: removed (migration to 2)",
            "param 'priority' of route 'add' of flow 'notes' was integer, is now one of low, normal, high: converted (migration to 2)",
            #"param 'priority' of route 'add' of flow 'notes' became required: defaults to "normal" (migration to 2)"#,
            "param 'note' of route 'open' of flow 'notes' is gone: renamed to 'id' (migration to 2)",
            "route 'showStats' of flow 'notes' is gone: removed (migration to 2)",
            "route 'showArchive' of flow 'notes' is gone: removed (migration to 2)",
            "route 'tips' of flow 'notes' is gone: renamed to 'help' (migration to 2)",
            "flow 'tips' is gone: replaced by 'help' (migration to 2)",
            "deep link 'notes://note/{id}' is gone: renamed to 'notes://notes/{id}' (migration to 2)",
        ])
    }

    @Test func withoutMigrationsEveryBreakingChangeIsNamed() throws {
        let changes = try NotesV2.makeApplication(migrations: []).breakingChanges(since: old)
        #expect(changes.allSatisfy { $0.migration == nil })
        #expect(changes.map(\.description) == [
            "flow 'signin' is gone: no migration",
            "screen 'list' of flow 'notes' is gone: no migration",
            "screen 'stats' of flow 'notes' is gone: no migration",
            "screen 'archive' of flow 'notes' is gone: no migration",
            "param 'priority' of route 'add' of flow 'notes' was integer, is now one of low, normal, high: no migration",
            "param 'priority' of route 'add' of flow 'notes' became required: no migration",
            "param 'note' of route 'open' of flow 'notes' is gone: no migration",
            "param 'id' of route 'open' of flow 'notes' is new and required: no migration",
            "route 'showStats' of flow 'notes' is gone: no migration",
            "route 'showArchive' of flow 'notes' is gone: no migration",
            "route 'tips' of flow 'notes' is gone: no migration",
            "flow 'tips' is gone: no migration",
            "deep link 'notes://note/{id}' is gone: no migration",
        ])
        #expect(Set(changes.map(\.kind)) == Set(BreakingChange.Kind.allCases))
    }

    @Test func migrationsToTheOldCatalogsOwnVersionOrEarlierDoNotCount() throws {
        var released = old
        released.version = "2"
        let changes = try NotesV2.makeApplication().breakingChanges(since: released)
        #expect(!changes.isEmpty && changes.allSatisfy { $0.migration == nil })
    }

    @Test func aCatalogWithoutAVersionIsComparedWithEveryMigration() throws {
        var unversioned = old
        unversioned.version = nil
        #expect(try NotesV2.makeApplication().breakingChanges(since: unversioned).allSatisfy { $0.migration != nil })
    }

    @Test func anAppComparedWithItsOwnCatalogHasNoBreakingChange() throws {
        let v2 = try NotesV2.makeApplication()
        #expect(v2.breakingChanges(since: v2.catalog).isEmpty)
    }
}
