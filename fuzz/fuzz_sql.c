// fuzz-sources: LIB
// fuzz-link: rust/target/release/librocklake_kv.a -lpg_query -lprotobuf-c -lpcre2-8 -lgmp -lssl -lcrypto -lz -lpthread -ldl
/*
 * fuzz_sql.c — libFuzzer target: arbitrary SQL text into the engine.
 *
 * One engine over a memory:// catalog that already has DuckLake's 28
 * tables (created through SQL, as DuckDB does, from the statements in
 * tests/sql_cases/00_schema.sql; fuzz/run.sh runs from the repository
 * root), so inputs reach real scans,
 * writes, catalog views and COPY paths. Each input runs as a simple query
 * in a fresh session; a COPY FROM STDIN it starts is fed the rest of the
 * input as data. The session's sink offers every pure SELECT's key, as the
 * wire layer's does (sql_resultkey.c: the purity walk, the catalog's
 * fingerprint), and keeps nothing, so the statement then runs. The same
 * text is then prepared without parameter types and described, as a driver
 * does (sql_params.c counts and types its $n). Any crash, sanitizer report
 * or leak is a bug: bad SQL must only ever produce an error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql.h"

#include "fuzz_watchdog.h"

static rl_engine *engine;
static rl_catalog *catalog;

static int offer_key(void *ctx, const uint8_t *key, size_t len)
{
    (void)ctx;
    return key && len ? 0 : -1; /* a key is never empty */
}

static const rl_sink key_sink = {.cached_result = offer_key};

#define SCHEMA_FILE "tests/sql_cases/00_schema.sql"

/* Run every non-comment line of SCHEMA_FILE as one simple query. */
static void create_ducklake_tables(rl_session *s)
{
    FILE *f = fopen(SCHEMA_FILE, "r");
    if (!f) {
        fprintf(stderr, "fuzz_sql: cannot open %s (run from the repository root)\n",
                SCHEMA_FILE);
        abort();
    }
    char *line = NULL;
    size_t cap = 0;
    rl_error e;
    while (getline(&line, &cap, f) > 0)
        if (line[0] && line[0] != '-' && line[0] != '\n')
            rl_session_simple_query(s, line, NULL, &e);
    free(line);
    fclose(f);
}

static void setup(void)
{
    rl_catalog_options o = {.create_if_missing = true};
    rl_error e;
    catalog = rl_catalog_open("memory://fuzz-sql", &o, &e);
    if (!catalog)
        abort();
    engine = rl_engine_new(catalog, NULL, &e);
    rl_session *s = rl_session_new(engine, NULL);
    create_ducklake_tables(s);
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
    watchdog_watch(s);
    rl_error e;
    rl_exec_status st = rl_session_simple_query(s, sql, &key_sink, &e);
    if (st == RL_EXEC_COPY_IN) {
        size_t used = strlen(sql) + 1;
        if (used < size)
            rl_session_copy_data(s, data + used, size - used, &e);
        rl_session_copy_done(s, &key_sink, &e);
    } else {
        /* The parse cache (sql_parse.c) reuses a tree from the third text of
         * a shape on: send the text again with other digits and quoted
         * letters, so the shared tree runs with replacement constants, and
         * a numbered name (t_1 -> t_2) on a renamed copy of the tree. */
        for (int round = 1; round <= 3 && st != RL_EXEC_COPY_IN; round++) {
            char *variant = strdup(sql);
            if (!variant)
                break;
            bool quoted = false;
            for (char *p = variant; *p; p++) {
                if (*p == '\'')
                    quoted = !quoted;
                else if (*p >= '0' && *p <= '9')
                    *p = (char)('0' + (*p - '0' + round) % 10);
                else if (quoted && *p >= 'a' && *p <= 'y')
                    *p = (char)(*p + 1);
            }
            st = rl_session_simple_query(s, variant, &key_sink, &e);
            if (st == RL_EXEC_COPY_IN)
                rl_session_copy_fail(s, "fuzz", NULL, &e);
            free(variant);
        }
    }
    if (rl_session_parse(s, "", sql, 0, NULL, &e) == 0) {
        rl_describe d;
        rl_session_describe_statement(s, "", &d, &e);
    }
    rl_session_sync(s, &e);
    watchdog_watch(NULL);
    rl_session_free(s);
    free(sql);
    return 0;
}
