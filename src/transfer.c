/*
 * transfer.c — `rocklake import` and `rocklake export`: a DuckLake catalog
 * moved between a PostgreSQL database (libpq) and a RockLake lake (this
 * process's own SQL engine, sql.h, on the lake's catalog).
 *
 * Owns: discovering the catalog's tables (every ducklake_* relation of the
 * metadata schema, the dynamic inlined-data tables included) with their
 * columns from pg_attribute, the CREATE TABLE statements DuckDB's ducklake
 * extension would send, streaming rows as COPY text between the two sides,
 * progress, interruption, and the verification at the end.
 *
 * Invariants:
 *  - the PostgreSQL side of an import is read in ONE REPEATABLE READ READ
 *    ONLY transaction, and the lake side of an export in one RockLake
 *    transaction, so each copies one consistent catalog;
 *  - an import writes the copy-incomplete marker durably before its
 *    first row and removes it only after every table's row count equals the
 *    source's and rl_check_copy reported nothing: a lake without the
 *    marker is complete; an error, interrupt or kill leaves the marker;
 *  - an import commits at most RL_TRANSFER_CHUNK_ROWS rows at a time, so
 *    memory stays bounded by a chunk, not by the catalog;
 *  - an export writes in one PostgreSQL transaction and commits only after
 *    the counts match: a target is either untouched or complete;
 *  - Parquet files are never touched: data_path rows are copied verbatim.
 */
#include "transfer.h"

#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "buf.h"
#include "catalog.h"
#include "check.h"
#include "desc.h"
#include "sql.h"

static volatile sig_atomic_t interrupted;

void rl_transfer_interrupt(void) { interrupted = 1; }

/* ------------------------------------------------------------ results */

/* A result set as text: cells[row * ncols + col], NULL for SQL NULL. */
typedef struct trows {
    size_t ncols, nrows, cap;
    char **cells;
    bool oom;
} trows;

static void trows_free(trows *r)
{
    for (size_t i = 0; i < r->nrows * r->ncols; i++)
        free(r->cells[i]);
    free(r->cells);
    memset(r, 0, sizeof *r);
}

static const char *cell(const trows *r, size_t row, size_t col)
{
    return r->cells[row * r->ncols + col];
}

/* Append one row of ncols cells (copied; NULL stays NULL). */
static void trows_add(trows *r, const char *const *vals, const size_t *lens)
{
    size_t need = (r->nrows + 1) * r->ncols;
    if (need > r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        while (cap < need)
            cap *= 2;
        char **grown = realloc(r->cells, cap * sizeof *grown);
        if (!grown) {
            r->oom = true;
            return;
        }
        r->cells = grown;
        r->cap = cap;
    }
    for (size_t c = 0; c < r->ncols; c++) {
        char *v = NULL;
        if (vals[c] && (v = malloc(lens[c] + 1))) {
            memcpy(v, vals[c], lens[c]);
            v[lens[c]] = 0;
        } else if (vals[c]) {
            r->oom = true;
        }
        r->cells[r->nrows * r->ncols + c] = v;
    }
    r->nrows++;
}

/* --------------------------------------------------------- PostgreSQL */

static int pg_fail(rl_error *err, PGconn *pg, const PGresult *res, const char *what)
{
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    const char *msg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    if (!msg || !*msg)
        msg = PQerrorMessage(pg);
    rl_error_set(err, state && strlen(state) == 5 ? state : "08006", "%s: %s", what, msg);
    size_t n = strlen(err->message);
    while (n && err->message[n - 1] == '\n')
        err->message[--n] = 0;
    const char *hint = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_HINT) : NULL;
    if (hint)
        rl_error_hint(err, "%s", hint);
    return -1;
}

/* Run a command that returns no rows (want PGRES_COMMAND_OK). */
static int pg_exec(PGconn *pg, const char *sql, rl_error *err)
{
    PGresult *res = PQexec(pg, sql);
    int rc = 0;
    if (PQresultStatus(res) != PGRES_COMMAND_OK)
        rc = pg_fail(err, pg, res, "PostgreSQL");
    PQclear(res);
    return rc;
}

static int pg_rows(PGconn *pg, const char *sql, trows *out, rl_error *err)
{
    memset(out, 0, sizeof *out);
    PGresult *res = PQexec(pg, sql);
    if (PQresultStatus(res) != PGRES_TUPLES_OK) {
        pg_fail(err, pg, res, "PostgreSQL");
        PQclear(res);
        return -1;
    }
    out->ncols = (size_t)PQnfields(res);
    if (out->ncols > 16) {
        PQclear(res);
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "a result with more than 16 columns");
    }
    const char *vals[16];
    size_t lens[16];
    for (int r = 0; r < PQntuples(res); r++) {
        for (size_t c = 0; c < out->ncols; c++) {
            vals[c] = PQgetisnull(res, r, (int)c) ? NULL : PQgetvalue(res, r, (int)c);
            lens[c] = (size_t)PQgetlength(res, r, (int)c);
        }
        trows_add(out, vals, lens);
    }
    PQclear(res);
    if (out->oom)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
    return 0;
}

static PGconn *pg_connect(const char *conninfo, const char *what, rl_error *err)
{
    PGconn *pg = PQconnectdb(conninfo);
    if (!pg) {
        rl_error_set(err, "08006", "out of memory connecting to the %s", what);
        return NULL;
    }
    if (PQstatus(pg) != CONNECTION_OK) {
        rl_error_set(err, "08006", "cannot connect to the %s: %s", what, PQerrorMessage(pg));
        size_t n = strlen(err->message);
        while (n && err->message[n - 1] == '\n')
            err->message[--n] = 0;
        rl_error_hint(err, "give a libpq conninfo string (\"host=... dbname=...\") or a "
                           "postgres:// URI that psql accepts");
        PQfinish(pg);
        return NULL;
    }
    return pg;
}

/* Text output the RockLake side reads back exactly. */
static int pg_session_setup(PGconn *pg, rl_error *err)
{
    static const char *const sets[] = {
        "SET TimeZone = 'UTC'", "SET DateStyle = 'ISO, YMD'", "SET IntervalStyle = 'postgres'",
        "SET extra_float_digits = 3", "SET bytea_output = 'hex'",
        "SET client_encoding = 'UTF8'"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        if (pg_exec(pg, sets[i], err) < 0)
            return -1;
    return 0;
}

/* ------------------------------------------------------ RockLake side */

typedef struct rows_sink {
    trows *rows;
    rl_buf text[16];
} rows_sink;

static int rows_desc(void *ctx, size_t ncols, const rl_col_info *cols)
{
    rows_sink *rs = ctx;
    rs->rows->ncols = ncols;
    return ncols <= 16 ? 0 : -1;
}

static int rows_data(void *ctx, size_t ncols, const rl_value *vals)
{
    rows_sink *rs = ctx;
    const char *p[16];
    size_t l[16];
    for (size_t c = 0; c < ncols && c < 16; c++) {
        rl_buf_reset(&rs->text[c]);
        rl_value_to_text(&rs->text[c], &vals[c]);
        rl_buf_put(&rs->text[c], "", 1);
        p[c] = vals[c].d.isnull ? NULL : (const char *)rs->text[c].data;
        l[c] = rs->text[c].len - 1;
    }
    trows_add(rs->rows, p, l);
    return rs->rows->oom ? -1 : 0;
}

/* Run one statement on the lake's session and collect its rows. */
static int lake_rows(rl_session *s, const char *sql, trows *out, rl_error *err)
{
    memset(out, 0, sizeof *out);
    rows_sink rs = {.rows = out};
    for (int i = 0; i < 16; i++)
        rl_buf_init(&rs.text[i], 0);
    rl_sink k = {.ctx = &rs, .row_description = rows_desc, .data_row = rows_data};
    rl_exec_status st = rl_session_simple_query(s, sql, &k, err);
    for (int i = 0; i < 16; i++)
        rl_buf_free(&rs.text[i]);
    if (st == RL_EXEC_DONE && !out->oom)
        return 0;
    if (st != RL_EXEC_ERROR)
        rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory reading the lake");
    trows_free(out);
    return -1;
}

static int lake_exec(rl_session *s, const char *sql, rl_error *err)
{
    trows r;
    if (lake_rows(s, sql, &r, err) < 0)
        return -1;
    trows_free(&r);
    return 0;
}

/* ------------------------------------------------------------- tables */

typedef struct tcol {
    char name[64];
    char type[64]; /* SQL type as in CREATE TABLE */
    bool notnull;
} tcol;

typedef struct ttable {
    char name[64];
    tcol *cols;
    size_t ncols, cap;
    int64_t rows; /* on the side being read */
} ttable;

typedef struct tlist {
    ttable *t;
    size_t n, cap;
    int64_t total_rows;
} tlist;

static void tlist_free(tlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->t[i].cols);
    free(l->t);
    memset(l, 0, sizeof *l);
}

/* The SQL type of a pg_attribute column as DuckDB writes it in CREATE
 * TABLE, false for a type a DuckLake catalog never has. */
static bool sql_type(const char *typname, long typmod, char *out, size_t n)
{
    static const char *const map[][2] = {
        {"int8", "BIGINT"},       {"int4", "INTEGER"},
        {"int2", "SMALLINT"},     {"bool", "BOOLEAN"},
        {"varchar", "VARCHAR"},   {"text", "VARCHAR"},
        {"uuid", "UUID"},         {"timestamptz", "TIMESTAMP WITH TIME ZONE"},
        {"timestamp", "TIMESTAMP"}, {"date", "DATE"},
        {"time", "TIME"},         {"timetz", "TIME WITH TIME ZONE"},
        {"interval", "INTERVAL"}, {"float4", "REAL"},
        {"float8", "DOUBLE PRECISION"}, {"bytea", "BYTEA"}};
    if (strcmp(typname, "numeric") == 0) {
        if (typmod >= 4)
            snprintf(out, n, "NUMERIC(%ld,%ld)", (typmod - 4) >> 16, (typmod - 4) & 0xffff);
        else
            snprintf(out, n, "NUMERIC");
        return true;
    }
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(typname, map[i][0]) == 0) {
            if (strcmp(typname, "varchar") == 0 && typmod > 4)
                snprintf(out, n, "VARCHAR(%ld)", typmod - 4);
            else
                snprintf(out, n, "%s", map[i][1]);
            return true;
        }
    return false;
}

static ttable *tlist_table(tlist *l, const char *name)
{
    if (l->n && strcmp(l->t[l->n - 1].name, name) == 0)
        return &l->t[l->n - 1];
    ttable *grown = rl_array_reserve(l->t, l->n, &l->cap, sizeof *grown, 32);
    if (!grown)
        return NULL;
    l->t = grown;
    ttable *t = &l->t[l->n++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    return t;
}

/* Rows (relname, attname, typname, atttypmod, attnotnull) ordered by
 * relname, attnum -> the ducklake_* tables. */
static int tlist_build(const trows *r, tlist *l, rl_error *err)
{
    memset(l, 0, sizeof *l);
    for (size_t i = 0; i < r->nrows; i++) {
        const char *rel = cell(r, i, 0), *att = cell(r, i, 1), *typ = cell(r, i, 2);
        if (!rel || !att || !typ || strncmp(rel, "ducklake_", 9) != 0)
            continue;
        if (strlen(rel) >= 64 || strlen(att) >= 64)
            return rl_error_set(err, RL_SQLSTATE_PROGRAM_LIMIT, "name too long: %s.%s", rel, att);
        ttable *t = tlist_table(l, rel);
        tcol *grown = t ? rl_array_reserve(t->cols, t->ncols, &t->cap, sizeof *grown, 16) : NULL;
        if (!grown)
            return rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
        t->cols = grown;
        tcol *c = &t->cols[t->ncols++];
        snprintf(c->name, sizeof c->name, "%s", att);
        long typmod = cell(r, i, 3) ? strtol(cell(r, i, 3), NULL, 10) : -1;
        if (!sql_type(typ, typmod, c->type, sizeof c->type))
            return rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                                "column %s.%s has type %s, which a DuckLake catalog does not use",
                                rel, att, typ);
        c->notnull = cell(r, i, 4) && cell(r, i, 4)[0] == 't';
    }
    return 0;
}

/* The fixed tables first (DuckLake creates them at once), then the dynamic
 * ones, each group by name. */
static int table_cmp(const void *a, const void *b)
{
    const ttable *x = a, *y = b;
    bool dx = !rl_desc_by_name(x->name, RL_FMT_LATEST), dy = !rl_desc_by_name(y->name, RL_FMT_LATEST);
    if (dx != dy)
        return dx ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* "relname, attname, typname, atttypmod, attnotnull" of schema `schema`. */
static void columns_sql(rl_buf *q, const char *schema, bool pg_source)
{
    rl_buf_printf(q,
                  "SELECT c.relname, a.attname, t.typname, a.atttypmod, a.attnotnull "
                  "FROM pg_class c JOIN pg_namespace n ON c.relnamespace = n.oid "
                  "JOIN pg_attribute a ON c.oid = a.attrelid JOIN pg_type t ON a.atttypid = t.oid "
                  "WHERE a.attnum > 0 AND c.relkind = 'r' AND n.nspname = '%s'%s "
                  "ORDER BY c.relname, a.attnum",
                  schema, pg_source ? " AND NOT a.attisdropped" : "");
    rl_buf_put(q, "", 1);
}

static void quote_ident(rl_buf *b, const char *s)
{
    rl_buf_put(b, "\"", 1);
    for (; *s; s++) {
        rl_buf_put(b, s, 1);
        if (*s == '"') /* doubled inside a quoted identifier */
            rl_buf_put(b, s, 1);
    }
    rl_buf_put(b, "\"", 1);
}

/* CREATE TABLE "schema"."t"("c" TYPE [PRIMARY KEY] [NOT NULL], ...); as
 * DuckDB's postgres extension writes it. */
static void create_sql(rl_buf *q, const char *schema, const ttable *t)
{
    const rl_table_desc *d = rl_desc_by_name(t->name, RL_FMT_LATEST);
    const char *pk = d && d->pk_col >= 0 ? d->cols[d->pk_col].name : NULL;
    rl_buf_put_str(q, "CREATE TABLE ");
    quote_ident(q, schema);
    rl_buf_put(q, ".", 1);
    quote_ident(q, t->name);
    rl_buf_put(q, "(", 1);
    for (size_t i = 0; i < t->ncols; i++) {
        if (i)
            rl_buf_put(q, ", ", 2);
        quote_ident(q, t->cols[i].name);
        rl_buf_printf(q, " %s", t->cols[i].type);
        if (pk && strcmp(pk, t->cols[i].name) == 0)
            rl_buf_put_str(q, " PRIMARY KEY");
        else if (t->cols[i].notnull)
            rl_buf_put_str(q, " NOT NULL");
    }
    rl_buf_put_str(q, ");\n");
}

static void column_list(rl_buf *q, const ttable *t)
{
    for (size_t i = 0; i < t->ncols; i++) {
        if (i)
            rl_buf_put(q, ", ", 2);
        quote_ident(q, t->cols[i].name);
    }
}

static void qualified(rl_buf *q, const char *schema, const char *table)
{
    quote_ident(q, schema);
    rl_buf_put(q, ".", 1);
    quote_ident(q, table);
}

static bool ident_ok(const char *s)
{
    if (!*s || strlen(s) > 63)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

/* ----------------------------------------------------------- progress */

typedef struct progress {
    bool on;
    const char *verb;
    size_t tables_done, tables;
    int64_t rows, total;
    double t0, last;
} progress;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_show(progress *p, bool force)
{
    if (!p->on)
        return;
    double t = now_s();
    if (!force && t - p->last < 0.2)
        return;
    p->last = t;
    double el = t - p->t0, rate = el > 0 ? (double)p->rows / el : 0;
    char eta[32] = "-";
    if (rate > 0 && el >= 1 && p->total >= p->rows)
        snprintf(eta, sizeof eta, "%.0f s", (double)(p->total - p->rows) / rate);
    fprintf(stderr, "\r%s: tables %zu/%zu, rows %" PRId64 "/%" PRId64 ", %.0f rows/s, ETA %s\033[K",
            p->verb, p->tables_done, p->tables, p->rows, p->total, rate, eta);
}

static void progress_end(progress *p)
{
    if (p->on) {
        progress_show(p, true);
        fputc('\n', stderr);
    }
}

/* ROCKLAKE_TRANSFER_STOP_AFTER_CHUNKS=k (tests): after the k-th commit of
 * rows (import) or the k-th table (export), interrupt as Ctrl-C does;
 * "k:kill" kills the process instead. */
static void test_hook(int chunks)
{
    const char *v = getenv("ROCKLAKE_TRANSFER_STOP_AFTER_CHUNKS");
    if (!v || atoi(v) != chunks)
        return;
    if (strstr(v, ":kill"))
        raise(SIGKILL);
    rl_transfer_interrupt();
}

/* -------------------------------------------------------------- import */

typedef struct importer {
    PGconn *pg;
    const char *schema;
    rl_catalog *cat;
    rl_engine *eng;
    rl_session *s;
    tlist tables;
    progress prog;
    int chunks;
    bool copying; /* a COPY FROM STDIN is open on the lake's session */
} importer;

static int source_discover(importer *im, rl_format *fmt, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    columns_sql(&q, im->schema, true);
    trows r;
    int rc = pg_rows(im->pg, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    if (rc < 0)
        return -1;
    rc = tlist_build(&r, &im->tables, err);
    trows_free(&r);
    if (rc < 0)
        return -1;
    bool meta = false;
    for (size_t i = 0; i < im->tables.n; i++)
        meta |= strcmp(im->tables.t[i].name, "ducklake_metadata") == 0;
    if (!meta) {
        rl_error_set(err, RL_SQLSTATE_UNDEFINED_TABLE,
                     "the source has no DuckLake catalog in schema \"%s\" (no ducklake_metadata)",
                     im->schema);
        rl_error_hint(err, "name the schema DuckLake's METADATA_SCHEMA used with --schema");
        return -1;
    }
    qsort(im->tables.t, im->tables.n, sizeof *im->tables.t, table_cmp);
    rl_buf_init(&q, 0);
    rl_buf_printf(&q, "SELECT value FROM \"%s\".ducklake_metadata WHERE key = 'version' AND scope IS NULL",
                  im->schema);
    rl_buf_put(&q, "", 1);
    rc = pg_rows(im->pg, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    if (rc < 0)
        return -1;
    const char *ver = r.nrows && cell(&r, 0, 0) ? cell(&r, 0, 0) : "?";
    *fmt = rl_format_parse(ver);
    if (!*fmt)
        rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                     "the source catalog has DuckLake format \"%s\"; RockLake serves 1.0 and 1.1",
                     ver);
    trows_free(&r);
    return *fmt ? 0 : -1;
}

static int count_rows(PGconn *pg, rl_session *s, const char *schema, ttable *t, int64_t *out,
                      rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "SELECT count(*) FROM ");
    qualified(&q, schema, t->name);
    rl_buf_put(&q, "", 1);
    trows r;
    int rc = pg ? pg_rows(pg, (const char *)q.data, &r, err) : lake_rows(s, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    if (rc < 0)
        return -1;
    *out = r.nrows && cell(&r, 0, 0) ? strtoll(cell(&r, 0, 0), NULL, 10) : -1;
    trows_free(&r);
    return 0;
}

static int source_count(importer *im, rl_error *err)
{
    for (size_t i = 0; i < im->tables.n; i++) {
        if (count_rows(im->pg, NULL, im->schema, &im->tables.t[i], &im->tables.t[i].rows, err) < 0)
            return -1;
        im->tables.total_rows += im->tables.t[i].rows;
    }
    return 0;
}

static int lake_create_tables(importer *im, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    for (size_t i = 0; i < im->tables.n; i++)
        create_sql(&q, "public", &im->tables.t[i]);
    rl_buf_put(&q, "", 1);
    int rc = q.failed ? rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory")
                      : lake_exec(im->s, (const char *)q.data, err);
    rl_buf_free(&q);
    return rc;
}

static int lake_copy_begin(importer *im, const ttable *t, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "COPY ");
    qualified(&q, "public", t->name);
    rl_buf_put(&q, " (", 2);
    column_list(&q, t);
    rl_buf_put_str(&q, ") FROM STDIN");
    rl_buf_put(&q, "", 1);
    rl_sink k = {0};
    rl_exec_status st = rl_session_simple_query(im->s, (const char *)q.data, &k, err);
    rl_buf_free(&q);
    if (st != RL_EXEC_COPY_IN)
        return st == RL_EXEC_ERROR ? -1
                                   : rl_error_set(err, RL_SQLSTATE_INTERNAL, "COPY did not start");
    im->copying = true;
    return 0;
}

/* End the open COPY: its rows commit as one transaction. */
static int lake_copy_end(importer *im, rl_error *err)
{
    im->copying = false;
    rl_sink k = {0};
    if (rl_session_copy_done(im->s, &k, err) != RL_EXEC_DONE)
        return -1;
    test_hook(++im->chunks);
    return 0;
}

static void lake_copy_abort(importer *im)
{
    if (!im->copying)
        return;
    im->copying = false;
    rl_error e;
    rl_sink k = {0};
    rl_session_copy_fail(im->s, "import stopped", &k, &e);
}

/* Stream one table: the source's COPY TO STDOUT into COPYs of at most
 * RL_TRANSFER_CHUNK_ROWS rows each. 1 when interrupted. */
static int import_table(importer *im, const ttable *t, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "COPY (SELECT ");
    column_list(&q, t);
    rl_buf_put_str(&q, " FROM ");
    qualified(&q, im->schema, t->name);
    rl_buf_put_str(&q, ") TO STDOUT");
    rl_buf_put(&q, "", 1);
    PGresult *res = PQexec(im->pg, (const char *)q.data);
    rl_buf_free(&q);
    if (PQresultStatus(res) != PGRES_COPY_OUT) {
        pg_fail(err, im->pg, res, "reading the source");
        PQclear(res);
        return -1;
    }
    PQclear(res);
    int64_t in_chunk = 0;
    int rc = 0;
    for (;;) {
        char *row = NULL;
        int n = PQgetCopyData(im->pg, &row, 0);
        if (n == -1)
            break;
        if (n < 0) {
            rc = pg_fail(err, im->pg, NULL, "reading the source");
            break;
        }
        if (interrupted) {
            PQfreemem(row);
            rc = 1;
            break;
        }
        if (!im->copying && lake_copy_begin(im, t, err) < 0) {
            PQfreemem(row);
            rc = -1;
            break;
        }
        int w = rl_session_copy_data(im->s, (const uint8_t *)row, (size_t)n, err);
        PQfreemem(row);
        if (w < 0) {
            rc = -1;
            break;
        }
        im->prog.rows++;
        if (++in_chunk == RL_TRANSFER_CHUNK_ROWS) {
            in_chunk = 0;
            if (lake_copy_end(im, err) < 0) {
                rc = -1;
                break;
            }
        }
        progress_show(&im->prog, false);
    }
    if (rc == 0 && im->copying && lake_copy_end(im, err) < 0)
        rc = -1;
    if (rc == 0 && interrupted)
        rc = 1;
    if (rc != 0)
        return rc; /* the connection is abandoned with its COPY */
    PGresult *done = PQgetResult(im->pg);
    if (PQresultStatus(done) != PGRES_COMMAND_OK)
        rc = pg_fail(err, im->pg, done, "reading the source");
    PQclear(done);
    while ((done = PQgetResult(im->pg)))
        PQclear(done);
    return rc;
}

static int import_verify(importer *im, FILE *report, rl_error *err)
{
    for (size_t i = 0; i < im->tables.n; i++) {
        ttable *t = &im->tables.t[i];
        int64_t have = -1;
        if (count_rows(NULL, im->s, "public", t, &have, err) < 0)
            return -1;
        if (have != t->rows)
            return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                                "table %s has %" PRId64 " rows in the lake, the source %" PRId64,
                                t->name, have, t->rows);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
    long problems = rl_check_copy(im->cat, mem, NULL, err);
    fclose(mem);
    if (problems > 0) {
        fputs(text, report);
        rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                     "rocklake check found %ld problem%s in the imported lake", problems,
                     problems == 1 ? "" : "s");
    }
    free(text);
    return problems == 0 ? 0 : -1;
}

/* "from postgres host=H port=P dbname=D schema=S, pid N, started T": the
 * marker's text (never the password). */
static void marker_text(const importer *im, char *out, size_t n)
{
    char when[32] = "?";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%SZ", &tm);
    snprintf(out, n, "import from postgres host=%s port=%s dbname=%s schema=%s, pid %ld, started %s",
             PQhost(im->pg) ? PQhost(im->pg) : "?", PQport(im->pg) ? PQport(im->pg) : "?",
             PQdb(im->pg) ? PQdb(im->pg) : "?", im->schema, (long)getpid(), when);
}

static int import_open_lake(importer *im, const char *lake_url, rl_format fmt, rl_error *err)
{
    char text[512];
    marker_text(im, text, sizeof text);
    /* the marker is in the batch that creates the catalog: no moment
     * exists at which the lake is there without it */
    rl_catalog_options o = {.create_if_missing = true, .format = fmt,
                            .allow_incomplete_copy = true, .create_copy_marker = text};
    if (!(im->cat = rl_catalog_open(lake_url, &o, err)))
        return -1;
    char have[8];
    int m = rl_catalog_copy_marker_get(im->cat, have, sizeof have, err);
    if (m <= 0) /* someone else created the catalog since the caller looked */
        return m < 0 ? -1
                     : rl_error_set(err, RL_SQLSTATE_OBJECT_STATE,
                                    "\"%s\" got a catalog while the import started", lake_url);
    rl_engine_options eo = {.database = "import"};
    if (!(im->eng = rl_engine_new(im->cat, &eo, err)))
        return -1;
    rl_session_info si = {.user = "rocklake", .application_name = "rocklake import"};
    if (!(im->s = rl_session_new(im->eng, &si)))
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
    return 0;
}

static int import_run(importer *im, const char *source, const char *lake_url, FILE *report,
                      rl_error *err)
{
    if (!(im->pg = pg_connect(source, "source PostgreSQL", err)) || pg_session_setup(im->pg, err) < 0 ||
        pg_exec(im->pg, "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", err) < 0)
        return -1;
    rl_format fmt;
    if (source_discover(im, &fmt, err) < 0 || source_count(im, err) < 0)
        return -1;
    if (interrupted)
        return 1;
    if (import_open_lake(im, lake_url, fmt, err) < 0 || lake_create_tables(im, err) < 0)
        return -1;
    im->prog.tables = im->tables.n;
    im->prog.total = im->tables.total_rows;
    im->prog.t0 = now_s(); /* the rate counts the copy only */
    for (size_t i = 0; i < im->tables.n; i++) {
        int rc = im->tables.t[i].rows ? import_table(im, &im->tables.t[i], err) : 0;
        if (rc < 0 && !err->detail[0])
            rl_error_detail(err, "while copying table %s", im->tables.t[i].name);
        if (rc != 0)
            return rc;
        im->prog.tables_done++;
        progress_show(&im->prog, false);
    }
    progress_end(&im->prog);
    im->prog.on = false;
    if (import_verify(im, report, err) < 0)
        return -1;
    pg_exec(im->pg, "COMMIT", err);
    if (interrupted)
        return 1;
    return rl_catalog_copy_marker_clear(im->cat, err) < 0 ? -1 : 0;
}

static void importer_free(importer *im)
{
    lake_copy_abort(im);
    rl_session_free(im->s);
    rl_engine_free(im->eng);
    if (im->cat) {
        rl_error e;
        rl_catalog_close(im->cat, &e);
    }
    PQfinish(im->pg);
    tlist_free(&im->tables);
}

rl_transfer_result rl_import_postgres(const char *source, const char *lake_url,
                                      const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    importer im = {.schema = o && o->schema ? o->schema : "public"};
    im.prog = (progress){.on = o && o->progress, .verb = "import", .t0 = now_s()};
    interrupted = 0;
    if (!ident_ok(im.schema)) {
        rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER, "--schema \"%s\" is not a plain name",
                     im.schema);
        return RL_TRANSFER_FAILED;
    }
    double t0 = now_s();
    int rc = import_run(&im, source, lake_url, report, err);
    if (im.prog.on && rc != 0)
        fputc('\n', stderr);
    if (rc == 0)
        fprintf(report, "imported %zu tables, %" PRId64 " rows into %s (DuckLake %s) in %.1f s; "
                        "check: ok\n",
                im.tables.n, im.tables.total_rows, lake_url,
                rl_format_name(rl_catalog_format(im.cat)), now_s() - t0);
    importer_free(&im);
    return rc == 0 ? RL_TRANSFER_DONE : rc > 0 ? RL_TRANSFER_INTERRUPTED : RL_TRANSFER_FAILED;
}

/* -------------------------------------------------------------- export */

typedef struct exporter {
    PGconn *pg;
    const char *schema;
    rl_catalog *cat;
    rl_engine *eng;
    rl_session *s;
    tlist tables;
    progress prog;
    rl_error copy_err;
    bool copy_failed;
    int chunks; /* tables copied (the test hook's count) */
} exporter;

static int export_open_lake(exporter *ex, const char *lake_url, rl_error *err)
{
    rl_catalog_options o = {.read_only = true};
    o.kv.reader_no_writes = 1;
    if (!(ex->cat = rl_catalog_open(lake_url, &o, err)))
        return -1;
    rl_engine_options eo = {.database = "export"};
    if (!(ex->eng = rl_engine_new(ex->cat, &eo, err)))
        return -1;
    rl_session_info si = {.user = "rocklake", .application_name = "rocklake export"};
    if (!(ex->s = rl_session_new(ex->eng, &si)))
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
    return lake_exec(ex->s, "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ", err);
}

static int export_discover(exporter *ex, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    columns_sql(&q, "public", false);
    trows r;
    int rc = lake_rows(ex->s, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    if (rc < 0)
        return -1;
    rc = tlist_build(&r, &ex->tables, err);
    trows_free(&r);
    if (rc < 0)
        return -1;
    if (ex->tables.n == 0)
        return rl_error_set(err, RL_SQLSTATE_UNDEFINED_TABLE,
                            "the lake has no DuckLake tables yet (attach it with DuckDB once)");
    qsort(ex->tables.t, ex->tables.n, sizeof *ex->tables.t, table_cmp);
    for (size_t i = 0; i < ex->tables.n; i++) {
        if (count_rows(NULL, ex->s, "public", &ex->tables.t[i], &ex->tables.t[i].rows, err) < 0)
            return -1;
        ex->tables.total_rows += ex->tables.t[i].rows;
    }
    return 0;
}

/* The target must not have a DuckLake catalog in the schema already. */
static int target_check_empty(exporter *ex, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_printf(&q,
                  "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON c.relnamespace = n.oid "
                  "WHERE n.nspname = '%s' AND left(c.relname, 9) = 'ducklake_' LIMIT 1",
                  ex->schema);
    rl_buf_put(&q, "", 1);
    trows r;
    int rc = pg_rows(ex->pg, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    if (rc < 0)
        return -1;
    if (r.nrows) {
        rl_error_set(err, RL_SQLSTATE_DUPLICATE_TABLE,
                     "the target already has a DuckLake catalog in schema \"%s\" (table %s)",
                     ex->schema, cell(&r, 0, 0));
        rl_error_hint(err, "export into a new database (CREATE DATABASE), or another schema with "
                           "--schema; nothing was written");
        rc = -1;
    }
    trows_free(&r);
    return rc;
}

static int target_create(exporter *ex, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    if (strcmp(ex->schema, "public") != 0) {
        rl_buf_put_str(&q, "CREATE SCHEMA IF NOT EXISTS ");
        quote_ident(&q, ex->schema);
        rl_buf_put_str(&q, ";\n");
    }
    for (size_t i = 0; i < ex->tables.n; i++)
        create_sql(&q, ex->schema, &ex->tables.t[i]);
    rl_buf_put(&q, "", 1);
    int rc = q.failed ? rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory")
                      : pg_exec(ex->pg, (const char *)q.data, err);
    rl_buf_free(&q);
    return rc;
}

/* Chunks of the lake's COPY TO STDOUT (whole text rows) go to the target. */
static int export_chunk(void *ctx, const uint8_t *data, size_t len)
{
    exporter *ex = ctx;
    if (interrupted)
        return -1;
    if (PQputCopyData(ex->pg, (const char *)data, (int)len) != 1) {
        ex->copy_failed = true;
        pg_fail(&ex->copy_err, ex->pg, NULL, "writing the target");
        return -1;
    }
    for (size_t i = 0; i < len; i++)
        ex->prog.rows += data[i] == '\n';
    progress_show(&ex->prog, false);
    return 0;
}

static int export_table(exporter *ex, const ttable *t, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "COPY ");
    qualified(&q, ex->schema, t->name);
    rl_buf_put(&q, " (", 2);
    column_list(&q, t);
    rl_buf_put_str(&q, ") FROM STDIN");
    rl_buf_put(&q, "", 1);
    PGresult *res = PQexec(ex->pg, (const char *)q.data);
    rl_buf_reset(&q);
    if (PQresultStatus(res) != PGRES_COPY_IN) {
        pg_fail(err, ex->pg, res, "writing the target");
        PQclear(res);
        rl_buf_free(&q);
        return -1;
    }
    PQclear(res);
    rl_buf_put_str(&q, "COPY (SELECT ");
    column_list(&q, t);
    rl_buf_put_str(&q, " FROM ");
    qualified(&q, "public", t->name);
    rl_buf_put_str(&q, ") TO STDOUT");
    rl_buf_put(&q, "", 1);
    rl_sink k = {.ctx = ex, .copy_out_data = export_chunk};
    rl_exec_status st = rl_session_simple_query(ex->s, (const char *)q.data, &k, err);
    rl_buf_free(&q);
    int rc = 0;
    if (interrupted) {
        rc = 1;
    } else if (ex->copy_failed) {
        *err = ex->copy_err;
        rc = -1;
    } else if (st != RL_EXEC_DONE) {
        rc = -1;
    }
    if (PQputCopyEnd(ex->pg, rc == 0 ? NULL : "export stopped") != 1 && rc == 0)
        rc = pg_fail(err, ex->pg, NULL, "writing the target");
    while ((res = PQgetResult(ex->pg))) {
        if (rc == 0 && PQresultStatus(res) != PGRES_COMMAND_OK)
            rc = pg_fail(err, ex->pg, res, "writing the target");
        PQclear(res);
    }
    return rc;
}

static int export_verify(exporter *ex, rl_error *err)
{
    for (size_t i = 0; i < ex->tables.n; i++) {
        ttable *t = &ex->tables.t[i];
        int64_t have = -1;
        if (count_rows(ex->pg, NULL, ex->schema, t, &have, err) < 0)
            return -1;
        if (have != t->rows)
            return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                                "table %s has %" PRId64 " rows in the target, the lake %" PRId64,
                                t->name, have, t->rows);
    }
    return 0;
}

static int export_run(exporter *ex, const char *lake_url, const char *target, rl_error *err)
{
    if (export_open_lake(ex, lake_url, err) < 0 || export_discover(ex, err) < 0)
        return -1;
    if (!(ex->pg = pg_connect(target, "target PostgreSQL", err)) ||
        pg_session_setup(ex->pg, err) < 0 || pg_exec(ex->pg, "BEGIN", err) < 0 ||
        target_check_empty(ex, err) < 0 || target_create(ex, err) < 0)
        return -1;
    ex->prog.tables = ex->tables.n;
    ex->prog.total = ex->tables.total_rows;
    ex->prog.t0 = now_s();
    for (size_t i = 0; i < ex->tables.n; i++) {
        int rc = ex->tables.t[i].rows ? export_table(ex, &ex->tables.t[i], err) : 0;
        if (rc < 0 && !err->detail[0])
            rl_error_detail(err, "while copying table %s", ex->tables.t[i].name);
        if (rc != 0)
            return rc;
        test_hook(++ex->chunks);
        ex->prog.tables_done++;
        progress_show(&ex->prog, false);
    }
    progress_end(&ex->prog);
    ex->prog.on = false;
    if (export_verify(ex, err) < 0)
        return -1;
    if (interrupted)
        return 1;
    return pg_exec(ex->pg, "COMMIT", err);
}

static void exporter_free(exporter *ex)
{
    if (ex->pg && PQtransactionStatus(ex->pg) != PQTRANS_IDLE) {
        PGresult *res = PQexec(ex->pg, "ROLLBACK");
        PQclear(res);
    }
    PQfinish(ex->pg);
    rl_session_free(ex->s);
    rl_engine_free(ex->eng);
    if (ex->cat) {
        rl_error e;
        rl_catalog_close(ex->cat, &e);
    }
    tlist_free(&ex->tables);
}

rl_transfer_result rl_export_postgres(const char *lake_url, const char *target,
                                      const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    exporter ex = {.schema = o && o->schema ? o->schema : "public"};
    ex.prog = (progress){.on = o && o->progress, .verb = "export", .t0 = now_s()};
    interrupted = 0;
    if (!ident_ok(ex.schema)) {
        rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER, "--schema \"%s\" is not a plain name",
                     ex.schema);
        return RL_TRANSFER_FAILED;
    }
    double t0 = now_s();
    int rc = export_run(&ex, lake_url, target, err);
    if (ex.prog.on && rc != 0)
        fputc('\n', stderr);
    if (rc == 0)
        fprintf(report, "exported %zu tables, %" PRId64 " rows from %s to PostgreSQL database %s "
                        "(schema %s) in %.1f s\n",
                ex.tables.n, ex.tables.total_rows, lake_url, PQdb(ex.pg), ex.schema,
                now_s() - t0);
    exporter_free(&ex);
    return rc == 0 ? RL_TRANSFER_DONE : rc > 0 ? RL_TRANSFER_INTERRUPTED : RL_TRANSFER_FAILED;
}
