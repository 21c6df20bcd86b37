#ifndef WAYFINDER_CSQLITE_SHIM_H
#define WAYFINDER_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that casts -1 to a destructor pointer; Swift cannot import it.
// These helpers bind with SQLITE_TRANSIENT, so SQLite copies the bytes before returning and the
// caller's buffer only has to live for the duration of the call.

/// Binds a blob, copying it. A zero-length blob is bound as an empty blob, never as NULL
/// (sqlite3_bind_blob with a NULL pointer would bind NULL).
static inline int wf_sqlite3_bind_blob_copy(sqlite3_stmt *stmt, int index, const void *bytes, int count) {
    if (count == 0 || bytes == 0) {
        return sqlite3_bind_zeroblob(stmt, index, 0);
    }
    return sqlite3_bind_blob(stmt, index, bytes, count, SQLITE_TRANSIENT);
}

/// Binds UTF-8 text of `count` bytes, copying it. A zero-length string is bound as '' (not NULL).
static inline int wf_sqlite3_bind_text_copy(sqlite3_stmt *stmt, int index, const char *utf8, int count) {
    if (count == 0 || utf8 == 0) {
        return sqlite3_bind_text(stmt, index, "", 0, SQLITE_STATIC);
    }
    return sqlite3_bind_text(stmt, index, utf8, count, SQLITE_TRANSIENT);
}

#endif
