import Foundation
import Testing
import WayfinderStore

/// Idempotency fingerprints (issue 47, point 4): keyed with the store's deployment secret, so they
/// hold across restarts and instances, and taken without the route params the app declares secret,
/// so nothing in the store can be checked against a guessed password.
@Suite struct IdempotencyFingerprintTests {
    @Test func aRetryIsRecognisedAfterARestartWithoutItsPassword() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-fingerprint-\(UUID().uuidString)")
        let path = dir.appendingPathComponent("s.sqlite").path
        let key = [("Idempotency-Key", "login-1")]
        let login: [String: Any] = ["email": "nobody@example.com", "password": "guess-one"]

        let first = try InProcessServer(store: .given(try SQLiteStore(path: path)))
        let c1 = first.client()
        let s = try c1.createSession(#"{"context":{"onboarded":true}}"#)
        let answer = try c1.route(s, "login", login, headers: key)
        #expect(answer.status == 200, "\(answer)")
        let record = try #require(try SQLiteStore(path: path).idempotencyRecord(sessionID: s.id, key: "login-1", now: Int64(Date().timeIntervalSince1970 * 1000)))
        #expect(record.fingerprint.count == 32)
        #expect(!String(decoding: record.body + record.fingerprint, as: UTF8.self).contains("guess-one"))
        first.stop()

        // Another process on the same file: the same fingerprint, so the retry is a replay.
        let second = try InProcessServer(store: .given(try SQLiteStore(path: path)))
        defer { second.stop() }
        let c2 = second.client()
        let retried = try c2.route(s, "login", login, headers: key)
        #expect(retried.status == 200 && retried.header("Idempotent-Replayed") == "true", "\(retried)")
        #expect(retried.body == answer.body)
        // The password is not part of the fingerprint: another one is the same request...
        let otherPassword = try c2.route(s, "login", ["email": "nobody@example.com", "password": "guess-two"], headers: key)
        #expect(otherPassword.header("Idempotent-Replayed") == "true", "\(otherPassword)")
        // ...and anything else is not.
        let otherEmail = try c2.route(s, "login", ["email": "somebody@example.com", "password": "guess-one"], headers: key)
        #expect(otherEmail.status == 422 && otherEmail.code == "idempotency_key_reused", "\(otherEmail)")
    }
}
