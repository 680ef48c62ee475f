/*
 * test_duckapi.c — the SQLSTATE of a DuckDB failure comes from DuckDB's
 * error kind (duckapi.h), not from its message.
 *
 * The mapping is checked as a table; with libduckdb installed (else those
 * tests skip), the kinds RockLake names are checked against the real
 * library: a missing file is DUCKDB_ERROR_IO (58030), a syntax error and an
 * appender misuse are not.
 */
#include <stdio.h>
#include <string.h>

#include "cli/duckapi.h"
#include "testutil.h"

static void test_kind_to_sqlstate(void)
{
    CHECK_EQ_STR(rl_duckdb_sqlstate(DUCKDB_ERROR_IO), RL_SQLSTATE_IO_ERROR);
    CHECK_EQ_STR(rl_duckdb_sqlstate(DUCKDB_ERROR_INVALID), RL_SQLSTATE_INTERNAL_ERROR);
    CHECK_EQ_STR(rl_duckdb_sqlstate((duckdb_error_type)22), RL_SQLSTATE_INTERNAL_ERROR);
}

/* An in-memory DuckDB, or NULL (the test skipped) without libduckdb. */
static const rl_duckdb_api *open_memory(duckdb_database *db, duckdb_connection *con)
{
    rl_error e;
    const rl_duckdb_api *api = rl_duckdb_load(&e);
    if (!api)
        return NULL;
    if (api->open(NULL, db) != DUCKDB_OK)
        return NULL;
    if (api->connect(*db, con) != DUCKDB_OK) {
        api->close(db);
        return NULL;
    }
    return api;
}

static void close_memory(const rl_duckdb_api *api, duckdb_database *db, duckdb_connection *con)
{
    api->disconnect(con);
    api->close(db);
}

/* The kind of the failure of `sql` (DUCKDB_ERROR_INVALID if it worked). */
static duckdb_error_type failure_kind(const rl_duckdb_api *api, duckdb_connection con,
                                      const char *sql)
{
    duckdb_result r;
    memset(&r, 0, sizeof r);
    duckdb_error_type t = DUCKDB_ERROR_INVALID;
    if (api->query(con, sql, &r) != DUCKDB_OK)
        t = api->result_error_type(&r);
    api->destroy_result(&r);
    return t;
}

static void test_real_library_kinds(void)
{
    duckdb_database db;
    duckdb_connection con;
    const rl_duckdb_api *api = open_memory(&db, &con);
    if (!api)
        TU_SKIP("libduckdb is not installed (scripts/install-deps.sh)");
    duckdb_error_type io =
        failure_kind(api, con, "ATTACH '/nonexistent-rocklake-dir/x.duckdb' AS x (READ_ONLY)");
    CHECK_EQ_INT(io, DUCKDB_ERROR_IO);
    CHECK_EQ_STR(rl_duckdb_sqlstate(io), RL_SQLSTATE_IO_ERROR);
    duckdb_error_type syntax = failure_kind(api, con, "SELEC 1");
    CHECK(syntax != DUCKDB_ERROR_IO && syntax != DUCKDB_ERROR_INVALID);
    CHECK_EQ_STR(rl_duckdb_sqlstate(syntax), RL_SQLSTATE_INTERNAL_ERROR);
    close_memory(api, &db, &con);
}

static void test_appender_kind(void)
{
    duckdb_database db;
    duckdb_connection con;
    const rl_duckdb_api *api = open_memory(&db, &con);
    if (!api)
        TU_SKIP("libduckdb is not installed (scripts/install-deps.sh)");
    CHECK_EQ_INT(rl_duckdb_appender_error_type(api, NULL), DUCKDB_ERROR_INVALID);
    CHECK_EQ_INT(failure_kind(api, con, "CREATE TABLE t (a BIGINT, b BIGINT)"),
                 DUCKDB_ERROR_INVALID);
    duckdb_appender app = NULL;
    CHECK(api->appender_create_ext(con, NULL, "main", "t", &app) == DUCKDB_OK);
    CHECK_EQ_INT(rl_duckdb_appender_error_type(api, app), DUCKDB_ERROR_INVALID);
    CHECK(api->append_int64(app, 1) == DUCKDB_OK);
    CHECK(api->appender_end_row(app) != DUCKDB_OK); /* one column short */
    duckdb_error_type t = rl_duckdb_appender_error_type(api, app);
    CHECK(t != DUCKDB_ERROR_INVALID && t != DUCKDB_ERROR_IO);
    api->appender_destroy(&app);
    close_memory(api, &db, &con);
}

int main(void)
{
    RUN(test_kind_to_sqlstate);
    RUN(test_real_library_kinds);
    RUN(test_appender_kind);
    return tu_finish();
}
