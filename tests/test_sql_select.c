/*
 * test_sql_select.c — expressions and SELECT end to end through
 * rl_session_simple_query.
 *
 * Covers: the latest-snapshot query (scalar MAX subquery, answered by key
 * prefix + max-key fast path), pushed-down filters with quoted literals and
 * COLLATE "C", IN lists, IS NULL inside OR, nested AND/OR/NOT, the derived
 * table wrapper DuckDB's postgres_query uses, scalar/EXISTS/IN subqueries,
 * UNION ALL with ORDER BY, inner/LEFT joins (ON and USING) with NULLs, ORDER
 * BY NULLS FIRST/LAST, LIMIT/OFFSET, GROUP BY and empty aggregates, CTEs over
 * VALUES, casts, LIKE/BETWEEN/COALESCE/CASE, RowDescription types, and the
 * PostgreSQL errors 42P01/42703/42702/22P02/21000/42601/42804/22003/42883,
 * and the row order of scans without ORDER BY (PostgreSQL's heap order for
 * whole-table reads, through both the row-set and the streamed COPY path).
 * Every expected answer below was produced by PostgreSQL 15 on the same
 * tables and rows (psql -A, NULL shown as NULL, errors as "E state: text").
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_int.h"
#include "testutil.h"

/* ------------------------------------------------------------ recorder */

/* psql -A style: "c1|c2\nv1|v2..." for the last result; types in `types`. */
typedef struct recorder {
    rl_buf out;
    char types[512];
    char tables[512];
    char tag[64];
    size_t copy_chunks; /* CopyData pieces of the last COPY TO */
} recorder;

static int on_rowdesc(void *ctx, size_t ncols, const rl_col_info *cols)
{
    recorder *r = ctx;
    rl_buf_reset(&r->out);
    size_t to = 0, tt = 0;
    r->types[0] = r->tables[0] = 0;
    for (size_t i = 0; i < ncols; i++) {
        rl_buf_printf(&r->out, "%s%s", i ? "|" : "", cols[i].name);
        to += (size_t)snprintf(r->types + to, sizeof r->types - (to < sizeof r->types ? to : 0),
                               "%s%u", i ? " " : "", cols[i].type_oid);
        tt += (size_t)snprintf(r->tables + tt, sizeof r->tables - (tt < sizeof r->tables ? tt : 0),
                               "%s%d", i ? " " : "", cols[i].table_oid ? cols[i].attnum : 0);
    }
    return 0;
}

static int on_row(void *ctx, size_t ncols, const rl_value *vals)
{
    recorder *r = ctx;
    rl_buf_put_u8(&r->out, '\n');
    for (size_t i = 0; i < ncols; i++) {
        if (i)
            rl_buf_put_u8(&r->out, '|');
        if (vals[i].d.isnull)
            rl_buf_put_str(&r->out, "NULL");
        else
            rl_value_to_text(&r->out, &vals[i]);
    }
    return 0;
}

/* COPY ... TO STDOUT in text format: the data as it is sent. */
static int on_copy_data(void *ctx, const uint8_t *data, size_t len)
{
    recorder *r = ctx;
    rl_buf_put(&r->out, data, len);
    r->copy_chunks++;
    return 0;
}

static int on_complete(void *ctx, const char *tag)
{
    recorder *r = ctx;
    snprintf(r->tag, sizeof r->tag, "%s", tag);
    return 0;
}

static rl_catalog *cat;
static rl_engine *eng;
static rl_session *sess;
static recorder rec;
static char result[8192];
static rl_error last_err;

/* Run one statement; result holds the psql-style answer or "E state: msg". */
static const char *q(const char *sql)
{
    rl_sink sink = {.ctx = &rec, .row_description = on_rowdesc, .data_row = on_row,
                    .command_complete = on_complete, .copy_out_data = on_copy_data};
    rl_buf_reset(&rec.out);
    rec.tag[0] = 0;
    rec.copy_chunks = 0;
    memset(&last_err, 0, sizeof last_err);
    if (rl_session_simple_query(sess, sql, &sink, &last_err) == RL_EXEC_ERROR) {
        snprintf(result, sizeof result, "E %s: %s", last_err.sqlstate, last_err.message);
        return result;
    }
    snprintf(result, sizeof result, "%.*s", (int)rec.out.len, (const char *)rec.out.data);
    return result;
}

static const char *setup_sql[] = {
    "CREATE TABLE \"public\".\"ducklake_snapshot\"(\"snapshot_id\" BIGINT PRIMARY KEY, \"snapshot_time\" TIMESTAMP WITH TIME ZONE, \"schema_version\" BIGINT, \"next_catalog_id\" BIGINT, \"next_file_id\" BIGINT);",
    "CREATE TABLE \"public\".\"ducklake_metadata\"(\"key\" VARCHAR NOT NULL, \"value\" VARCHAR NOT NULL, \"scope\" VARCHAR, \"scope_id\" BIGINT);",
    "CREATE TABLE \"public\".\"ducklake_schema\"(\"schema_id\" BIGINT PRIMARY KEY, \"schema_uuid\" UUID, \"begin_snapshot\" BIGINT, \"end_snapshot\" BIGINT, \"schema_name\" VARCHAR, \"path\" VARCHAR, \"path_is_relative\" BOOLEAN);",
    "CREATE TABLE \"public\".\"ducklake_table\"(\"table_id\" BIGINT, \"table_uuid\" UUID, \"begin_snapshot\" BIGINT, \"end_snapshot\" BIGINT, \"schema_id\" BIGINT, \"table_name\" VARCHAR, \"path\" VARCHAR, \"path_is_relative\" BOOLEAN);",
    "INSERT INTO \"public\".ducklake_snapshot VALUES (0, '2024-01-01 00:00:00+00', 0, 1, 0), (1, '2024-01-02 00:00:00+00', 1, 2, 0), (2, '2024-01-03 00:00:00+00', 1, 3, 5);",
    "INSERT INTO \"public\".ducklake_metadata VALUES ('version','0.3',NULL,NULL), ('data_path','lake_data/',NULL,NULL), ('parquet_compression','zstd','table',3), ('data_inlining_row_limit','10','table',3);",
    "INSERT INTO \"public\".ducklake_schema VALUES (0,'f2c0a3a0-0000-0000-0000-000000000001',0,NULL,'main','main/',true), (1,'f2c0a3a0-0000-0000-0000-000000000002',1,2,'s1','s1/',true);",
    "INSERT INTO \"public\".ducklake_table VALUES (1,'a0000000-0000-0000-0000-000000000001',1,NULL,0,'t1','t1/',true), (2,'a0000000-0000-0000-0000-000000000002',2,NULL,0,'t2','t2/',true), (3,'a0000000-0000-0000-0000-000000000003',1,2,1,'old','old/',false);"
};

static void setup(void)
{
    rl_error err;
    rl_catalog_options o = {.create_if_missing = true};
    cat = rl_catalog_open("memory://test_sql_select", &o, &err);
    CHECK(cat != NULL);
    rl_engine_options eo = {.database = "lakecat"};
    eng = rl_engine_new(cat, &eo, &err);
    CHECK(eng != NULL);
    rl_session_info info = {.user = "lake", .application_name = "test"};
    sess = rl_session_new(eng, &info);
    CHECK(sess != NULL);
    rl_buf_init(&rec.out, 0);
    for (size_t i = 0; i < sizeof setup_sql / sizeof setup_sql[0]; i++) {
        const char *r = q(setup_sql[i]);
        if (r[0] == 'E')
            fprintf(stderr, "  setup failed: %s -> %s\n", setup_sql[i], r);
        CHECK(r[0] != 'E');
    }
}

static void teardown(void)
{
    rl_session_free(sess);
    rl_engine_free(eng);
    rl_error err;
    rl_catalog_close(cat, &err);
    rl_buf_free(&rec.out);
}

/* ------------------------------------------------------------ cases */

static const struct {
    const char *sql;
    const char *expect;
} cases[] = {
    {"SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM \"public\".ducklake_snapshot WHERE snapshot_id = ( SELECT MAX(snapshot_id) FROM \"public\".ducklake_snapshot );",
     "snapshot_id|schema_version|next_catalog_id|next_file_id\n"
     "2|1|3|5"},
    {"SELECT \"key\", \"scope\", \"scope_id\" FROM \"public\".\"ducklake_metadata\" WHERE \"key\" = 'data_inlining_row_limit' COLLATE \"C\" AND \"scope\" = 'table' COLLATE \"C\" AND \"scope_id\" = '3';",
     "key|scope|scope_id\n"
     "data_inlining_row_limit|table|3"},
    {"SELECT \"table_id\", \"table_name\" FROM \"public\".\"ducklake_table\" WHERE \"table_id\" IN ('1', '3') ORDER BY table_id;",
     "table_id|table_name\n"
     "1|t1\n"
     "3|old"},
    {"SELECT schema_id, schema_name FROM ducklake_schema WHERE 1 >= begin_snapshot AND (1 < end_snapshot OR end_snapshot IS NULL) ORDER BY schema_id;",
     "schema_id|schema_name\n"
     "0|main\n"
     "1|s1"},
    {"SELECT table_id FROM ducklake_table WHERE NOT (path_is_relative AND table_id > 1) OR (end_snapshot IS NOT NULL AND NOT path_is_relative) ORDER BY 1;",
     "table_id\n"
     "1\n"
     "3"},
    {"SELECT \"snapshot_id\", \"schema_version\" FROM (SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM \"public\".ducklake_snapshot WHERE snapshot_id = (SELECT MAX(snapshot_id) FROM \"public\".ducklake_snapshot)) AS __unnamed_subquery;",
     "snapshot_id|schema_version\n"
     "2|1"},
    {"SELECT (SELECT MAX(snapshot_id) FROM ducklake_snapshot), (SELECT MIN(table_id) FROM ducklake_table), (SELECT COUNT(*) FROM ducklake_metadata) AS n;",
     "max|min|n\n"
     "2|1|4"},
    {"SELECT table_id AS id, table_name AS name FROM ducklake_table UNION ALL SELECT schema_id, schema_name FROM ducklake_schema ORDER BY name DESC;",
     "id|name\n"
     "2|t2\n"
     "1|t1\n"
     "1|s1\n"
     "3|old\n"
     "0|main"},
    {"SELECT t.table_name, s.schema_name FROM ducklake_table t LEFT JOIN ducklake_schema s ON s.schema_id = t.schema_id AND s.end_snapshot IS NULL ORDER BY t.table_id;",
     "table_name|schema_name\n"
     "t1|main\n"
     "t2|main\n"
     "old|NULL"},
    {"SELECT table_id, schema_name FROM ducklake_table JOIN ducklake_schema USING (schema_id) ORDER BY table_id;",
     "table_id|schema_name\n"
     "1|main\n"
     "2|main\n"
     "3|s1"},
    {"SELECT * FROM ducklake_table t LEFT JOIN ducklake_snapshot s ON s.snapshot_id = t.end_snapshot WHERE t.table_id < 3 ORDER BY t.table_id;",
     "table_id|table_uuid|begin_snapshot|end_snapshot|schema_id|table_name|path|path_is_relative|snapshot_id|snapshot_time|schema_version|next_catalog_id|next_file_id\n"
     "1|a0000000-0000-0000-0000-000000000001|1|NULL|0|t1|t1/|t|NULL|NULL|NULL|NULL|NULL\n"
     "2|a0000000-0000-0000-0000-000000000002|2|NULL|0|t2|t2/|t|NULL|NULL|NULL|NULL|NULL"},
    {"SELECT table_id, end_snapshot FROM ducklake_table ORDER BY end_snapshot NULLS FIRST, table_id;",
     "table_id|end_snapshot\n"
     "1|NULL\n"
     "2|NULL\n"
     "3|2"},
    {"SELECT table_id, end_snapshot FROM ducklake_table ORDER BY end_snapshot DESC, table_id;",
     "table_id|end_snapshot\n"
     "1|NULL\n"
     "2|NULL\n"
     "3|2"},
    {"SELECT table_id, end_snapshot FROM ducklake_table ORDER BY end_snapshot DESC NULLS LAST, table_id DESC;",
     "table_id|end_snapshot\n"
     "3|2\n"
     "2|NULL\n"
     "1|NULL"},
    {"SELECT snapshot_id FROM ducklake_snapshot ORDER BY snapshot_id DESC LIMIT 1 OFFSET 1;",
     "snapshot_id\n"
     "1"},
    {"SELECT NULL FROM \"public\".\"ducklake_metadata\" LIMIT 1;",
     "?column?\n"
     "NULL"},
    {"SELECT 1;",
     "?column?\n"
     "1"},
    {"SELECT to_regclass('duckdb_secrets');",
     "to_regclass\n"
     "NULL"},
    {"SELECT schema_id, COUNT(*), MAX(table_name) FROM ducklake_table GROUP BY schema_id ORDER BY schema_id;",
     "schema_id|count|max\n"
     "0|2|t2\n"
     "1|1|old"},
    {"SELECT COUNT(*), MAX(snapshot_id), SUM(schema_version) FROM ducklake_snapshot WHERE snapshot_id > 100;",
     "count|max|sum\n"
     "0|NULL|NULL"},
    {"WITH v(a, b) AS (VALUES (1, 'x'), (2, NULL)) SELECT a, b FROM v ORDER BY a DESC;",
     "a|b\n"
     "2|NULL\n"
     "1|x"},
    {"SELECT schema_uuid::VARCHAR, CAST(path_is_relative AS VARCHAR), '2024-01-01 00:00:00+00'::TIMESTAMPTZ, CAST('5' AS BIGINT) + 1 FROM ducklake_schema WHERE schema_id = 0;",
     "schema_uuid|path_is_relative|timestamptz|?column?\n"
     "f2c0a3a0-0000-0000-0000-000000000001|true|2024-01-01 00:00:00+00|6"},
    {"SELECT * FROM ducklake_snapshot WHERE snapshot_time < '2024-01-02 12:00:00+00' ORDER BY 1;",
     "snapshot_id|snapshot_time|schema_version|next_catalog_id|next_file_id\n"
     "0|2024-01-01 00:00:00+00|0|1|0\n"
     "1|2024-01-02 00:00:00+00|1|2|0"},
    {"SELECT key, value FROM ducklake_metadata WHERE key LIKE 'data%' AND scope IS NULL;",
     "key|value\n"
     "data_path|lake_data/"},
    {"SELECT table_name FROM ducklake_table WHERE table_id BETWEEN 2 AND 3 AND table_name NOT LIKE '_l%';",
     "table_name\n"
     "t2"},
    {"SELECT COALESCE(end_snapshot, -1) AS e, CASE WHEN path_is_relative THEN 'rel' ELSE 'abs' END FROM ducklake_table ORDER BY table_id;",
     "e|case\n"
     "-1|rel\n"
     "-1|rel\n"
     "2|abs"},
    {"SELECT split_part('a/b/c', '/', 2), current_schema();",
     "split_part|current_schema\n"
     "b|public"},
    {"SELECT table_id FROM ducklake_table t WHERE EXISTS (SELECT 1 FROM ducklake_schema s WHERE s.schema_id = t.schema_id AND s.end_snapshot IS NULL) ORDER BY 1;",
     "table_id\n"
     "1\n"
     "2"},
    {"SELECT table_id FROM ducklake_table WHERE schema_id IN (SELECT schema_id FROM ducklake_schema WHERE schema_name = 's1');",
     "table_id\n"
     "3"},
    {"SELECT * FROM nosuch;",
     "E 42P01: relation \"nosuch\" does not exist"},
    {"SELECT zz FROM ducklake_snapshot;",
     "E 42703: column \"zz\" does not exist"},
    {"SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id = 'abc';",
     "E 22P02: invalid input syntax for type bigint: \"abc\""},
    {"SELECT (SELECT snapshot_id FROM ducklake_snapshot);",
     "E 21000: more than one row returned by a subquery used as an expression"},
    {"SELECT 1 UNION ALL SELECT 1, 2;",
     "E 42601: each UNION query must have the same number of columns"},
    {"SELECT begin_snapshot FROM ducklake_table, ducklake_schema;",
     "E 42702: column reference \"begin_snapshot\" is ambiguous"},
    {"SELECT q.a FROM ducklake_table;",
     "E 42P01: missing FROM-clause entry for table \"q\""},
    {"SELECT t.zz FROM ducklake_table t;",
     "E 42703: column t.zz does not exist"},
    {"SELECT snapshot_id FROM ducklake_snapshot WHERE schema_version;",
     "E 42804: argument of WHERE must be type boolean, not type bigint"},
    {"SELECT 'x'::uuid;",
     "E 22P02: invalid input syntax for type uuid: \"x\""},
    {"SELECT 2147483647 + 1;",
     "E 22003: integer out of range"},
    {"SELECT nofunc(1);",
     "E 42883: function nofunc(integer) does not exist"},
};

static void test_against_postgres(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = q(cases[i].sql);
        if (strcmp(got, cases[i].expect) != 0)
            fprintf(stderr, "  query: %s\n", cases[i].sql);
        CHECK_EQ_STR(got, cases[i].expect);
    }
}

/* RowDescription types as PostgreSQL 15 reports them. */
static void test_row_description(void)
{
    q("SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM \"public\"."
      "ducklake_snapshot WHERE snapshot_id = (SELECT MAX(snapshot_id) FROM "
      "\"public\".ducklake_snapshot)");
    CHECK_EQ_STR(rec.types, "20 20 20 20");
    CHECK_EQ_STR(rec.tables, "1 3 4 5"); /* attnums of a table's columns */
    CHECK_EQ_STR(rec.tag, "SELECT 1");
    q("SELECT 1, NULL, 'abc', true, count(*), version(), now(), to_regclass('x'), "
      "current_schema(), pg_my_temp_schema(), 1.5, 2147483648, NULL::int4 FROM "
      "ducklake_metadata");
    CHECK_EQ_STR(rec.types, "23 25 25 16 20 25 1184 2205 19 26 1700 20 23");
    CHECK_EQ_STR(rec.tables, "0 0 0 0 0 0 0 0 0 0 0 0 0");
    q("SELECT sum(schema_version), max(snapshot_time), min(snapshot_id) FROM ducklake_snapshot");
    CHECK_EQ_STR(rec.types, "1700 1184 20");
    q("SELECT NULL AS x UNION ALL SELECT 1");
    CHECK_EQ_STR(rec.types, "23");
    q("SELECT 1 UNION ALL SELECT 2::int8");
    CHECK_EQ_STR(rec.types, "20");
    q("SELECT coalesce(NULL, 2), coalesce(NULL, 'a'), CASE WHEN true THEN 1 END");
    CHECK_EQ_STR(result, "coalesce|coalesce|case\n2|a|1");
    CHECK_EQ_STR(rec.types, "23 25 23");
    q("SELECT * FROM ducklake_snapshot WHERE false");
    CHECK_EQ_STR(rec.types, "20 1184 20 20 20");
    CHECK_EQ_STR(rec.tag, "SELECT 0");
    q("SELECT snapshot_id, ctid FROM ducklake_snapshot WHERE snapshot_id = 1");
    CHECK_EQ_STR(rec.types, "20 27");
    CHECK(strncmp(result, "snapshot_id|ctid\n1|(", 20) == 0);
}

/* Error positions (1-based characters) as PostgreSQL reports them. */
static void test_error_positions(void)
{
    q("SELECT zz FROM ducklake_snapshot");
    CHECK_EQ_INT(last_err.position, 8);
    q("SELECT snapshot_id FROM ducklake_snapshot WHERE snapshot_id = 'abc'");
    CHECK_EQ_INT(last_err.position, 63);
    q("SELECT 1 UNION ALL SELECT 1, 2");
    CHECK_EQ_INT(last_err.position, 27);
    q("SELECT * FROM nosuch");
    CHECK_EQ_INT(last_err.position, 15);
    q("SELECT (SELECT snapshot_id FROM ducklake_snapshot)");
    CHECK_EQ_INT(last_err.position, 0);
}

/* A recursion without end (which PostgreSQL runs only as far as the outer
 * LIMIT reads) ends with 54000 after RL_RECURSION_ROUNDS_MAX rounds, in
 * seconds and without growing: never a hang. One that ends is answered. */
static void test_recursion_without_end_is_refused(void)
{
    CHECK_EQ_STR(q("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) "
                   "SELECT n FROM t LIMIT 10"),
                 "E 54000: recursive query \"t\" did not end after 1000000 rounds");
    CHECK_EQ_STR(q("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) "
                   "SELECT n FROM t"),
                 "n\n1\n2\n3");
}

/* A JSON array nested deeper than the C stack walks, into an array
 * column: 54001, not an answer from the part the walker got through (it
 * gave up silently: "number of array dimensions (5499)", or a member left
 * out of a row). */
static void test_deep_json_array_walk_is_refused(void)
{
    size_t depth = 20000; /* parses as json; too deep for the walk's recursion */
    char *sql = malloc(2 * depth + 128);
    CHECK(sql != NULL);
    size_t off = (size_t)sprintf(sql, "SELECT b FROM json_to_record('{\"x\":");
    memset(sql + off, '[', depth);
    off += depth;
    memset(sql + off, ']', depth);
    off += depth;
    sprintf(sql + off, ",\"b\":\"end\"}') AS r(x int[], b text)");
    CHECK_EQ_STR(q(sql), "E 54001: stack depth limit exceeded");
    free(sql);
}

/* Literal coercion and casts. */
static void test_casts(void)
{
    CHECK_EQ_STR(q("SELECT '5'::bigint + 1, CAST('t' AS BOOLEAN), CAST(1.5 AS INTEGER), "
                   "'12:30:00'::TIME, CAST('1 day' AS INTERVAL), 2.5::DOUBLE PRECISION, "
                   "CAST(NULL AS VARCHAR) IS NULL"),
                 "?column?|bool|int4|time|interval|float8|?column?\n"
                 "6|t|2|12:30:00|1 day|2.5|t");
    CHECK_EQ_STR(q("SELECT '99999999999'::int4"),
                 "E 22003: value \"99999999999\" is out of range for type integer");
    CHECK_EQ_STR(q("SELECT 3000000000::int4"), "E 22003: integer out of range");
    CHECK_EQ_STR(q("SELECT 100000::int2"), "E 22003: smallint out of range");
    CHECK_EQ_STR(q("SELECT 'zz'::tid"), "E 22P02: invalid input syntax for type tid: \"zz\"");
    CHECK_EQ_STR(q("SELECT 'x'::bool"), "E 22P02: invalid input syntax for type boolean: \"x\"");
    CHECK_EQ_STR(q("SELECT 1/0"), "E 22012: division by zero");
    CHECK_EQ_STR(q("SELECT 7/2, -7/2, 7 % 3"), "?column?|?column?|?column?\n3|-3|1");
    CHECK_EQ_STR(q("SELECT schema_uuid = 1 FROM ducklake_schema"),
                 "E 42883: operator does not exist: uuid = integer");
    CHECK_EQ_STR(q("SELECT schema_id FROM ducklake_schema WHERE schema_uuid = "
                   "'f2c0a3a0-0000-0000-0000-000000000002'"),
                 "schema_id\n1");
}

/* Property: for random byte strings (every byte value, lengths 0..80,
 * across base64's 76-character line breaks), decode(encode(b, f), f) is b
 * in each of hex, base64 and escape, and encode's length is what the
 * format implies for hex and base64. */
static void test_encode_decode_round_trip(void)
{
    static const char *const formats[] = {"hex", "base64", "escape"};
    uint32_t seed = 12345;
    for (int round = 0; round < 60; round++) {
        size_t n = (size_t)(round * 7 % 81);
        char hex[2 * 81 + 1];
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            snprintf(hex + 2 * i, 3, "%02x", (seed >> 16) & 0xff);
        }
        hex[2 * n] = 0;
        for (size_t f = 0; f < 3; f++) {
            char sql[1024];
            snprintf(sql, sizeof sql,
                     "SELECT decode(encode('\\x%s'::bytea, '%s'), '%s') = '\\x%s'::bytea, "
                     "length(replace(encode('\\x%s'::bytea, '%s'), chr(10), ''))",
                     hex, formats[f], formats[f], hex, hex, formats[f]);
            const char *r = q(sql);
            const char *row = strchr(r, '\n');
            CHECK(row && row[1] == 't' && row[2] == '|');
            long len = row ? strtol(row + 3, NULL, 10) : -1;
            if (f == 0)
                CHECK_EQ_INT(len, (long)(2 * n));
            if (f == 1)
                CHECK_EQ_INT(len, (long)((n + 2) / 3 * 4));
        }
    }
}

/* A big table: the latest-snapshot query must not read every snapshot. */
static void test_latest_snapshot_is_cheap(void)
{
    rl_buf sql;
    rl_buf_init(&sql, 0);
    rl_buf_put_str(&sql, "INSERT INTO ducklake_snapshot VALUES ");
    for (int i = 3; i < 2000; i++)
        rl_buf_printf(&sql, "%s(%d, '2024-02-01 00:00:00+00', %d, %d, 0)", i > 3 ? "," : "", i,
                      i, i + 1);
    rl_buf_put_u8(&sql, 0);
    CHECK(q((const char *)sql.data)[0] != 'E');
    rl_buf_free(&sql);
    CHECK_EQ_STR(q("SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM "
                   "\"public\".ducklake_snapshot WHERE snapshot_id = ( SELECT MAX(snapshot_id) "
                   "FROM \"public\".ducklake_snapshot )"),
                 "snapshot_id|schema_version|next_catalog_id|next_file_id\n1999|1999|2000|0");
    /* keys read: the MAX via the counter fast path + one point read */
    const char *plan = q("EXPLAIN ANALYZE SELECT snapshot_id, schema_version, next_catalog_id, "
                         "next_file_id FROM \"public\".ducklake_snapshot WHERE snapshot_id = "
                         "(SELECT MAX(snapshot_id) FROM \"public\".ducklake_snapshot)");
    const char *k = strstr(plan, "Keys read: ");
    CHECK(k != NULL);
    if (k) {
        unsigned long keys = strtoul(k + 11, NULL, 10);
        if (keys > 4)
            fprintf(stderr, "  plan: %s\n", plan);
        CHECK(keys <= 4);
    }
    CHECK_EQ_STR(q("SELECT COUNT(*), MAX(snapshot_id), MIN(snapshot_id) FROM ducklake_snapshot"),
                 "count|max|min\n2000|1999|0");
    CHECK_EQ_STR(q("SELECT \"snapshot_id\" FROM (SELECT snapshot_id FROM ducklake_snapshot "
                   "WHERE snapshot_id = (SELECT MAX(snapshot_id) FROM ducklake_snapshot)) AS "
                   "__unnamed_subquery"),
                 "snapshot_id\n1999");
}

/* Every heap order of the descriptor table can be followed: its column is
 * an integer-valued one, last-write orders have MVCC columns, and tables
 * keyed by a row sequence keep key order (a held row has no seq). */
static void test_heap_order_descriptors(void)
{
    for (size_t i = 0; i < rl_ntables; i++) {
        const rl_table_desc *d = &rl_tables[i];
        if (d->heap_order == RL_HEAP_KEY)
            continue;
        CHECK(!rl_desc_has_seq(d));
        if (d->heap_order == RL_HEAP_LAST_WRITE)
            CHECK(d->begin_col >= 0 && d->end_col >= 0);
        else
            CHECK(d->heap_col >= 0);
        if (d->heap_col >= 0) {
            CHECK(d->heap_col < d->ncols_max);
            rl_type t = d->cols[d->heap_col].type;
            CHECK(t == RL_T_INT8 || t == RL_T_TIMESTAMPTZ);
        }
    }
}

/* DuckLake-like history: two tables' columns, a rename (the old version
 * closed by an UPDATE, PostgreSQL moves it to the end of the heap, then the
 * new version), an added column; and file stats of two tables written in
 * turns. Whole-table reads come in PostgreSQL's heap order (answers from
 * PostgreSQL 15). Two documented deviations are pinned too: a key-prefix
 * scan and a statement naming ctid read in key order (PostgreSQL 15: "b, a,
 * a2" for table 1, and ctids (0,2)..(0,6) in heap order). */
static void test_full_scans_in_heap_order(void)
{
    static const char *sql[] = {
        "CREATE TABLE \"public\".\"ducklake_column\"(\"column_id\" BIGINT, \"begin_snapshot\" "
        "BIGINT, \"end_snapshot\" BIGINT, \"table_id\" BIGINT, \"column_order\" BIGINT, "
        "\"column_name\" VARCHAR, \"column_type\" VARCHAR, \"initial_default\" VARCHAR, "
        "\"default_value\" VARCHAR, \"nulls_allowed\" BOOLEAN, \"parent_column\" BIGINT, "
        "\"default_value_type\" VARCHAR, \"default_value_dialect\" VARCHAR);",
        "CREATE TABLE \"public\".\"ducklake_file_column_stats\"(\"data_file_id\" BIGINT, "
        "\"table_id\" BIGINT, \"column_id\" BIGINT, \"column_size_bytes\" BIGINT, "
        "\"value_count\" BIGINT, \"null_count\" BIGINT, \"min_value\" VARCHAR, \"max_value\" "
        "VARCHAR, \"contains_nan\" BOOLEAN, \"extra_stats\" VARCHAR);",
        "INSERT INTO ducklake_column VALUES (1, 1, NULL, 1, 1, 'a', 'int32', NULL, NULL, true, "
        "NULL, NULL, NULL), (2, 1, NULL, 1, 2, 'b', 'int32', NULL, NULL, true, NULL, NULL, NULL);",
        "INSERT INTO ducklake_column VALUES (1, 2, NULL, 2, 1, 'c', 'varchar', NULL, NULL, true, "
        "NULL, NULL, NULL);",
        "UPDATE ducklake_column SET end_snapshot = 3 WHERE table_id = 1 AND column_id = 1 AND "
        "end_snapshot IS NULL; INSERT INTO ducklake_column VALUES (1, 3, NULL, 1, 1, 'a2', "
        "'int32', NULL, NULL, true, NULL, NULL, NULL);",
        "INSERT INTO ducklake_column VALUES (2, 4, NULL, 2, 2, 'd', 'int64', NULL, NULL, true, "
        "NULL, NULL, NULL);",
        "INSERT INTO ducklake_file_column_stats VALUES (5, 2, 1, 10, 1, 0, '1', '1', NULL, NULL);",
        "INSERT INTO ducklake_file_column_stats VALUES (6, 1, 1, 10, 1, 0, '1', '1', NULL, NULL), "
        "(6, 1, 2, 10, 1, 0, '2', '2', NULL, NULL);",
        "INSERT INTO ducklake_file_column_stats VALUES (7, 2, 1, 10, 1, 0, '3', '3', NULL, NULL);",
    };
    for (size_t i = 0; i < sizeof sql / sizeof sql[0]; i++)
        CHECK(q(sql[i])[0] != 'E');
    const char *heap = "table_id|column_id|column_name|end_snapshot\n"
                       "1|2|b|NULL\n2|1|c|NULL\n1|1|a|3\n1|1|a2|NULL\n2|2|d|NULL";
    CHECK_EQ_STR(q("SELECT table_id, column_id, column_name, end_snapshot FROM ducklake_column"),
                 heap);
    /* the streamed path (COPY of plain columns), with a filter on no key prefix */
    CHECK_EQ_STR(q("COPY (SELECT \"table_id\", \"column_id\", \"column_name\" FROM "
                   "\"public\".\"ducklake_column\" WHERE \"begin_snapshot\" <= '4') TO STDOUT"),
                 "1\t2\tb\n2\t1\tc\n1\t1\ta\n1\t1\ta2\n2\t2\td\n");
    CHECK_EQ_STR(q("SELECT column_name FROM ducklake_column WHERE column_id = 1"),
                 "column_name\nc\na\na2");
    CHECK_EQ_STR(q("SELECT data_file_id, table_id, column_id FROM ducklake_file_column_stats"),
                 "data_file_id|table_id|column_id\n5|2|1\n6|1|1\n6|1|2\n7|2|1");
    CHECK_EQ_STR(q("COPY (SELECT \"data_file_id\" FROM \"public\".\"ducklake_file_column_stats\") "
                   "TO STDOUT"),
                 "5\n6\n6\n7\n");
    const char *plan = q("EXPLAIN SELECT column_name FROM ducklake_column");
    CHECK(strstr(plan, "Full Scan on ducklake_column (tag 0x06, in heap order)") != NULL);
    /* a key prefix: key order, streamed as it is read (a deviation) */
    CHECK_EQ_STR(q("SELECT column_name FROM ducklake_column WHERE table_id = 1"),
                 "column_name\na\na2\nb");
    CHECK_EQ_STR(q("COPY (SELECT \"column_name\" FROM \"public\".\"ducklake_column\" WHERE "
                   "\"table_id\" = '1') TO STDOUT"),
                 "a\na2\nb\n");
    /* a statement naming ctid: key order, the order its ctids are numbered in
     * (a deviation) */
    CHECK_EQ_STR(q("SELECT column_name, ctid FROM ducklake_column"),
                 "column_name|ctid\na|(0,1)\na2|(0,2)\nb|(0,3)\nc|(0,4)\nd|(0,5)");
    /* past the limit on held rows, a streamed scan goes out in key order */
    size_t limit = eng->heap_order_limit;
    eng->heap_order_limit = 1;
    CHECK_EQ_STR(q("COPY (SELECT \"column_name\" FROM \"public\".\"ducklake_column\") TO STDOUT"),
                 "a\na2\nb\nc\nd\n");
    eng->heap_order_limit = limit;
    CHECK_EQ_STR(q("COPY (SELECT \"column_name\" FROM \"public\".\"ducklake_column\") TO STDOUT"),
                 "b\nc\na\na2\nd\n");
}

/* Column name of table t's column c in test_heap_order_in_chunks: long, so
 * that the COPY output spans several chunks. */
static void long_name(char *out, size_t n, int t, int c)
{
    snprintf(out, n, "t%d_c%d_%s", t, c,
             "padding-padding-padding-padding-padding-padding-padding-padding-padding");
}

/* "table_id\tcolumn_id\tcolumn_name\n" of tables [lo, hi] (each with
 * columns 1..5), tables in ascending or descending order. */
static void expect_lines(rl_buf *b, int lo, int hi, bool descending)
{
    rl_buf_reset(b);
    for (int i = 0; i <= hi - lo; i++) {
        int t = descending ? hi - i : lo + i;
        for (int c = 1; c <= 5; c++) {
            char name[160];
            long_name(name, sizeof name, t, c);
            rl_buf_printf(b, "%d\t%d\t%s\n", t, c, name);
        }
    }
}

/* Tables created in descending id order (each at the next snapshot): heap
 * order is the reverse of key order, and the COPY output (about 300 KB)
 * spans several chunks, so the spool gathers rows across chunks. A streamed
 * scan past the spool's limit goes out in key order, in whole rows. */
static void test_heap_order_in_chunks(void)
{
    const int lo = 2000, hi = 2599;
    rl_buf sql, want;
    rl_buf_init(&sql, 0);
    rl_buf_init(&want, 0);
    for (int t = hi, snap = 100; t >= lo; snap++) {
        rl_buf_reset(&sql);
        rl_buf_put_str(&sql, "INSERT INTO ducklake_column VALUES ");
        for (int k = 0; k < 100 && t >= lo; k++, t--, snap++)
            for (int c = 1; c <= 5; c++) {
                char name[160];
                long_name(name, sizeof name, t, c);
                rl_buf_printf(&sql, "%s(%d, %d, NULL, %d, %d, '%s', 'int32', NULL, NULL, true, "
                              "NULL, NULL, NULL)", k || c > 1 ? ", " : "", c, snap, t, c, name);
            }
        rl_buf_put_u8(&sql, 0);
        CHECK(q((const char *)sql.data)[0] != 'E');
    }
    const char *copy = "COPY (SELECT \"table_id\", \"column_id\", \"column_name\" FROM "
                       "\"public\".\"ducklake_column\" WHERE \"table_id\" >= 2000) TO STDOUT";
    q(copy);
    expect_lines(&want, lo, hi, true);
    CHECK_EQ_INT(rec.out.len, want.len);
    CHECK(rec.out.len == want.len && memcmp(rec.out.data, want.data, want.len) == 0);
    CHECK(rec.copy_chunks > 2);
    /* the row-set path agrees */
    q("SELECT table_id, column_id FROM ducklake_column WHERE table_id >= 2000");
    rl_buf_reset(&want);
    rl_buf_put_str(&want, "table_id|column_id");
    for (int t = hi; t >= lo; t--)
        for (int c = 1; c <= 5; c++)
            rl_buf_printf(&want, "\n%d|%d", t, c);
    CHECK(rec.out.len == want.len && memcmp(rec.out.data, want.data, want.len) == 0);
    /* past the limit: key order, still whole rows */
    size_t limit = eng->heap_order_limit;
    eng->heap_order_limit = 100 * 1024;
    q(copy);
    eng->heap_order_limit = limit;
    expect_lines(&want, lo, hi, false);
    CHECK(rec.out.len == want.len && memcmp(rec.out.data, want.data, want.len) == 0);
    rl_buf_free(&sql);
    rl_buf_free(&want);
}

int main(void)
{
    setup();
    RUN(test_against_postgres);
    RUN(test_row_description);
    RUN(test_error_positions);
    RUN(test_casts);
    RUN(test_encode_decode_round_trip);
    RUN(test_recursion_without_end_is_refused);
    RUN(test_deep_json_array_walk_is_refused);
    RUN(test_latest_snapshot_is_cheap);
    RUN(test_heap_order_descriptors);
    RUN(test_full_scans_in_heap_order);
    RUN(test_heap_order_in_chunks);
    teardown();
    return tu_finish();
}
