/// The SQLite schema and its migrations, versioned by `PRAGMA user_version`.
///
/// - `sessions` is a rowid table (state blobs of 1–2 KiB are too large for WITHOUT ROWID) with the
///   id as primary key and an index on `last_used`, so expiry is an index range, never a scan.
/// - `counters` holds the number of sessions, kept exact by triggers in the same transaction as
///   every insert and delete, so opening reads one row instead of counting a million.
/// - Deleting a session deletes its idempotency records and journal (trigger), whichever
///   statement deleted it.
/// - `journal` (version 2) holds each session's journal entries (record and state) by revision.
enum SQLiteSchema {
    static let currentVersion: Int64 = 2

    /// Brings the database to `currentVersion`; safe if several processes open it at once.
    static func migrate(_ connection: SQLiteConnection) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let version = try connection.queryInt("PRAGMA user_version") ?? 0
            switch version {
            case 0:
                try connection.execute(version1)
                try connection.execute(version2)
            case 1:
                try connection.execute(version2)
            case currentVersion:
                break
            default:
                throw StoreError.unavailable(
                    "database schema version \(version) is newer than this server's \(currentVersion)")
            }
            try connection.execute("COMMIT")
        } catch {
            throw connection.rollback(after: error)
        }
    }

    private static let version1 = """
        CREATE TABLE sessions (
            id TEXT PRIMARY KEY NOT NULL,
            token_hash BLOB NOT NULL,
            revision INTEGER NOT NULL,
            state BLOB NOT NULL,
            last_used INTEGER NOT NULL
        );
        CREATE INDEX sessions_by_last_used ON sessions (last_used);
        CREATE TABLE idempotency (
            session_id TEXT NOT NULL,
            key TEXT NOT NULL,
            fingerprint BLOB NOT NULL,
            status INTEGER NOT NULL,
            headers BLOB NOT NULL,
            body BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (session_id, key)
        );
        CREATE INDEX idempotency_by_created_at ON idempotency (created_at);
        CREATE TABLE counters (
            name TEXT PRIMARY KEY NOT NULL,
            value INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO counters (name, value) VALUES ('sessions', 0);
        CREATE TRIGGER sessions_after_insert AFTER INSERT ON sessions BEGIN
            UPDATE counters SET value = value + 1 WHERE name = 'sessions';
        END;
        CREATE TRIGGER sessions_after_delete AFTER DELETE ON sessions BEGIN
            UPDATE counters SET value = value - 1 WHERE name = 'sessions';
            DELETE FROM idempotency WHERE session_id = old.id;
        END;
        PRAGMA user_version = 1;
        """

    private static let version2 = """
        CREATE TABLE journal (
            session_id TEXT NOT NULL,
            revision INTEGER NOT NULL,
            record BLOB NOT NULL,
            state BLOB NOT NULL
        );
        CREATE UNIQUE INDEX journal_by_revision ON journal (session_id, revision);
        DROP TRIGGER sessions_after_delete;
        CREATE TRIGGER sessions_after_delete AFTER DELETE ON sessions BEGIN
            UPDATE counters SET value = value - 1 WHERE name = 'sessions';
            DELETE FROM idempotency WHERE session_id = old.id;
            DELETE FROM journal WHERE session_id = old.id;
        END;
        PRAGMA user_version = 2;
        """
}
