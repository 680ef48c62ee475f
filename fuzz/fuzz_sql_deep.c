// fuzz-sources: LIB
// fuzz-link: rust/target/release/librocklake_kv.a -lpg_query -lprotobuf-c -lpcre2-8 -lgmp -lssl -lcrypto -lz -lpthread -ldl
/*
 * fuzz_sql_deep.c — libFuzzer target: deep and wide SQL through the engine.
 *
 * fuzz_sql feeds raw text, which rarely nests more than a few levels. This
 * target reads its input as a recipe and builds the shapes that broke the
 * server in issue #16: thousands of nested subqueries, CASEs, parentheses,
 * function calls, casts, NOTs, long operator chains, UNION ALL and JOIN
 * chains, and target lists of thousands of columns, mixed. Each recipe
 * step is two bytes, a construct and a repeat count, so short inputs reach
 * any depth up to about 12,000 levels and past every limit (the nesting
 * bound of sql_parse.c, the stack checks, 1664 columns). The text runs as a
 * simple query and once more through Parse/Describe in a fresh session on
 * a memory:// catalog with one small table. Any crash, sanitizer report,
 * leak or hang is a bug: the answer must be rows or an error (54001,
 * 54011, 42601, ...). Joins are on the key, not cross products: RockLake
 * materializes results, and 2^n rows are a memory limit this target does
 * not test. Likewise a subquery over t lets one row of t reach the next
 * level: RockLake runs an uncorrelated subquery per outer row (PostgreSQL
 * runs it once, as an InitPlan), so two rows per level would be 2^n runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "sql/sql.h"

#include "fuzz_watchdog.h"

static rl_engine *engine;

#define MAX_STEPS 16
#define MAX_TEXT (512 * 1024)

/* A construct: what opens it, what closes it (after everything opened
 * later), and what is repeated `n` times in between for the wide ones. */
typedef struct construct {
    const char *open, *close;
} construct;

static const construct constructs[] = {
    {"(SELECT ", ")"},
    {"CASE WHEN t.a IS NULL THEN 0 ELSE ", " END"},
    {"(", ")"},
    {"abs(", ")"},
    {"coalesce(", ", 0)"},
    {"NOT ", ""},
    {"- ", ""},
    {"1 + ", ""},
    {"'x' || ", ""},
    {"(SELECT count(*) FROM t WHERE t.a = 1 AND 1 = ", ")"},
    {"EXISTS (SELECT 1 FROM t WHERE t.a = 2 AND ", ")"},
    {"1 IN (SELECT ", ")"},
    {"ARRAY[", "]"},
    {"(", ")::int"},
    {"(SELECT * FROM (SELECT ", ") s)"},
    {"(SELECT x FROM (VALUES (", ")) v(x))"},
};
#define NCONSTRUCTS (sizeof constructs / sizeof constructs[0])

/* Wide shapes: a target list of n columns, n UNION ALL branches, n joins,
 * a chain of n ANDs; the recipe picks one for the statement's top level. */
static void put_wide(rl_buf *b, uint8_t kind, size_t n)
{
    switch (kind % 4) {
    case 0:
        for (size_t i = 0; i < n; i++)
            rl_buf_printf(b, ", %zu", i);
        break;
    case 1:
        for (size_t i = 0; i < n; i++)
            rl_buf_printf(b, " UNION ALL SELECT %zu", i);
        break;
    case 2: /* each join re-reads every column before it: n^2 work, keep n small */
        rl_buf_put(b, " FROM t", 7);
        for (size_t i = 0; i < n / 12; i++)
            rl_buf_printf(b, " JOIN t t%zu ON t%zu.a = t.a", i, i); /* 2 rows, not 2^n */
        break;
    default:
        rl_buf_put(b, " FROM t WHERE true", 18);
        for (size_t i = 0; i < n; i++)
            rl_buf_printf(b, " AND t.a <> %zu", i);
        break;
    }
}

static void put_str(rl_buf *b, const char *s)
{
    rl_buf_put(b, s, strlen(s));
}

/* The SQL text of a recipe: step i opens construct data[2i] data[2i+1]
 * times (scaled up: repeats grow quadratically so depths past 10,000 are
 * a two-byte input); the last byte, if any, picks a wide shape. */
static char *build(const uint8_t *data, size_t size)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    put_str(&b, "SELECT ");
    size_t steps = size / 2 > MAX_STEPS ? MAX_STEPS : size / 2;
    size_t opened[MAX_STEPS] = {0}; /* what each step really opened */
    for (size_t i = 0; i < steps; i++) {
        size_t reps = (size_t)data[2 * i + 1] * data[2 * i + 1] / 5 + 1;
        const construct *k = &constructs[data[2 * i] % NCONSTRUCTS];
        for (; opened[i] < reps && b.len < MAX_TEXT; opened[i]++)
            put_str(&b, k->open);
    }
    put_str(&b, "1");
    for (size_t i = steps; i-- > 0;) {
        const construct *k = &constructs[data[2 * i] % NCONSTRUCTS];
        for (size_t r = 0; r < opened[i]; r++)
            put_str(&b, k->close);
    }
    if (size % 2 == 1)
        put_wide(&b, data[size - 1], (size_t)data[size - 1] * 12);
    rl_buf_put_u8(&b, 0);
    if (b.failed) {
        rl_buf_free(&b);
        return NULL;
    }
    return (char *)b.data;
}

static void setup(void)
{
    rl_catalog_options o = {.create_if_missing = true};
    rl_error e;
    rl_catalog *cat = rl_catalog_open("memory://fuzz-sql-deep", &o, &e);
    if (!cat)
        abort();
    engine = rl_engine_new(cat, NULL, &e);
    rl_session *s = rl_session_new(engine, NULL);
    if (rl_session_simple_query(s, "CREATE TABLE t (a bigint, b varchar)", NULL, &e) < 0 ||
        rl_session_simple_query(s, "INSERT INTO t VALUES (1, 'one'), (2, 'two')", NULL, &e) <
            0) {
        fprintf(stderr, "fuzz_sql_deep: setup failed: %s\n", e.message);
        abort();
    }
    rl_session_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!engine)
        setup();
    char *sql = build(data, size);
    if (!sql)
        return 0;
    rl_session *s = rl_session_new(engine, NULL);
    watchdog_watch(s);
    rl_error e;
    rl_session_simple_query(s, sql, NULL, &e);
    /* the extended protocol's typing path (Describe) on the same text */
    if (rl_session_parse(s, "", sql, 0, NULL, &e) == 0) {
        rl_describe d;
        memset(&d, 0, sizeof d);
        rl_session_describe_statement(s, "", &d, &e);
    }
    rl_session_sync(s, &e);
    watchdog_watch(NULL);
    rl_session_free(s);
    free(sql);
    return 0;
}
