/// The SQLite schema and its migrations, versioned by `PRAGMA user_version`.
///
/// - `sessions` is a rowid table (state blobs of 1–2 KiB are too large for WITHOUT ROWID) with the
///   id as primary key and an index on `last_used`, so expiry is an index range, never a scan.
/// - `counters` holds the number of sessions, kept exact by triggers in the same transaction as
///   every insert and delete, so opening reads one row instead of counting a million.
/// - Deleting a session deletes its idempotency records and journal (trigger), whichever
///   statement deleted it.
/// - `journal` (version 2) holds each session's journal entries (record and state); since
///   version 3 it has no index: each session's row lists its entries' rowids (column `journal`,
///   an `SQLiteJournalWindow`), and entries no session lists are deleted by the journal's sweep
///   (`SQLiteJournalWriter`), not by the delete trigger.
enum SQLiteSchema {
    static let currentVersion: Int64 = 3

    /// Brings the database to `currentVersion`; safe if several processes open it at once.
    static func migrate(_ connection: SQLiteConnection) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let version = try connection.queryInt("PRAGMA user_version") ?? 0
            switch version {
            case 0:
                try connection.execute(version1)
                try connection.execute(version2)
                try migrateToVersion3(connection)
            case 1:
                try connection.execute(version2)
                try migrateToVersion3(connection)
            case 2:
                try migrateToVersion3(connection)
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

    static let version1 = """
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

    static let version2 = """
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

    /// Version 3: each session's row gets its journal window, computed from the entries it has
    /// (through the index, which is then dropped); the delete trigger leaves the journal alone.
    private static func migrateToVersion3(_ connection: SQLiteConnection) throws {
        try connection.execute("ALTER TABLE sessions ADD COLUMN journal BLOB")
        let entries = try connection.prepare(
            """
            SELECT session_id, rowid, revision, length(record) + length(state) FROM journal
            ORDER BY session_id, revision, rowid
            """)
        let store = try connection.prepare("UPDATE sessions SET journal = ?2 WHERE id = ?1")
        func save(_ id: String, _ window: SQLiteJournalWindow) throws {
            defer { store.reset() }
            try store.bind(1, id)
            try store.bind(2, window.encoded)
            try store.run()
        }
        var current: (id: String, window: SQLiteJournalWindow)?
        defer { entries.reset() }
        while try entries.step() {
            let id = entries.columnText(0)
            if let (previous, window) = current, previous != id { try save(previous, window) }
            if current?.id != id { current = (id, SQLiteJournalWindow()) }
            let item = SQLiteJournalWindow.Item(
                rowid: entries.columnInt64(1), revision: Int(entries.columnInt64(2)), size: Int(entries.columnInt64(3)))
            _ = current?.window.append(item, maxEntries: .max, maxBytes: .max)
        }
        if let (id, window) = current { try save(id, window) }
        try connection.execute(version3)
    }

    private static let version3 = """
        DROP INDEX journal_by_revision;
        DROP TRIGGER sessions_after_delete;
        CREATE TRIGGER sessions_after_delete AFTER DELETE ON sessions BEGIN
            UPDATE counters SET value = value - 1 WHERE name = 'sessions';
            DELETE FROM idempotency WHERE session_id = old.id;
        END;
        PRAGMA user_version = 3;
        """
}
