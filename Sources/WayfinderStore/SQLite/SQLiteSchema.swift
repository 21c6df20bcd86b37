/// The SQLite schema and its migrations, versioned by `PRAGMA user_version`.
///
/// - `sessions` is a rowid table (state blobs of 1–2 KiB are too large for WITHOUT ROWID) with the
///   id as primary key and an index on `last_used`, so expiry is an index range, never a scan.
/// - `counters` holds the number of sessions, kept exact by triggers in the same transaction as
///   every insert and delete, so opening reads one row instead of counting a million.
/// - Deleting a session deletes its idempotency records and journal (trigger), whichever
///   statement deleted it.
/// - An idempotency record whose answer the byte budget dropped has `headers` `x'00'` (no fields
///   encode to it, see `HeaderCoding.dropped`) and an empty `body`.
/// - The journal's entries: in version 2 rows of a table `journal`, found through an index; in
///   version 3 the same rows without the index, each session's row listing its entries' rowids
///   (column `journal`, an `SQLiteJournalWindow`); since version 4 in the entry log beside the
///   file (`SQLiteEntryLog`), the session's row listing their positions in it, and no table.
/// - Since version 5 a session's row holds its user (`user`, NULL for none), with a partial index
///   on `(user, id)` over the rows that have one, so a user's sessions are an index range in id
///   order and sessions without a user cost the index nothing.
/// - Since version 6 `secrets` holds the deployment's secret (one row, made on first use).
enum SQLiteSchema {
    static let currentVersion: Int64 = 6

    /// Brings the database to `currentVersion`; safe if several processes open it at once.
    /// Entries moved out of an older file go to `log`.
    static func migrate(_ connection: SQLiteConnection, log: SQLiteEntryLog) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let version = try connection.queryInt("PRAGMA user_version") ?? 0
            switch version {
            case 0:
                try connection.execute(version1)
                try connection.execute(version2)
                try migrateToVersion3(connection)
                try migrateToVersion4(connection, log: log)
                try connection.execute(version5)
                try connection.execute(version6)
            case 1:
                try connection.execute(version2)
                try migrateToVersion3(connection)
                try migrateToVersion4(connection, log: log)
                try connection.execute(version5)
                try connection.execute(version6)
            case 2:
                try migrateToVersion3(connection)
                try migrateToVersion4(connection, log: log)
                try connection.execute(version5)
                try connection.execute(version6)
            case 3:
                try migrateToVersion4(connection, log: log)
                try connection.execute(version5)
                try connection.execute(version6)
            case 4:
                try connection.execute(version5)
                try connection.execute(version6)
            case 5:
                try connection.execute(version6)
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
    /// (through the index, which is then dropped; the window's positions are the rows' rowids
    /// until version 4); the delete trigger leaves the journal alone.
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
                position: entries.columnInt64(1), revision: Int(entries.columnInt64(2)), size: Int(entries.columnInt64(3)))
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

    /// Version 4: every session's entries move from the `journal` table to `log` (written before
    /// the migration commits), their windows listing their positions there; the table goes.
    private static func migrateToVersion4(_ connection: SQLiteConnection, log: SQLiteEntryLog) throws {
        var ids: [String] = []
        do {
            let select = try connection.prepare("SELECT id FROM sessions WHERE journal IS NOT NULL AND length(journal) > 0")
            defer { select.reset() }
            while try select.step() { ids.append(select.columnText(0)) }
        }
        let window = try connection.prepare("SELECT journal FROM sessions WHERE id = ?1")
        let entry = try connection.prepare("SELECT revision, record, state FROM journal WHERE rowid = ?1")
        let store = try connection.prepare("UPDATE sessions SET journal = ?2 WHERE id = ?1")
        for id in ids {
            let old: SQLiteJournalWindow
            do {
                defer { window.reset() }
                try window.bind(1, id)
                guard try window.step() else { continue }
                guard let decoded = SQLiteJournalWindow(encoded: window.columnBlob(0)) else {
                    throw StoreError.unavailable("sqlite: the journal window of session \(id) is corrupt")
                }
                old = decoded
            }
            var new = SQLiteJournalWindow()
            for item in old.items {
                defer { entry.reset() }
                try entry.bind(1, item.position)
                guard try entry.step() else { continue }
                let moving = JournalEntry(revision: Int(entry.columnInt64(0)), record: entry.columnBlob(1), state: entry.columnBlob(2))
                let position = try log.nextPosition(for: SQLiteEntryLog.encodedLength(sessionID: id, moving))
                try log.append(moving, sessionID: id)
                new.append(.init(position: position, revision: moving.revision, size: moving.size), maxEntries: .max, maxBytes: .max)
            }
            defer { store.reset() }
            try store.bind(1, id)
            try store.bind(2, new.encoded)
            try store.run()
        }
        try log.flush()
        try connection.execute("DROP TABLE journal; PRAGMA user_version = 4;")
    }

    /// Version 5: the session's user and the index that finds a user's sessions (existing rows
    /// get NULL: a session stored before had no identity). Adding a nullable column rewrites no
    /// row; building the index reads the table once and adds no entry.
    static let version5 = """
        ALTER TABLE sessions ADD COLUMN user TEXT;
        CREATE INDEX sessions_by_user ON sessions (user, id) WHERE user IS NOT NULL;
        PRAGMA user_version = 5;
        """

    /// Version 6: the deployment's secrets, by name (`SQLiteStore.deploymentSecret()`).
    static let version6 = """
        CREATE TABLE secrets (
            name TEXT PRIMARY KEY NOT NULL,
            value BLOB NOT NULL
        ) WITHOUT ROWID;
        PRAGMA user_version = 6;
        """
}
