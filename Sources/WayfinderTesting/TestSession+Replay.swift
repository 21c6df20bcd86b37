import Foundation
import Testing
import WayfinderCore

/// Replay bundles in an app's tests: a bundle saved from a bug report
/// (`GET /v1/sessions/{id}/history?format=bundle`) becomes a regression test.
extension TestSession {
    /// Replays the bundle in the file at `path` through `application`'s engine and records an
    /// issue with the report (each revision, then what differs at the first divergence) unless
    /// it replays clean. Returns the report.
    ///
    /// ```swift
    /// @Test func issue42StaysFixed() throws {
    ///     try TestSession.replay(bundleAt: fixtures + "/issue-42.json", on: try Shop.makeApplication())
    /// }
    /// ```
    /// - Throws: the file cannot be read, or ``JournalError`` if it is not a bundle.
    @discardableResult
    public static func replay(
        bundleAt path: String, on application: Application, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Replay.Report {
        guard let data = FileManager.default.contents(atPath: path) else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        return try replay(ReplayBundle(bytes: Array(data)), on: application, sourceLocation: sourceLocation)
    }

    /// Replays `bundle` through `application`'s engine; records an issue with the report unless
    /// it replays clean. Returns the report.
    @discardableResult
    public static func replay(
        _ bundle: ReplayBundle, on application: Application, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Replay.Report {
        let report = Replay(Engine(application)).run(bundle)
        if !report.isClean {
            Issue.record(Comment(rawValue: "the bundle does not replay:\n" + report.description), sourceLocation: sourceLocation)
        }
        return report
    }
}
