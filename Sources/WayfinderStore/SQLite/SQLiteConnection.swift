import CSQLite

/// One SQLite connection; every call's result is checked and failures become
/// `StoreError.unavailable` carrying SQLite's message.
///
/// - Important: Not thread-safe on its own (opened with `SQLITE_OPEN_NOMUTEX`): its owner guards it
///   with a `Mutex`, so the error message read after a failure belongs to that failure.
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String

    init(path: String) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            // close_v2 on a handle that failed to open only releases it; its result carries nothing new.
            _ = sqlite3_close_v2(db)
            throw StoreError.unavailable("sqlite open \(path): \(message) (\(rc))")
        }
        handle = db
        self.path = path
        try check(sqlite3_extended_result_codes(db, 1), "extended_result_codes")
    }

    deinit {
        // close_v2 defers the close until the statements are finalized and always reports SQLITE_OK.
        _ = sqlite3_close_v2(handle)
    }

    /// Removes a commit hook set with `sqlite3_wal_hook` (before its context goes away).
    func removeWALHook() {
        sqlite3_wal_hook(handle, nil, nil)
    }

    /// Throws `.unavailable` with SQLite's message unless `rc` is `SQLITE_OK`.
    func check(_ rc: Int32, _ context: @autoclosure () -> String) throws {
        guard rc != SQLITE_OK else { return }
        throw failure(rc, context())
    }

    func failure(_ rc: Int32, _ context: String) -> StoreError {
        .unavailable("sqlite \(context): \(String(cString: sqlite3_errmsg(handle))) (\(rc))")
    }

    /// Runs SQL that returns no rows (schema, pragmas that only set).
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw StoreError.unavailable("sqlite exec \(sql.prefix(60)): \(text) (\(rc))")
        }
    }

    /// Runs a one-row query (a pragma that answers) and returns the first column as text.
    func queryText(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.columnText(0)
    }

    /// Runs a one-row query and returns the first column as an integer.
    func queryInt(_ sql: String) throws -> Int64? {
        let statement = try prepare(sql)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.columnInt64(0)
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    func setBusyTimeout(milliseconds: Int32) throws {
        try check(sqlite3_busy_timeout(handle, milliseconds), "busy_timeout")
    }

    /// Rolls back the open transaction (if SQLite has not already) and returns the error to throw:
    /// `error`, or `.unavailable` naming both failures if the rollback failed too.
    func rollback(after error: any Error) -> any Error {
        guard !isAutocommit else { return error }
        do {
            try execute("ROLLBACK")
            return error
        } catch let rollbackError {
            return StoreError.unavailable("\(error); then rollback failed: \(rollbackError)")
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE (not counting triggers).
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// False while an explicit transaction is open.
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }
}

/// A prepared statement, kept for the life of its connection and reused.
///
/// Use: bind every parameter, `step()` until it returns false, then `reset()` (usually in a
/// `defer`). Bytes and text are bound with `SQLITE_TRANSIENT` (via the CSQLite shim), so SQLite
/// copies them and no Swift buffer has to outlive the bind call.
final class SQLiteStatement {
    private let connection: SQLiteConnection
    private let handle: OpaquePointer
    private let sql: String

    init(connection: SQLiteConnection, sql: String) throws {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw connection.failure(rc, "prepare \(sql)")
        }
        self.connection = connection
        self.handle = statement
        self.sql = sql
    }

    deinit {
        // finalize repeats the last step's result, already reported by step().
        _ = sqlite3_finalize(handle)
    }

    func bind(_ index: Int32, _ value: Int64) throws {
        try connection.check(sqlite3_bind_int64(handle, index, value), "bind \(index) of \(sql)")
    }

    func bind(_ index: Int32, _ value: Int) throws {
        try bind(index, Int64(value))
    }

    func bind(_ index: Int32, _ value: String) throws {
        var text = value
        let rc = text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                wf_sqlite3_bind_text_copy(handle, index, chars.baseAddress, Int32(chars.count))
            }
        }
        try connection.check(rc, "bind \(index) of \(sql)")
    }

    func bind(_ index: Int32, _ value: [UInt8]) throws {
        let rc = value.withUnsafeBytes { bytes in
            wf_sqlite3_bind_blob_copy(handle, index, bytes.baseAddress, Int32(bytes.count))
        }
        try connection.check(rc, "bind \(index) of \(sql)")
    }

    /// Advances: true if a row is ready, false when done.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.failure(rc, "step \(sql)")
        }
    }

    /// Steps a statement to the end, ignoring any rows.
    func run() throws {
        while try step() {}
    }

    /// Steps once and returns the raw code without throwing (for constraint handling).
    func stepCode() -> Int32 {
        sqlite3_step(handle)
    }

    /// Makes the statement ready for reuse and drops the copied bindings.
    ///
    /// sqlite3_reset repeats the result of the last step (already checked there) and
    /// sqlite3_clear_bindings always succeeds, so neither result carries new information.
    func reset() {
        _ = sqlite3_reset(handle)
        _ = sqlite3_clear_bindings(handle)
    }

    func columnInt64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    func columnText(_ index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column's text, or nil if it is NULL.
    func columnOptionalText(_ index: Int32) -> String? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : columnText(index)
    }

    func columnBlob(_ index: Int32) -> [UInt8] {
        // Per the SQLite docs: read the pointer first, then the size.
        guard let bytes = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return [UInt8](UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The error for a failed step with result `rc`.
    func failure(_ rc: Int32) -> StoreError {
        connection.failure(rc, "step \(sql)")
    }
}
