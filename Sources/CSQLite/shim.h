// The one header CanopyServer sees of SQLite 3 (Debian's libsqlite3, 3.40). SQLITE_TRANSIENT is a macro cast of -1
// to a destructor pointer, which does not import into Swift; the helper below stands in for it.
#ifndef CANOPY_CSQLITE_SHIM_H
#define CANOPY_CSQLITE_SHIM_H

#include <sqlite3.h>

/// Binds a blob that SQLite copies before the call returns (SQLITE_TRANSIENT).
static inline int canopy_sqlite3_bind_blob_copy(sqlite3_stmt *statement, int index, const void *bytes, int count) {
    return sqlite3_bind_blob(statement, index, bytes, count, SQLITE_TRANSIENT);
}

/// Binds a text that SQLite copies before the call returns (SQLITE_TRANSIENT).
static inline int canopy_sqlite3_bind_text_copy(sqlite3_stmt *statement, int index, const char *text, int count) {
    return sqlite3_bind_text(statement, index, text, count, SQLITE_TRANSIENT);
}

#endif
