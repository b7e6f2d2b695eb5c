#ifndef TRELLIS_SQLITE_SHIM_H
#define TRELLIS_SQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro built on a cast that Swift cannot import.
static inline sqlite3_destructor_type trellis_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_db_config is variadic, which Swift cannot call.
static inline int trellis_sqlite_db_config_int(sqlite3 *db, int op, int value) {
    return sqlite3_db_config(db, op, value, (int *)0);
}
// sqlite3_config is variadic, which Swift cannot call.
static inline int trellis_sqlite_config_log(void (*callback)(void *, int, const char *), void *context) {
    return sqlite3_config(SQLITE_CONFIG_LOG, callback, context);
}
#endif
