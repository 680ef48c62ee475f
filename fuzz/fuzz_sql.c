// fuzz-sources: LIB
// fuzz-link: rust/target/release/librocklake_kv.a -lpg_query -lprotobuf-c -lssl -lcrypto -lpthread -ldl
/*
 * fuzz_sql.c — libFuzzer target: arbitrary SQL text into the engine.
 *
 * One engine over a memory:// catalog that already has DuckLake's 28
 * tables (created through SQL, as DuckDB does), so inputs reach real scans,
 * writes, catalog views and COPY paths. Each input runs as a simple query
 * in a fresh session; a COPY FROM STDIN it starts is fed the rest of the
 * input as data. Any crash, sanitizer report or leak is a bug: bad SQL must
 * only ever produce an error.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sql.h"

static rl_engine *engine;
static rl_catalog *catalog;

static const char *const ducklake_schema[] = {
#include "fuzz_sql_schema.inc"
};

static void setup(void)
{
    rl_catalog_options o = {.create_if_missing = true};
    rl_error e;
    catalog = rl_catalog_open("memory://fuzz-sql", &o, &e);
    if (!catalog)
        abort();
    engine = rl_engine_new(catalog, NULL, &e);
    rl_session *s = rl_session_new(engine, NULL);
    for (size_t i = 0; i < sizeof ducklake_schema / sizeof ducklake_schema[0]; i++)
        rl_session_simple_query(s, ducklake_schema[i], NULL, &e);
    rl_session_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!engine)
        setup();
    if (size > 64 * 1024)
        return 0;
    char *sql = malloc(size + 1);
    if (!sql)
        return 0;
    memcpy(sql, data, size);
    sql[size] = 0;
    rl_session *s = rl_session_new(engine, NULL);
    rl_error e;
    rl_exec_status st = rl_session_simple_query(s, sql, NULL, &e);
    if (st == RL_EXEC_COPY_IN) {
        size_t used = strlen(sql) + 1;
        if (used < size)
            rl_session_copy_data(s, data + used, size - used, &e);
        rl_session_copy_done(s, NULL, &e);
    }
    rl_session_free(s);
    free(sql);
    return 0;
}
