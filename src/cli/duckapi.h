/*
 * duckapi.h — the part of DuckDB's C API (libduckdb, a stable C ABI) that
 * `rocklake import/export duckdb:FILE` calls, loaded with dlopen when a
 * DuckDB file is first used, so rocklake builds and runs without it.
 *
 * Only what transfer_duckdb.c uses is declared: opaque handles, the result struct
 * the caller allocates (its layout is part of DuckDB's ABI), the error
 * kinds it maps to a SQLSTATE, and one function pointer per entry point. No DuckDB header is needed (none ships
 * with the library this project installs, scripts/install-deps.sh).
 *
 * Where the library is looked for: $ROCKLAKE_LIBDUCKDB (a path), then
 * RL_LIBDUCKDB_PREFIX/libduckdb.so, then ~/.local/lib/rocklake/libduckdb.so
 * (the two places install-deps.sh installs it).
 *
 * Threading: rl_duckdb_load is not thread-safe (one transfer per process).
 */
#ifndef ROCKLAKE_DUCKAPI_H
#define ROCKLAKE_DUCKAPI_H

#include <stdbool.h>
#include <stdint.h>

#include "base/error.h"

#define RL_LIBDUCKDB_PREFIX "/usr/local/lib/rocklake"

typedef uint64_t duckdb_idx;
typedef struct rl_duckdb_database_ *duckdb_database;
typedef struct rl_duckdb_connection_ *duckdb_connection;
typedef struct rl_duckdb_appender_ *duckdb_appender;
typedef struct rl_duckdb_error_data_ *duckdb_error_data;
typedef enum { DUCKDB_OK = 0, DUCKDB_ERROR = 1 } duckdb_state;

/* The kind of a failure (duckdb.h's duckdb_error_type, an int in the ABI):
 * only the values RockLake maps to a SQLSTATE are named (rl_duckdb_sqlstate);
 * the numbers are DuckDB's and never change (new kinds are appended). */
typedef enum {
    DUCKDB_ERROR_INVALID = 0, /* no error, or none recorded */
    DUCKDB_ERROR_IO = 28      /* a file could not be read, written or locked */
} duckdb_error_type;

/* A materialized result, allocated by the caller and filled by
 * duckdb_query (six words in DuckDB's ABI; read
 * only through the accessors). */
typedef struct duckdb_result {
    duckdb_idx reserved_column_count, reserved_row_count, reserved_rows_changed;
    void *reserved_columns;
    char *reserved_error;
    void *internal_data;
} duckdb_result;

typedef struct rl_duckdb_api {
    const char *(*library_version)(void);
    duckdb_state (*open)(const char *path, duckdb_database *out);
    void (*close)(duckdb_database *db);
    duckdb_state (*connect)(duckdb_database db, duckdb_connection *out);
    void (*disconnect)(duckdb_connection *con);
    duckdb_state (*query)(duckdb_connection con, const char *sql, duckdb_result *out);
    void (*destroy_result)(duckdb_result *r);
    const char *(*result_error)(duckdb_result *r);
    duckdb_error_type (*result_error_type)(duckdb_result *r);
    duckdb_idx (*column_count)(duckdb_result *r);
    duckdb_idx (*row_count)(duckdb_result *r);
    bool (*value_is_null)(duckdb_result *r, duckdb_idx col, duckdb_idx row);
    char *(*value_varchar)(duckdb_result *r, duckdb_idx col, duckdb_idx row); /* duckdb_free */
    int64_t (*value_int64)(duckdb_result *r, duckdb_idx col, duckdb_idx row);
    void (*free)(void *p);
    duckdb_state (*appender_create_ext)(duckdb_connection con, const char *catalog,
                                        const char *schema, const char *table,
                                        duckdb_appender *out);
    const char *(*appender_error)(duckdb_appender a);
    duckdb_error_data (*appender_error_data)(duckdb_appender a); /* destroy_error_data */
    duckdb_error_type (*error_data_error_type)(duckdb_error_data e);
    void (*destroy_error_data)(duckdb_error_data *e);
    duckdb_state (*append_null)(duckdb_appender a);
    duckdb_state (*append_bool)(duckdb_appender a, bool v);
    duckdb_state (*append_int64)(duckdb_appender a, int64_t v);
    duckdb_state (*append_varchar_length)(duckdb_appender a, const char *v, duckdb_idx len);
    duckdb_state (*append_blob)(duckdb_appender a, const void *v, duckdb_idx len);
    duckdb_state (*appender_end_row)(duckdb_appender a);
    duckdb_state (*appender_flush)(duckdb_appender a);
    duckdb_state (*appender_destroy)(duckdb_appender *a); /* flushes, closes, frees */
} rl_duckdb_api;

/* The loaded API (loaded once, kept for the process), or NULL with *err
 * naming where it looked and the command that installs it. */
const rl_duckdb_api *rl_duckdb_load(rl_error *err);

/* The SQLSTATE of a DuckDB failure of kind `t`: 58030 for an I/O error
 * (which is also how DuckDB reports a file another process holds locked),
 * XX000 for every other kind. Decided by the kind, never by the message. */
const char *rl_duckdb_sqlstate(duckdb_error_type t);
/* The kind of an appender's last failure (DUCKDB_ERROR_INVALID when a is
 * NULL or none is recorded). */
duckdb_error_type rl_duckdb_appender_error_type(const rl_duckdb_api *api, duckdb_appender a);

#endif
