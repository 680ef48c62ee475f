/*
 * duckapi.c — loading libduckdb's C API with dlopen (duckapi.h).
 *
 * Owns: where the library is looked for, resolving each entry point, the
 * error that says how to install it, and the SQLSTATE of each DuckDB error
 * kind.
 * Invariant: a returned API has every function pointer set.
 */
#include "cli/duckapi.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rl_duckdb_api api;
static bool loaded;

#define SYM(field, name) {(void **)&api.field, name}

const rl_duckdb_api *rl_duckdb_load(rl_error *err)
{
    if (loaded)
        return &api;
    char home_path[512] = "", tried[1400] = "";
    const char *env = getenv("ROCKLAKE_LIBDUCKDB"), *home = getenv("HOME");
    if (home && *home)
        snprintf(home_path, sizeof home_path, "%s/.local/lib/rocklake/libduckdb.so", home);
    const char *paths[] = {env && *env ? env : NULL, RL_LIBDUCKDB_PREFIX "/libduckdb.so",
                           home_path[0] ? home_path : NULL};
    void *h = NULL;
    char why[600] = "";
    for (size_t i = 0; i < sizeof paths / sizeof paths[0] && !h; i++) {
        if (!paths[i])
            continue;
        size_t n = strlen(tried);
        snprintf(tried + n, sizeof tried - n, "%s%s", n ? ", " : "", paths[i]);
        if (!(h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL))) {
            const char *e = dlerror();
            snprintf(why, sizeof why, "%s", e ? e : "?");
        }
        if (env && *env && i == 0 && !h)
            break; /* an explicit path is the only one tried */
    }
    if (!h) {
        rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                     "a duckdb: catalog needs DuckDB's C library libduckdb.so 1.5.5, which "
                     "was not found (looked at %s)", tried);
        rl_error_detail(err, "%s", why);
        rl_error_hint(err, "install it with scripts/install-deps.sh (it puts libduckdb.so in "
                           RL_LIBDUCKDB_PREFIX " or ~/.local/lib/rocklake), or set "
                           "ROCKLAKE_LIBDUCKDB to a libduckdb.so");
        return NULL;
    }
    struct { void **slot; const char *name; } syms[] = {
        SYM(library_version, "duckdb_library_version"), SYM(open, "duckdb_open"),
        SYM(close, "duckdb_close"), SYM(connect, "duckdb_connect"),
        SYM(disconnect, "duckdb_disconnect"), SYM(query, "duckdb_query"),
        SYM(destroy_result, "duckdb_destroy_result"), SYM(result_error, "duckdb_result_error"),
        SYM(result_error_type, "duckdb_result_error_type"),
        SYM(column_count, "duckdb_column_count"), SYM(row_count, "duckdb_row_count"),
        SYM(value_is_null, "duckdb_value_is_null"), SYM(value_varchar, "duckdb_value_varchar"),
        SYM(value_int64, "duckdb_value_int64"), SYM(free, "duckdb_free"),
        SYM(appender_create_ext, "duckdb_appender_create_ext"),
        SYM(appender_error, "duckdb_appender_error"),
        SYM(appender_error_data, "duckdb_appender_error_data"),
        SYM(error_data_error_type, "duckdb_error_data_error_type"),
        SYM(destroy_error_data, "duckdb_destroy_error_data"), SYM(append_null, "duckdb_append_null"),
        SYM(append_bool, "duckdb_append_bool"), SYM(append_int64, "duckdb_append_int64"),
        SYM(append_varchar_length, "duckdb_append_varchar_length"),
        SYM(append_blob, "duckdb_append_blob"), SYM(appender_end_row, "duckdb_appender_end_row"),
        SYM(appender_flush, "duckdb_appender_flush"),
        SYM(appender_destroy, "duckdb_appender_destroy")};
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        *syms[i].slot = dlsym(h, syms[i].name);
        if (!*syms[i].slot) {
            rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                         "%s is not a usable libduckdb: it has no %s", tried, syms[i].name);
            rl_error_hint(err, "install DuckDB 1.5.5's library with scripts/install-deps.sh");
            dlclose(h);
            memset(&api, 0, sizeof api);
            return NULL;
        }
    }
    loaded = true; /* the handle stays open for the process */
    return &api;
}

const char *rl_duckdb_sqlstate(duckdb_error_type t)
{
    switch (t) {
    case DUCKDB_ERROR_IO: return RL_SQLSTATE_IO_ERROR;
    default: return RL_SQLSTATE_INTERNAL_ERROR;
    }
}

duckdb_error_type rl_duckdb_appender_error_type(const rl_duckdb_api *a, duckdb_appender app)
{
    if (!app)
        return DUCKDB_ERROR_INVALID;
    duckdb_error_data e = a->appender_error_data(app);
    duckdb_error_type t = e ? a->error_data_error_type(e) : DUCKDB_ERROR_INVALID;
    if (e)
        a->destroy_error_data(&e);
    return t;
}
