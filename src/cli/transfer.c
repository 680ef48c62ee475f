/*
 * transfer.c — `rocklake import` and `rocklake export`: a DuckLake catalog
 * moved between a PostgreSQL database (libpq), a SQLite file (libsqlite3)
 * or a DuckDB file (libduckdb, loaded when used: duckapi.h) and a RockLake
 * lake (this process's own SQL engine, sql.h, on the lake's catalog).
 *
 * Owns: discovering the catalog's tables (every ducklake_* relation of the
 * metadata schema or file, the dynamic inlined-data tables included) with
 * their columns (pg_attribute; SQLite's table_info and DuckDB's
 * duckdb_columns() mapped to DuckLake's PostgreSQL types), the CREATE TABLE
 * statements DuckDB's ducklake extension would send (on PostgreSQL, SQLite,
 * a DuckDB file), streaming rows between the two sides, progress,
 * interruption, and the verification at the end. An import's source is a
 * source_ops vtable (PostgreSQL, SQLite, DuckDB), an export's target an
 * export_target (the same three); the lake side is shared.
 *
 * Invariants:
 *  - the source of an import is read in ONE transaction (PostgreSQL:
 *    REPEATABLE READ READ ONLY; SQLite: one read transaction; DuckDB: one
 *    transaction on the file attached READ_ONLY), and the lake
 *    side of an export in one RockLake transaction, so each copies one
 *    consistent catalog;
 *  - an import writes the copy-incomplete marker durably before its
 *    first row and removes it only after every table's row count equals the
 *    source's and rl_check_copy reported nothing: a lake without the
 *    marker is complete; an error, interrupt or kill leaves the marker;
 *  - an import commits at most RL_TRANSFER_CHUNK_ROWS rows at a time, so
 *    memory stays bounded by a chunk, not by the catalog (a DuckDB source
 *    is read in pages of that many rows);
 *  - an export writes in one target transaction and commits only after
 *    the counts match: a target is either untouched or complete;
 *  - Parquet files are never touched: data_path rows are copied verbatim.
 */
#include "cli/transfer.h"

#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libpq-fe.h>
#include <sqlite3.h>

#include "base/buf.h"
#include "catalog/catalog.h"
#include "cli/check.h"
#include "keys/desc.h"
#include "cli/duckapi.h"
#include "sql/sql.h"

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
    rl_error_set(err, state && strlen(state) == 5 ? state : RL_SQLSTATE_CONNECTION_FAILURE, "%s: %s", what, msg);
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

/* The HINT of a failed connect: what the user most likely meant. libpq
 * gives a failed connection no SQLSTATE, only its message, so a missing
 * database is told by its wording ("database ... does not exist"). */
static void connect_hint(const char *conninfo, const char *why, bool target, rl_error *err)
{
    struct stat st;
    bool uri = strncmp(conninfo, "postgres://", 11) == 0 ||
               strncmp(conninfo, "postgresql://", 13) == 0;
    if (!uri && !strchr(conninfo, '=') && stat(conninfo, &st) == 0 && S_ISREG(st.st_mode))
        rl_error_hint(err, "that is a file: prefix a SQLite catalog file with sqlite: and a "
                           "DuckDB one with duckdb: (sqlite:%s)", conninfo);
    else if (target && strstr(why, "does not exist") && strstr(why, "database"))
        rl_error_hint(err, "create the database first (createdb NAME, or CREATE DATABASE in "
                           "psql): rocklake export writes into an existing, empty database");
    else
        rl_error_hint(err, "give a libpq conninfo string (\"host=... dbname=...\") or a "
                           "postgres:// URI that psql accepts");
}

/* `target`: the database an export writes (else an import's source). */
static PGconn *pg_connect(const char *conninfo, const char *what, bool target, rl_error *err)
{
    PGconn *pg = PQconnectdb(conninfo);
    if (!pg) {
        rl_error_set(err, RL_SQLSTATE_CONNECTION_FAILURE, "out of memory connecting to the %s", what);
        return NULL;
    }
    if (PQstatus(pg) != CONNECTION_OK) {
        rl_error_set(err, RL_SQLSTATE_CONNECTION_FAILURE, "cannot connect to the %s: %s", what, PQerrorMessage(pg));
        size_t n = strlen(err->message);
        while (n && err->message[n - 1] == '\n')
            err->message[--n] = 0;
        connect_hint(conninfo, PQerrorMessage(pg), target, err);
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
    char **xtypes; /* a DuckDB target's types (NULL, or ncols entries; NULL: the lake's) */
} ttable;

typedef struct tlist {
    ttable *t;
    size_t n, cap;
    int64_t total_rows;
} tlist;

static void tlist_free(tlist *l)
{
    for (size_t i = 0; i < l->n; i++) {
        for (size_t c = 0; l->t[i].xtypes && c < l->t[i].ncols; c++)
            free(l->t[i].xtypes[c]);
        free(l->t[i].xtypes);
        free(l->t[i].cols);
    }
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

/* A new column `att` (its name set, the rest zero) at the end of table
 * rel's in l, the table added when it is not the last, into *out; -1 with
 * err set when a name is too long or memory ran out. */
static int tlist_add_col(tlist *l, const char *rel, const char *att, tcol **out, rl_error *err)
{
    if (strlen(rel) >= 64 || strlen(att) >= 64)
        return rl_error_set(err, RL_SQLSTATE_PROGRAM_LIMIT, "name too long: %s.%s", rel, att);
    ttable *t = tlist_table(l, rel);
    tcol *grown = t ? rl_array_reserve(t->cols, t->ncols, &t->cap, sizeof *grown, 16) : NULL;
    if (!grown)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
    t->cols = grown;
    tcol *c = *out = &t->cols[t->ncols++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", att);
    return 0;
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
        tcol *c;
        if (tlist_add_col(l, rel, att, &c, err) < 0)
            return -1;
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

/* The type a column of `t` gets in a CREATE TABLE on one side. */
typedef const char *(*col_type_fn)(const ttable *t, size_t col);

static const char *pg_col_type(const ttable *t, size_t col)
{
    return t->cols[col].type;
}

/* CREATE TABLE ["schema".]"t"("c" TYPE [PRIMARY KEY] [NOT NULL], ...); as
 * DuckDB's postgres extension (or DuckLake on SQLite, DuckDB) writes it. */
static void create_sql(rl_buf *q, const char *schema, const ttable *t, col_type_fn type_of)
{
    const rl_table_desc *d = rl_desc_by_name(t->name, RL_FMT_LATEST);
    const char *pk = d && d->pk_col >= 0 ? d->cols[d->pk_col].name : NULL;
    rl_buf_put_str(q, "CREATE TABLE ");
    if (schema) {
        quote_ident(q, schema);
        rl_buf_put(q, ".", 1);
    }
    quote_ident(q, t->name);
    rl_buf_put(q, "(", 1);
    for (size_t i = 0; i < t->ncols; i++) {
        if (i)
            rl_buf_put(q, ", ", 2);
        quote_ident(q, t->cols[i].name);
        rl_buf_printf(q, " %s", type_of(t, i));
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

/* A transfer's start (verb "import" / "export"): its progress line when
 * asked for, no interrupt pending; the start time. */
static double transfer_start(progress *p, const rl_transfer_opts *o, const char *verb)
{
    *p = (progress){.on = o && o->progress, .verb = verb, .t0 = now_s()};
    interrupted = 0;
    return now_s();
}

/* A transfer that did not finish (rc != 0) ends the progress line it drew. */
static void transfer_stopped(const progress *p, int rc)
{
    if (p->on && rc != 0)
        fputc('\n', stderr);
}

/* A run's 0 (done), 1 (interrupted) or -1 (failed) as a transfer result. */
static rl_transfer_result transfer_result(int rc)
{
    return rc == 0 ? RL_TRANSFER_DONE : rc > 0 ? RL_TRANSFER_INTERRUPTED : RL_TRANSFER_FAILED;
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

/* ------------------------------------------------------------- sources */

/* A count(*) query's answer: rc is how running it went (its rows in r,
 * freed here when it ran); the count into *out (-1 when there is none),
 * or -1 when the query failed. */
static int count_answer(int rc, trows *r, int64_t *out)
{
    if (rc < 0)
        return -1;
    *out = r->nrows && cell(r, 0, 0) ? strtoll(cell(r, 0, 0), NULL, 10) : -1;
    trows_free(r);
    return 0;
}

static int count_rows(PGconn *pg, rl_session *s, const char *schema, const ttable *t,
                      int64_t *out, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "SELECT count(*) FROM ");
    qualified(&q, schema, t->name);
    rl_buf_put(&q, "", 1);
    trows r;
    int rc = pg ? pg_rows(pg, (const char *)q.data, &r, err) : lake_rows(s, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    return count_answer(rc, &r, out);
}

/* One row of a table as a COPY text line ('\n' included); 0 to go on, 1
 * to stop (interrupted), -1 on an error in *err. */
typedef int (*row_fn)(void *ctx, const char *line, size_t len, rl_error *err);

/* A row's COPY text in `line` ended with its newline and handed to `row`;
 * its result, or -1 when the text ran out of memory. */
static int line_out(rl_buf *line, row_fn row, void *ctx, rl_error *err)
{
    rl_buf_put(line, "\n", 1);
    return line->failed ? rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory")
                        : row(ctx, (const char *)line->data, line->len, err);
}

/* A catalog an import reads: PostgreSQL (libpq) or a SQLite file. Every
 * call runs inside the one read transaction `open` started. */
typedef struct source_ops {
    int (*open)(void *src, const char *where, rl_error *err);
    /* the ducklake_* tables with their columns typed as on PostgreSQL */
    int (*discover)(void *src, tlist *out, rl_error *err);
    /* ducklake_metadata's 'version' (global scope) into out */
    int (*version)(void *src, char *out, size_t n, rl_error *err);
    int (*count)(void *src, ttable *t, rl_error *err);
    int (*stream)(void *src, const ttable *t, row_fn row, void *ctx, rl_error *err);
    int (*finish)(void *src, rl_error *err);
    /* "postgres host=... schema=S" / "sqlite /path": the marker's words */
    void (*describe)(void *src, char *out, size_t n);
    void (*close)(void *src);
} source_ops;

/* ---- PostgreSQL */

typedef struct pg_source {
    PGconn *pg;
    const char *schema;
} pg_source;

static int pgs_open(void *src, const char *where, rl_error *err)
{
    pg_source *p = src;
    if (!(p->pg = pg_connect(where, "source PostgreSQL", false, err)) || pg_session_setup(p->pg, err) < 0)
        return -1;
    return pg_exec(p->pg, "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", err);
}

static int pgs_discover(void *src, tlist *out, rl_error *err)
{
    pg_source *p = src;
    rl_buf q;
    rl_buf_init(&q, 0);
    columns_sql(&q, p->schema, true);
    trows r;
    int rc = pg_rows(p->pg, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    if (rc < 0)
        return -1;
    rc = tlist_build(&r, out, err);
    trows_free(&r);
    return rc;
}

static int pgs_version(void *src, char *out, size_t n, rl_error *err)
{
    pg_source *p = src;
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_printf(&q, "SELECT value FROM \"%s\".ducklake_metadata WHERE key = 'version' AND scope IS NULL",
                  p->schema);
    rl_buf_put(&q, "", 1);
    trows r;
    int rc = pg_rows(p->pg, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    if (rc < 0)
        return -1;
    snprintf(out, n, "%s", r.nrows && cell(&r, 0, 0) ? cell(&r, 0, 0) : "?");
    trows_free(&r);
    return 0;
}

static int pgs_count(void *src, ttable *t, rl_error *err)
{
    pg_source *p = src;
    return count_rows(p->pg, NULL, p->schema, t, &t->rows, err);
}

/* The table's COPY TO STDOUT, line by line. */
static int pgs_stream(void *src, const ttable *t, row_fn row, void *ctx, rl_error *err)
{
    pg_source *p = src;
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "COPY (SELECT ");
    column_list(&q, t);
    rl_buf_put_str(&q, " FROM ");
    qualified(&q, p->schema, t->name);
    rl_buf_put_str(&q, ") TO STDOUT");
    rl_buf_put(&q, "", 1);
    PGresult *res = PQexec(p->pg, (const char *)q.data);
    rl_buf_free(&q);
    if (PQresultStatus(res) != PGRES_COPY_OUT) {
        pg_fail(err, p->pg, res, "reading the source");
        PQclear(res);
        return -1;
    }
    PQclear(res);
    int rc = 0;
    for (;;) {
        char *line = NULL;
        int n = PQgetCopyData(p->pg, &line, 0);
        if (n == -1)
            break;
        if (n < 0)
            return pg_fail(err, p->pg, NULL, "reading the source");
        rc = row(ctx, line, (size_t)n, err);
        PQfreemem(line);
        if (rc != 0)
            return rc; /* the connection is abandoned with its COPY */
    }
    PGresult *done = PQgetResult(p->pg);
    if (PQresultStatus(done) != PGRES_COMMAND_OK)
        rc = pg_fail(err, p->pg, done, "reading the source");
    PQclear(done);
    while ((done = PQgetResult(p->pg)))
        PQclear(done);
    return rc;
}

static int pgs_finish(void *src, rl_error *err)
{
    pg_source *p = src;
    return pg_exec(p->pg, "COMMIT", err);
}

static void pgs_describe(void *src, char *out, size_t n)
{
    pg_source *p = src;
    snprintf(out, n, "postgres host=%s port=%s dbname=%s schema=%s",
             PQhost(p->pg) ? PQhost(p->pg) : "?", PQport(p->pg) ? PQport(p->pg) : "?",
             PQdb(p->pg) ? PQdb(p->pg) : "?", p->schema);
}

static void pgs_close(void *src)
{
    pg_source *p = src;
    PQfinish(p->pg);
    p->pg = NULL;
}

static const source_ops pg_source_ops = {pgs_open,  pgs_discover, pgs_version,  pgs_count,
                                         pgs_stream, pgs_finish,  pgs_describe, pgs_close};

/* ---- SQLite */

typedef struct sq_source {
    sqlite3 *db;
    const char *path;
    rl_buf line;
} sq_source;

static int sq_fail(rl_error *err, sqlite3 *db, const char *what)
{
    int code = db ? sqlite3_errcode(db) : SQLITE_NOMEM;
    const char *state = code == SQLITE_CANTOPEN || code == SQLITE_IOERR ? RL_SQLSTATE_IO
                        : code == SQLITE_NOTADB || code == SQLITE_CORRUPT ? RL_SQLSTATE_DATA_CORRUPTED
                        : code == SQLITE_BUSY || code == SQLITE_LOCKED ? RL_SQLSTATE_OBJECT_STATE
                        : RL_SQLSTATE_INTERNAL;
    return rl_error_set(err, state, "%s: SQLite: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
}

static int sq_exec(sq_source *s, const char *sql, rl_error *err)
{
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0
                                                                 : sq_fail(err, s->db, s->path);
}

static int sqs_open(void *src, const char *where, rl_error *err)
{
    sq_source *s = src;
    s->path = where;
    rl_buf_init(&s->line, 0);
    if (sqlite3_open_v2(where, &s->db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        sq_fail(err, s->db, where);
        rl_error_hint(err, "give an existing SQLite file DuckLake created, as sqlite:/path/file");
        return -1;
    }
    sqlite3_busy_timeout(s->db, 10000);
    /* a deferred read transaction: its first SELECT fixes the snapshot every
     * later one reads */
    return sq_exec(s, "BEGIN", err);
}

/* The PostgreSQL type of a SQLite catalog column: a fixed table's from
 * RockLake's descriptor (DuckLake's PostgreSQL types, NOT NULLs included),
 * a per-table one's from its declared SQLite type. */
/* A fixed table's column: its type and NOT NULL from RockLake's descriptor
 * (DuckLake's PostgreSQL types); 0 when `rel`.`att` is not one, -1 when its
 * type has no CREATE TABLE spelling. */
static int desc_col_type(const char *rel, const char *att, tcol *c)
{
    const rl_table_desc *d = rl_desc_by_name(rel, RL_FMT_LATEST);
    int i = d ? rl_desc_column_index(d, att, RL_FMT_LATEST) : -1;
    if (i < 0)
        return 0;
    const rl_column_desc *cd = &d->cols[i];
    c->notnull = cd->not_null;
    return sql_type(rl_type_name(cd->type), cd->typmod ? cd->typmod : -1, c->type, sizeof c->type)
               ? 1
               : -1;
}

static bool sq_col_type(const char *rel, const char *att, const char *decl, tcol *c)
{
    int fixed = desc_col_type(rel, att, c);
    if (fixed)
        return fixed > 0;
    static const char *const map[][2] = {
        {"BIGINT", "BIGINT"},   {"INTEGER", "BIGINT"}, {"VARCHAR", "VARCHAR"},
        {"TEXT", "VARCHAR"},    {"BLOB", "BYTEA"},     {"DOUBLE", "DOUBLE PRECISION"},
        {"REAL", "DOUBLE PRECISION"}, {"BOOLEAN", "BOOLEAN"}, {"", "VARCHAR"}};
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
        if (strcasecmp(decl, map[k][0]) == 0) {
            snprintf(c->type, sizeof c->type, "%s", map[k][1]);
            return true;
        }
    return false;
}

/* How a file catalog's declared column type becomes the lake's. */
typedef bool (*decl_type_fn)(const char *rel, const char *att, const char *decl, tcol *c);

/* Add column `att` (declared `decl` on `side`) of table `rel` to l. */
static int add_col(tlist *l, const char *rel, const char *att, const char *decl,
                   decl_type_fn type_of, const char *side, rl_error *err)
{
    tcol *c;
    if (tlist_add_col(l, rel, att, &c, err) < 0)
        return -1;
    if (!type_of(rel, att, decl, c))
        return rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                            "column %s.%s has %s type %s, which a DuckLake catalog does not use",
                            rel, att, side, decl);
    return 0;
}

static int sqs_discover(void *src, tlist *out, rl_error *err)
{
    sq_source *s = src;
    sqlite3_stmt *st = NULL;
    static const char sql[] =
        "SELECT m.name, p.name, p.type FROM sqlite_master m, pragma_table_info(m.name) p "
        "WHERE m.type = 'table' AND m.name LIKE 'ducklake\\_%' ESCAPE '\\' ORDER BY m.name, p.cid";
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
        return sq_fail(err, s->db, s->path);
    memset(out, 0, sizeof *out);
    int rc = 0, step;
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *rel = (const char *)sqlite3_column_text(st, 0);
        const char *att = (const char *)sqlite3_column_text(st, 1);
        const char *decl = (const char *)sqlite3_column_text(st, 2);
        if (rel && att)
            rc = add_col(out, rel, att, decl ? decl : "", sq_col_type, "SQLite", err);
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = sq_fail(err, s->db, s->path);
    sqlite3_finalize(st);
    return rc;
}

static int sqs_version(void *src, char *out, size_t n, rl_error *err)
{
    sq_source *s = src;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT value FROM ducklake_metadata WHERE key = 'version' "
                                  "AND scope IS NULL", -1, &st, NULL) != SQLITE_OK)
        return sq_fail(err, s->db, s->path);
    int step = sqlite3_step(st);
    const char *v = step == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
    snprintf(out, n, "%s", v ? v : "?");
    sqlite3_finalize(st);
    return step == SQLITE_ROW || step == SQLITE_DONE ? 0 : sq_fail(err, s->db, s->path);
}

static int sqs_count(void *src, ttable *t, rl_error *err)
{
    sq_source *s = src;
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "SELECT count(*) FROM ");
    quote_ident(&q, t->name);
    rl_buf_put(&q, "", 1);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, (const char *)q.data, -1, &st, NULL) == SQLITE_OK &&
                     sqlite3_step(st) == SQLITE_ROW
                 ? 0
                 : sq_fail(err, s->db, s->path);
    if (rc == 0)
        t->rows = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    rl_buf_free(&q);
    return rc;
}

/* A text value as COPY text: backslash, tab, newline and CR escaped. */
static void copy_text(rl_buf *b, const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *esc = s[i] == '\\' ? "\\\\" : s[i] == '\t' ? "\\t" : s[i] == '\n' ? "\\n"
                          : s[i] == '\r' ? "\\r" : NULL;
        if (esc)
            rl_buf_put(b, esc, 2);
        else
            rl_buf_put(b, &s[i], 1);
    }
}

/* One SQLite value as the COPY text of a column of PostgreSQL type `type`:
 * BIGINT 0/1 of a BOOLEAN becomes f/t, a BLOB bytea's \x hex. */
static void sq_cell(rl_buf *b, sqlite3_stmt *st, int col, const char *type)
{
    char num[64];
    switch (sqlite3_column_type(st, col)) {
    case SQLITE_NULL:
        rl_buf_put(b, "\\N", 2);
        return;
    case SQLITE_INTEGER: {
        long long v = sqlite3_column_int64(st, col);
        if (strcmp(type, "BOOLEAN") == 0)
            snprintf(num, sizeof num, "%s", v ? "t" : "f");
        else
            snprintf(num, sizeof num, "%lld", v);
        rl_buf_put_str(b, num);
        return;
    }
    case SQLITE_FLOAT:
        snprintf(num, sizeof num, "%.17g", sqlite3_column_double(st, col));
        rl_buf_put_str(b, num);
        return;
    case SQLITE_BLOB: {
        const unsigned char *p = sqlite3_column_blob(st, col);
        int n = sqlite3_column_bytes(st, col);
        rl_buf_put(b, "\\\\x", 3);
        for (int i = 0; i < n; i++) {
            snprintf(num, sizeof num, "%02x", p[i]);
            rl_buf_put(b, num, 2);
        }
        return;
    }
    default:
        copy_text(b, sqlite3_column_text(st, col), (size_t)sqlite3_column_bytes(st, col));
    }
}

static int sqs_stream(void *src, const ttable *t, row_fn row, void *ctx, rl_error *err)
{
    sq_source *s = src;
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "SELECT ");
    column_list(&q, t);
    rl_buf_put_str(&q, " FROM ");
    quote_ident(&q, t->name);
    rl_buf_put(&q, "", 1);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, (const char *)q.data, -1, &st, NULL) == SQLITE_OK
                 ? 0
                 : sq_fail(err, s->db, s->path);
    rl_buf_free(&q);
    int step = SQLITE_DONE;
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        rl_buf_reset(&s->line);
        for (size_t c = 0; c < t->ncols; c++) {
            if (c)
                rl_buf_put(&s->line, "\t", 1);
            sq_cell(&s->line, st, (int)c, t->cols[c].type);
        }
        rc = line_out(&s->line, row, ctx, err);
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = sq_fail(err, s->db, s->path);
    sqlite3_finalize(st);
    return rc;
}

static int sqs_finish(void *src, rl_error *err)
{
    return sq_exec(src, "COMMIT", err);
}

static void sqs_describe(void *src, char *out, size_t n)
{
    sq_source *s = src;
    snprintf(out, n, "sqlite %s", s->path);
}

static void sqs_close(void *src)
{
    sq_source *s = src;
    sqlite3_close(s->db);
    s->db = NULL;
    rl_buf_free(&s->line);
}

static const source_ops sq_source_ops = {sqs_open,  sqs_discover, sqs_version,  sqs_count,
                                         sqs_stream, sqs_finish,  sqs_describe, sqs_close};

bool rl_transfer_is_sqlite(const char *where)
{
    return strncmp(where, "sqlite:", 7) == 0;
}

/* A file catalog is read from its main schema: --schema is refused, not
 * ignored. */
static bool file_no_schema(const rl_transfer_opts *o, const char *kind, rl_error *err)
{
    if (!o || !o->schema)
        return true;
    rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER, "--schema does not apply to a %s file", kind);
    return false;
}

/* ---- DuckDB file */

/* One in-memory DuckDB with the catalog file attached as `alias` (and
 * USEd, so ducklake_* names need no prefix). */
typedef struct dk_conn {
    const rl_duckdb_api *api;
    duckdb_database db;
    duckdb_connection con;
    const char *path;
    rl_buf line; /* a COPY line (source) or a value's text (target) */
} dk_conn;

/* A DuckDB failure of kind `type`: its SQLSTATE from the kind
 * (rl_duckdb_sqlstate), its message for the reader only. */
static int dk_fail(rl_error *err, const char *what, duckdb_error_type type, const char *msg)
{
    msg = msg && *msg ? msg : "unknown error";
    return rl_error_set(err, rl_duckdb_sqlstate(type), "%s: DuckDB: %s", what, msg);
}

/* A failed duckdb_query's error. */
static int dk_result_fail(rl_error *err, const char *what, const rl_duckdb_api *api,
                          duckdb_result *r)
{
    return dk_fail(err, what, api->result_error_type(r), api->result_error(r));
}

/* An appender's last error (a may be NULL: creating it failed). */
static int dk_appender_fail(rl_error *err, const char *what, const rl_duckdb_api *api,
                            duckdb_appender a)
{
    return dk_fail(err, what, rl_duckdb_appender_error_type(api, a),
                   a ? api->appender_error(a) : NULL);
}

/* Run `sql`; its rows (every value as text) into *out when out is given. */
static int dk_rows(dk_conn *d, const char *sql, trows *out, rl_error *err)
{
    duckdb_result r;
    memset(&r, 0, sizeof r);
    if (out)
        memset(out, 0, sizeof *out);
    if (d->api->query(d->con, sql, &r) != DUCKDB_OK) {
        dk_result_fail(err, d->path, d->api, &r);
        d->api->destroy_result(&r);
        return -1;
    }
    int rc = 0;
    if (out) {
        out->ncols = (size_t)d->api->column_count(&r);
        if (out->ncols > 16)
            rc = rl_error_set(err, RL_SQLSTATE_INTERNAL, "a result with more than 16 columns");
        duckdb_idx n = rc == 0 ? d->api->row_count(&r) : 0;
        char *vals[16];
        size_t lens[16];
        for (duckdb_idx row = 0; row < n && !out->oom; row++) {
            for (size_t c = 0; c < out->ncols; c++) {
                vals[c] = d->api->value_is_null(&r, c, row) ? NULL : d->api->value_varchar(&r, c, row);
                lens[c] = vals[c] ? strlen(vals[c]) : 0;
            }
            trows_add(out, (const char *const *)vals, lens);
            for (size_t c = 0; c < out->ncols; c++)
                d->api->free(vals[c]);
        }
        if (rc == 0 && out->oom)
            rc = rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
        if (rc < 0)
            trows_free(out);
    }
    d->api->destroy_result(&r);
    return rc;
}

static int dk_exec(dk_conn *d, const char *sql, rl_error *err)
{
    return dk_rows(d, sql, NULL, err);
}

static void quote_literal(rl_buf *b, const char *s)
{
    rl_buf_put(b, "'", 1);
    for (; *s; s++) {
        rl_buf_put(b, s, 1);
        if (*s == '\'')
            rl_buf_put(b, s, 1);
    }
    rl_buf_put(b, "'", 1);
}

/* Load libduckdb, open an in-memory DuckDB and attach the file as
 * `alias` (READ_ONLY for a source). Nothing is downloaded: DuckDB's
 * extension autoloading is off. */
static int dk_open(dk_conn *d, const char *path, const char *alias, bool read_only, rl_error *err)
{
    d->path = path;
    rl_buf_init(&d->line, 0);
    if (!(d->api = rl_duckdb_load(err)))
        return -1;
    if (d->api->open(NULL, &d->db) != DUCKDB_OK || d->api->connect(d->db, &d->con) != DUCKDB_OK)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "%s: DuckDB %s did not start", path,
                            d->api->library_version());
    if (dk_exec(d, "SET autoinstall_known_extensions = false", err) < 0 ||
        dk_exec(d, "SET autoload_known_extensions = false", err) < 0)
        return -1;
    rl_error ignored;
    dk_exec(d, "SET TimeZone = 'UTC'", &ignored); /* only where ICU is built in */
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "ATTACH ");
    quote_literal(&q, path);
    rl_buf_printf(&q, " AS %s%s", alias, read_only ? " (READ_ONLY)" : "");
    rl_buf_put(&q, "", 1);
    int rc = q.failed ? rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory")
                      : dk_exec(d, (const char *)q.data, err);
    rl_buf_reset(&q);
    rl_buf_printf(&q, "USE %s", alias);
    rl_buf_put(&q, "", 1);
    if (rc == 0)
        rc = dk_exec(d, (const char *)q.data, err);
    rl_buf_free(&q);
    return rc;
}

static void dk_close(dk_conn *d)
{
    if (d->api) {
        if (d->con)
            d->api->disconnect(&d->con);
        if (d->db)
            d->api->close(&d->db);
    }
    d->con = NULL;
    d->db = NULL;
    rl_buf_free(&d->line);
}

/* The PostgreSQL type DuckLake gives a per-table (inlined) column of DuckDB
 * type `decl` on PostgreSQL: the numbers, booleans, UUID, TIME, INTERVAL as
 * themselves, BLOB and VARCHAR (JSON) BYTEA, every other type VARCHAR (its
 * DuckDB text); a fixed table's columns come from the descriptor. */
static bool dk_col_type(const char *rel, const char *att, const char *decl, tcol *c)
{
    int fixed = desc_col_type(rel, att, c);
    if (fixed)
        return fixed > 0;
    static const char *const map[][2] = {
        {"BIGINT", "BIGINT"},       {"INTEGER", "INTEGER"},
        {"SMALLINT", "SMALLINT"},   {"TINYINT", "SMALLINT"},
        {"UTINYINT", "INTEGER"},    {"USMALLINT", "INTEGER"},
        {"UINTEGER", "BIGINT"},     {"BOOLEAN", "BOOLEAN"},
        {"DOUBLE", "DOUBLE PRECISION"}, {"FLOAT", "REAL"},
        {"TIME", "TIME"},           {"TIME WITH TIME ZONE", "TIME WITH TIME ZONE"},
        {"INTERVAL", "INTERVAL"},   {"UUID", "UUID"},
        {"BLOB", "BYTEA"},          {"VARCHAR", "BYTEA"},
        {"JSON", "BYTEA"}};
    int p, sc;
    if (sscanf(decl, "DECIMAL(%d,%d)", &p, &sc) == 2) {
        snprintf(c->type, sizeof c->type, "NUMERIC(%d,%d)", p, sc);
        return true;
    }
    for (size_t k = 0; k < sizeof map / sizeof map[0]; k++)
        if (strcmp(decl, map[k][0]) == 0) {
            snprintf(c->type, sizeof c->type, "%s", map[k][1]);
            return true;
        }
    snprintf(c->type, sizeof c->type, "VARCHAR");
    return true;
}

static int dks_open(void *src, const char *where, rl_error *err)
{
    dk_conn *d = src;
    if (dk_open(d, where, "rl_source", true, err) < 0) {
        if (d->api)
            rl_error_hint(err, "give an existing DuckDB file DuckLake created (ATTACH "
                               "'ducklake:FILE'), as duckdb:FILE, that no DuckDB writes now");
        return -1;
    }
    /* one transaction: every later read sees the same catalog */
    return dk_exec(d, "BEGIN TRANSACTION", err);
}

static int dks_discover(void *src, tlist *out, rl_error *err)
{
    dk_conn *d = src;
    trows r;
    if (dk_rows(d, "SELECT c.table_name, c.column_name, c.data_type FROM duckdb_columns() c "
                   "JOIN duckdb_tables() t ON c.database_name = t.database_name AND "
                   "c.schema_name = t.schema_name AND c.table_name = t.table_name "
                   "WHERE c.database_name = 'rl_source' AND c.schema_name = 'main' AND "
                   "starts_with(c.table_name, 'ducklake_') ORDER BY c.table_name, c.column_index",
                &r, err) < 0)
        return -1;
    memset(out, 0, sizeof *out);
    int rc = 0;
    for (size_t i = 0; i < r.nrows && rc == 0; i++)
        if (cell(&r, i, 0) && cell(&r, i, 1))
            rc = add_col(out, cell(&r, i, 0), cell(&r, i, 1), cell(&r, i, 2) ? cell(&r, i, 2) : "",
                         dk_col_type, "DuckDB", err);
    trows_free(&r);
    return rc;
}

static int dks_version(void *src, char *out, size_t n, rl_error *err)
{
    trows r;
    if (dk_rows(src, "SELECT value FROM ducklake_metadata WHERE key = 'version' AND scope IS NULL",
                &r, err) < 0)
        return -1;
    snprintf(out, n, "%s", r.nrows && cell(&r, 0, 0) ? cell(&r, 0, 0) : "?");
    trows_free(&r);
    return 0;
}

static int dk_count(dk_conn *d, const ttable *t, int64_t *out, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "SELECT count(*) FROM ");
    quote_ident(&q, t->name);
    rl_buf_put(&q, "", 1);
    trows r;
    int rc = dk_rows(d, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    return count_answer(rc, &r, out);
}

static int dks_count(void *src, ttable *t, rl_error *err)
{
    return dk_count(src, t, &t->rows, err);
}

/* The table's rows as COPY text, RL_TRANSFER_CHUNK_ROWS at a time in rowid
 * order (a page's result is all DuckDB holds in memory). Each column is
 * read as the text its lake type parses: a BYTEA's \x hex, every other
 * DuckDB's VARCHAR cast. */
static int dks_stream(void *src, const ttable *t, row_fn row, void *ctx, rl_error *err)
{
    dk_conn *d = src;
    rl_buf q;
    rl_buf_init(&q, 0);
    int64_t last = -1;
    int rc = 0;
    for (;;) {
        rl_buf_reset(&q);
        rl_buf_put_str(&q, "SELECT rowid");
        for (size_t c = 0; c < t->ncols; c++) {
            bool bytea = strcmp(t->cols[c].type, "BYTEA") == 0;
            rl_buf_put_str(&q, bytea ? ", '\\x' || hex(" : ", CAST(");
            quote_ident(&q, t->cols[c].name);
            rl_buf_put_str(&q, bytea ? ")" : " AS VARCHAR)");
        }
        rl_buf_put_str(&q, " FROM ");
        quote_ident(&q, t->name);
        rl_buf_printf(&q, " WHERE rowid > %" PRId64 " ORDER BY rowid LIMIT %d", last,
                      RL_TRANSFER_CHUNK_ROWS);
        rl_buf_put(&q, "", 1);
        if (q.failed) {
            rc = rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
            break;
        }
        duckdb_result r;
        memset(&r, 0, sizeof r);
        if (d->api->query(d->con, (const char *)q.data, &r) != DUCKDB_OK) {
            rc = dk_result_fail(err, d->path, d->api, &r);
            d->api->destroy_result(&r);
            break;
        }
        duckdb_idx n = d->api->row_count(&r);
        for (duckdb_idx i = 0; i < n && rc == 0; i++) {
            last = d->api->value_int64(&r, 0, i);
            rl_buf_reset(&d->line);
            for (size_t c = 0; c < t->ncols; c++) {
                if (c)
                    rl_buf_put(&d->line, "\t", 1);
                if (d->api->value_is_null(&r, c + 1, i)) {
                    rl_buf_put(&d->line, "\\N", 2);
                    continue;
                }
                char *v = d->api->value_varchar(&r, c + 1, i);
                if (v)
                    copy_text(&d->line, (const unsigned char *)v, strlen(v));
                d->api->free(v);
            }
            rc = line_out(&d->line, row, ctx, err);
        }
        d->api->destroy_result(&r);
        if (rc != 0 || n < (duckdb_idx)RL_TRANSFER_CHUNK_ROWS)
            break;
    }
    rl_buf_free(&q);
    return rc;
}

static int dks_finish(void *src, rl_error *err)
{
    return dk_exec(src, "COMMIT", err);
}

static void dks_describe(void *src, char *out, size_t n)
{
    dk_conn *d = src;
    snprintf(out, n, "duckdb %s", d->path);
}

static void dks_close(void *src)
{
    dk_close(src);
}

static const source_ops dk_source_ops = {dks_open,  dks_discover, dks_version,  dks_count,
                                         dks_stream, dks_finish,  dks_describe, dks_close};

bool rl_transfer_is_duckdb(const char *where)
{
    return strncmp(where, "duckdb:", 7) == 0;
}

/* -------------------------------------------------------------- import */

typedef struct importer {
    const source_ops *ops;
    void *src;
    const char *what; /* "schema \"public\"" / "file" */
    rl_catalog *cat;
    rl_engine *eng;
    rl_session *s;
    tlist tables;
    progress prog;
    const ttable *cur; /* the table being copied */
    int64_t in_chunk;  /* its rows in the open COPY */
    int chunks;
    bool copying; /* a COPY FROM STDIN is open on the lake's session */
} importer;

static int source_discover(importer *im, rl_format *fmt, rl_error *err)
{
    if (im->ops->discover(im->src, &im->tables, err) < 0)
        return -1;
    bool meta = false;
    for (size_t i = 0; i < im->tables.n; i++)
        meta |= strcmp(im->tables.t[i].name, "ducklake_metadata") == 0;
    if (!meta) {
        rl_error_set(err, RL_SQLSTATE_UNDEFINED_TABLE,
                     "the source has no DuckLake catalog in %s (no ducklake_metadata)", im->what);
        if (im->ops == &pg_source_ops)
            rl_error_hint(err, "name the schema DuckLake's METADATA_SCHEMA used with --schema");
        return -1;
    }
    qsort(im->tables.t, im->tables.n, sizeof *im->tables.t, table_cmp);
    char ver[64];
    if (im->ops->version(im->src, ver, sizeof ver, err) < 0)
        return -1;
    *fmt = rl_format_parse(ver);
    if (!*fmt)
        return rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                            "the source catalog has DuckLake format \"%s\"; RockLake serves 1.0 "
                            "and 1.1", ver);
    return 0;
}

static int source_count(importer *im, rl_error *err)
{
    for (size_t i = 0; i < im->tables.n; i++) {
        if (im->ops->count(im->src, &im->tables.t[i], err) < 0)
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
        create_sql(&q, "public", &im->tables.t[i], pg_col_type);
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

/* A source row into the open COPY; a COPY commits every
 * RL_TRANSFER_CHUNK_ROWS rows. */
static int import_row(void *ctx, const char *line, size_t len, rl_error *err)
{
    importer *im = ctx;
    if (interrupted)
        return 1;
    if (!im->copying && lake_copy_begin(im, im->cur, err) < 0)
        return -1;
    if (rl_session_copy_data(im->s, (const uint8_t *)line, len, err) < 0)
        return -1;
    im->prog.rows++;
    if (++im->in_chunk == RL_TRANSFER_CHUNK_ROWS) {
        im->in_chunk = 0;
        if (lake_copy_end(im, err) < 0)
            return -1;
    }
    progress_show(&im->prog, false);
    return 0;
}

/* Stream one table into COPYs of at most RL_TRANSFER_CHUNK_ROWS rows
 * each. 1 when interrupted. */
static int import_table(importer *im, const ttable *t, rl_error *err)
{
    im->cur = t;
    im->in_chunk = 0;
    int rc = im->ops->stream(im->src, t, import_row, im, err);
    if (rc == 0 && im->copying && lake_copy_end(im, err) < 0)
        rc = -1;
    if (rc == 0 && interrupted)
        rc = 1;
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

/* "import from postgres host=H port=P dbname=D schema=S, pid N, started T"
 * (or "from sqlite /path"): the marker's text (never the password). */
static void marker_text(const importer *im, char *out, size_t n)
{
    char when[32] = "?", from[400];
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%SZ", &tm);
    im->ops->describe(im->src, from, sizeof from);
    snprintf(out, n, "import from %s, pid %ld, started %s", from, (long)getpid(), when);
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
    if (im->ops->open(im->src, source, err) < 0)
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
    im->ops->finish(im->src, err);
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
    im->ops->close(im->src);
    tlist_free(&im->tables);
}

static rl_transfer_result import_from(importer *im, const char *source, const char *lake_url,
                                      const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    double t0 = transfer_start(&im->prog, o, "import");
    int rc = import_run(im, source, lake_url, report, err);
    transfer_stopped(&im->prog, rc);
    if (rc == 0)
        fprintf(report, "imported %zu tables, %" PRId64 " rows into %s (DuckLake %s) in %.1f s; "
                        "check: ok\n",
                im->tables.n, im->tables.total_rows, lake_url,
                rl_format_name(rl_catalog_format(im->cat)), now_s() - t0);
    importer_free(im);
    return transfer_result(rc);
}

rl_transfer_result rl_import_postgres(const char *source, const char *lake_url,
                                      const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    pg_source src = {.schema = o && o->schema ? o->schema : "public"};
    if (!ident_ok(src.schema)) {
        rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER, "--schema \"%s\" is not a plain name",
                     src.schema);
        return RL_TRANSFER_FAILED;
    }
    char what[96];
    snprintf(what, sizeof what, "schema \"%s\"", src.schema);
    importer im = {.ops = &pg_source_ops, .src = &src, .what = what};
    return import_from(&im, source, lake_url, o, report, err);
}

/* An import from a file (`kind` "SQLite" or "DuckDB": no --schema) read
 * through `ops` on `src`, named `source` with its 7-byte "sqlite:" /
 * "duckdb:" prefix when prefixed. */
static rl_transfer_result import_file(const source_ops *ops, void *src, const char *kind,
                                      bool prefixed, const char *source, const char *lake_url,
                                      const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    if (!file_no_schema(o, kind, err))
        return RL_TRANSFER_FAILED;
    char what[32];
    snprintf(what, sizeof what, "the %s file", kind);
    importer im = {.ops = ops, .src = src, .what = what};
    return import_from(&im, source + (prefixed ? 7 : 0), lake_url, o, report, err);
}

rl_transfer_result rl_import_sqlite(const char *source, const char *lake_url,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    sq_source src = {0};
    return import_file(&sq_source_ops, &src, "SQLite", rl_transfer_is_sqlite(source), source,
                       lake_url, o, report, err);
}

rl_transfer_result rl_import_duckdb(const char *source, const char *lake_url,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    dk_conn src = {0};
    return import_file(&dk_source_ops, &src, "DuckDB", rl_transfer_is_duckdb(source), source,
                       lake_url, o, report, err);
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
    /* a SQLite target: */
    sqlite3 *sq;
    /* a file target (SQLite, DuckDB): */
    const char *path;
    bool created; /* the file did not exist before */
    sqlite3_stmt *ins; /* the open table's INSERT */
    rl_buf text;       /* a value's text */
    /* a DuckDB target: */
    dk_conn dk;
    duckdb_appender dk_app; /* the open table's staging appender */
    const ttable *dk_cur;   /* its table */
    int64_t dk_in_chunk;    /* rows staged since the last INSERT */
} exporter;

static int export_open_lake(exporter *ex, const char *lake_url, rl_error *err)
{
    rl_catalog_options o = {.read_only = true};
    o.store.reader_no_writes = 1;
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

/* Appends "INSERT INTO "<t>"" and `rest` (a file target's tables are
 * unqualified). */
static void insert_head(rl_buf *q, const ttable *t, const char *rest)
{
    rl_buf_put_str(q, "INSERT INTO ");
    quote_ident(q, t->name);
    rl_buf_put_str(q, rest);
}

/* Runs statements (NUL-terminated text) on an export's target: 0, or -1
 * with err set. */
typedef int (*target_exec_fn)(exporter *ex, const char *sql, rl_error *err);

/* The CREATE TABLE statements for every table exported, in `schema` (NULL:
 * unqualified; a schema other than public is created first) with column
 * types from type_of, run on the target by `run`. */
static int create_tables(exporter *ex, const char *schema, col_type_fn type_of,
                         target_exec_fn run, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    if (schema && strcmp(schema, "public") != 0) {
        rl_buf_put_str(&q, "CREATE SCHEMA IF NOT EXISTS ");
        quote_ident(&q, schema);
        rl_buf_put_str(&q, ";\n");
    }
    for (size_t i = 0; i < ex->tables.n; i++)
        create_sql(&q, schema, &ex->tables.t[i], type_of);
    rl_buf_put(&q, "", 1);
    int rc = q.failed ? rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory")
                      : run(ex, (const char *)q.data, err);
    rl_buf_free(&q);
    return rc;
}

/* The refusal of a file target (`kind` "SQLite" / "DuckDB") that already
 * holds a DuckLake catalog (`table` one of its tables): -1. */
static int file_taken(rl_error *err, const char *kind, const char *path, const char *table)
{
    rl_error_set(err, RL_SQLSTATE_DUPLICATE_TABLE,
                 "the target %s file \"%s\" already has a DuckLake catalog (table %s)", kind, path,
                 table);
    rl_error_hint(err, "export into a new file; nothing was written");
    return -1;
}

/* Statements run on the target database. */
static int pg_target_exec(exporter *ex, const char *sql, rl_error *err)
{
    return pg_exec(ex->pg, sql, err);
}

/* Appends "SELECT <t's columns> FROM public.<t>": the lake's query for all
 * of a table's rows (no terminating NUL). */
static void select_sql(rl_buf *q, const ttable *t)
{
    rl_buf_put_str(q, "SELECT ");
    column_list(q, t);
    rl_buf_put_str(q, " FROM ");
    qualified(q, "public", t->name);
}

/* What copying a table came to once the lake's query `st` ended: 1 when
 * interrupted, -1 when the target refused a row (its error, kept in
 * copy_err, into err) or the query failed, else 0. */
static int export_outcome(exporter *ex, rl_exec_status st, rl_error *err)
{
    if (interrupted)
        return 1;
    if (ex->copy_failed) {
        *err = ex->copy_err;
        return -1;
    }
    return st == RL_EXEC_DONE ? 0 : -1;
}

/* A table's rows from the lake, each handed to `row` (the target's writer,
 * with the exporter as its context); the outcome as export_outcome's. */
static int export_rows(exporter *ex, const ttable *t,
                       int (*row)(void *ctx, size_t ncols, const rl_value *vals), rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    select_sql(&q, t);
    rl_buf_put(&q, "", 1);
    rl_sink k = {.ctx = ex, .data_row = row};
    rl_exec_status st = rl_session_simple_query(ex->s, (const char *)q.data, &k, err);
    rl_buf_free(&q);
    return export_outcome(ex, st, err);
}

/* One more row written to the target: the progress line follows. */
static int export_row_done(exporter *ex)
{
    ex->prog.rows++;
    progress_show(&ex->prog, false);
    return 0;
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
    rl_buf_put_str(&q, "COPY (");
    select_sql(&q, t);
    rl_buf_put_str(&q, ") TO STDOUT");
    rl_buf_put(&q, "", 1);
    rl_sink k = {.ctx = ex, .copy_out_data = export_chunk};
    rl_exec_status st = rl_session_simple_query(ex->s, (const char *)q.data, &k, err);
    rl_buf_free(&q);
    int rc = export_outcome(ex, st, err);
    if (PQputCopyEnd(ex->pg, rc == 0 ? NULL : "export stopped") != 1 && rc == 0)
        rc = pg_fail(err, ex->pg, NULL, "writing the target");
    while ((res = PQgetResult(ex->pg))) {
        if (rc == 0 && PQresultStatus(res) != PGRES_COMMAND_OK)
            rc = pg_fail(err, ex->pg, res, "writing the target");
        PQclear(res);
    }
    return rc;
}

/* What an export writes into (PostgreSQL, SQLite, a DuckDB file). */
typedef struct export_target {
    /* NULL, or what must be there before the lake is read (a library) */
    int (*load)(rl_error *err);
    /* the target opened in its transaction, found to hold no DuckLake
     * catalog yet, and the lake's tables created there */
    int (*open)(exporter *ex, const char *target, rl_error *err);
    /* one table's rows; the row count a table has there */
    int (*copy_table)(exporter *ex, const ttable *t, rl_error *err);
    int (*count)(exporter *ex, const ttable *t, int64_t *have, rl_error *err);
    int (*commit)(exporter *ex, rl_error *err);
    /* "PostgreSQL database D (schema S)", "SQLite file F": the report's words */
    void (*describe)(const exporter *ex, FILE *out);
    /* NULL, or the target closed before exporter_free (failed: its
     * transaction rolled back, a file the export made removed) */
    void (*close)(exporter *ex, bool failed);
} export_target;

/* Every table's rows into the target (with progress), then each table's
 * row count there against the lake's: 0 to commit, 1 interrupted, -1. */
static int export_tables(exporter *ex, const export_target *to, rl_error *err)
{
    ex->prog.tables = ex->tables.n;
    ex->prog.total = ex->tables.total_rows;
    ex->prog.t0 = now_s();
    for (size_t i = 0; i < ex->tables.n; i++) {
        int rc = ex->tables.t[i].rows ? to->copy_table(ex, &ex->tables.t[i], err) : 0;
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
    for (size_t i = 0; i < ex->tables.n; i++) {
        const ttable *t = &ex->tables.t[i];
        int64_t have = -1;
        if (to->count(ex, t, &have, err) < 0)
            return -1;
        if (have != t->rows)
            return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                                "table %s has %" PRId64 " rows in the target, the lake %" PRId64,
                                t->name, have, t->rows);
    }
    return interrupted ? 1 : 0;
}

/* The lake opened and read, the target opened, every table copied and
 * checked, the target committed: 0, 1 interrupted, -1. */
static int export_run(exporter *ex, const export_target *to, const char *lake_url,
                      const char *target, rl_error *err)
{
    if (to->load && to->load(err) < 0) /* before the lake is read: no library, no work */
        return -1;
    if (export_open_lake(ex, lake_url, err) < 0 || export_discover(ex, err) < 0 ||
        to->open(ex, target, err) < 0)
        return -1;
    int rc = export_tables(ex, to, err);
    return rc != 0 ? rc : to->commit(ex, err);
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

/* An export of the lake at lake_url into `to`'s target: progress when asked
 * for, the report's line when done, then the target closed and the
 * exporter freed. */
static rl_transfer_result export_to(exporter *ex, const export_target *to, const char *lake_url,
                                    const char *target, const rl_transfer_opts *o, FILE *report,
                                    rl_error *err)
{
    double t0 = transfer_start(&ex->prog, o, "export");
    int rc = export_run(ex, to, lake_url, target, err);
    transfer_stopped(&ex->prog, rc);
    if (rc == 0) {
        fprintf(report, "exported %zu tables, %" PRId64 " rows from %s to ", ex->tables.n,
                ex->tables.total_rows, lake_url);
        to->describe(ex, report);
        fprintf(report, " in %.1f s\n", now_s() - t0);
    }
    if (to->close)
        to->close(ex, rc != 0);
    exporter_free(ex);
    return transfer_result(rc);
}

/* The target database connected, in its transaction, with no DuckLake
 * catalog in the schema yet, and the lake's tables created there. */
static int pg_target_open(exporter *ex, const char *target, rl_error *err)
{
    if (!(ex->pg = pg_connect(target, "target PostgreSQL", true, err)) ||
        pg_session_setup(ex->pg, err) < 0 || pg_exec(ex->pg, "BEGIN", err) < 0 ||
        target_check_empty(ex, err) < 0 ||
        create_tables(ex, ex->schema, pg_col_type, pg_target_exec, err) < 0)
        return -1;
    return 0;
}

/* The row count a table has in the target schema. */
static int pg_target_count(exporter *ex, const ttable *t, int64_t *have, rl_error *err)
{
    return count_rows(ex->pg, NULL, ex->schema, t, have, err);
}

/* The target's transaction committed. */
static int pg_target_commit(exporter *ex, rl_error *err)
{
    return pg_target_exec(ex, "COMMIT", err);
}

/* The report's words for the target. */
static void pg_target_describe(const exporter *ex, FILE *out)
{
    fprintf(out, "PostgreSQL database %s (schema %s)", PQdb(ex->pg), ex->schema);
}

static const export_target pg_target = {NULL, pg_target_open, export_table, pg_target_count,
                                        pg_target_commit, pg_target_describe, NULL};


rl_transfer_result rl_export_postgres(const char *lake_url, const char *target,
                                      const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    exporter ex = {.schema = o && o->schema ? o->schema : "public"};
    if (!ident_ok(ex.schema)) {
        rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER, "--schema \"%s\" is not a plain name",
                     ex.schema);
        return RL_TRANSFER_FAILED;
    }
    return export_to(&ex, &pg_target, lake_url, target, o, report, err);
}

/* ------------------------------------------------------- export to SQLite */

/* The SQLite type DuckLake declares for a column of PostgreSQL type `pg`:
 * integers and booleans BIGINT, bytea BLOB, everything else VARCHAR. */
static const char *sq_col_decl(const ttable *t, size_t col)
{
    const char *pg = t->cols[col].type;
    static const char *const ints[] = {"BIGINT", "INTEGER", "SMALLINT", "BOOLEAN"};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (strcmp(pg, ints[i]) == 0)
            return "BIGINT";
    return strcmp(pg, "BYTEA") == 0 ? "BLOB" : "VARCHAR";
}

static int sq_target_open(exporter *ex, const char *path, rl_error *err)
{
    ex->created = access(path, F_OK) != 0;
    if (sqlite3_open_v2(path, &ex->sq, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK)
        return sq_fail(err, ex->sq, path);
    sqlite3_busy_timeout(ex->sq, 10000);
    if (sqlite3_exec(ex->sq, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return sq_fail(err, ex->sq, path);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(ex->sq, "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                   "name LIKE 'ducklake\\_%' ESCAPE '\\' LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return sq_fail(err, ex->sq, path);
    int step = sqlite3_step(st), rc = 0;
    if (step == SQLITE_ROW)
        rc = file_taken(err, "SQLite", path, (const char *)sqlite3_column_text(st, 0));
    else if (step != SQLITE_DONE)
        rc = sq_fail(err, ex->sq, path);
    sqlite3_finalize(st);
    return rc;
}

/* Statements run on the target file. */
static int sq_target_exec(exporter *ex, const char *sql, rl_error *err)
{
    return sqlite3_exec(ex->sq, sql, NULL, NULL, NULL) == SQLITE_OK
               ? 0
               : sq_fail(err, ex->sq, ex->path);
}

/* Bind one lake value to parameter `i` of the INSERT. */
static int sq_bind(exporter *ex, int i, const rl_value *v)
{
    if (v->d.isnull)
        return sqlite3_bind_null(ex->ins, i);
    switch (rl_oid_type(v->oid)) {
    case RL_T_BOOL:
        return sqlite3_bind_int64(ex->ins, i, v->d.v.b ? 1 : 0);
    case RL_T_BYTEA:
        return sqlite3_bind_blob64(ex->ins, i, v->d.v.s.len ? v->d.v.s.p : (const uint8_t *)"",
                                   v->d.v.s.len, SQLITE_TRANSIENT);
    default:
        break;
    }
    rl_buf_reset(&ex->text);
    rl_value_to_text(&ex->text, v);
    if (ex->text.failed)
        return SQLITE_NOMEM;
    rl_type t = rl_oid_type(v->oid);
    if (t == RL_T_INT8 || t == RL_T_INT4 || t == RL_T_INT2) {
        rl_buf_put(&ex->text, "", 1);
        return sqlite3_bind_int64(ex->ins, i, strtoll((const char *)ex->text.data, NULL, 10));
    }
    return sqlite3_bind_text64(ex->ins, i, ex->text.len ? (const char *)ex->text.data : "",
                               ex->text.len, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/* One lake row -> one INSERT on the target. */
static int sq_export_row(void *ctx, size_t ncols, const rl_value *vals)
{
    exporter *ex = ctx;
    if (interrupted)
        return -1;
    int rc = SQLITE_OK;
    for (size_t c = 0; c < ncols && rc == SQLITE_OK; c++)
        rc = sq_bind(ex, (int)c + 1, &vals[c]);
    if (rc == SQLITE_OK && sqlite3_step(ex->ins) != SQLITE_DONE)
        rc = SQLITE_ERROR;
    sqlite3_reset(ex->ins);
    if (rc != SQLITE_OK) {
        ex->copy_failed = true;
        sq_fail(&ex->copy_err, ex->sq, "writing the target");
        return -1;
    }
    return export_row_done(ex);
}

static int sq_export_table(exporter *ex, const ttable *t, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    insert_head(&q, t, " VALUES (");
    for (size_t i = 0; i < t->ncols; i++)
        rl_buf_put_str(&q, i ? ", ?" : "?");
    rl_buf_put(&q, ")", 2);
    int rc = sqlite3_prepare_v2(ex->sq, (const char *)q.data, -1, &ex->ins, NULL) == SQLITE_OK
                 ? 0
                 : sq_fail(err, ex->sq, ex->path);
    rl_buf_free(&q);
    if (rc == 0)
        rc = export_rows(ex, t, sq_export_row, err);
    sqlite3_finalize(ex->ins);
    ex->ins = NULL;
    return rc;
}

/* The row count a table has in the SQLite target (the source's count). */
static int sq_target_count(exporter *ex, const ttable *t, int64_t *have, rl_error *err)
{
    sq_source src = {.db = ex->sq, .path = ex->path};
    ttable there = *t;
    if (sqs_count(&src, &there, err) < 0)
        return -1;
    *have = there.rows;
    return 0;
}

/* The SQLite file opened (made if missing) in its write transaction, with
 * no DuckLake catalog yet, and the lake's tables created there. */
static int sq_target_ready(exporter *ex, const char *target, rl_error *err)
{
    rl_buf_init(&ex->text, 0);
    if (sq_target_open(ex, ex->path, err) < 0)
        return -1;
    return create_tables(ex, NULL, sq_col_decl, sq_target_exec, err);
}

/* The target file's transaction committed. */
static int sq_target_commit(exporter *ex, rl_error *err)
{
    return sq_target_exec(ex, "COMMIT", err);
}

/* The report's words for the target. */
static void sq_target_describe(const exporter *ex, FILE *out)
{
    fprintf(out, "SQLite file %s", ex->path);
}

/* The target file closed; after a failure rolled back first, and removed
 * when this export made it (it holds nothing). */
static void sq_target_close(exporter *ex, bool failed)
{
    if (failed && ex->sq)
        sqlite3_exec(ex->sq, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(ex->sq);
    ex->sq = NULL;
    if (failed && ex->created)
        unlink(ex->path);
    rl_buf_free(&ex->text);
}

/* ------------------------------------------------------- export to DuckDB */

/* DuckLake's name of a column type (ducklake_column.column_type) as the
 * DuckDB type it creates an inlined column with; NULL for a nested type
 * (list, struct, map: built from the children) or an unknown name. */
static const char *dk_scalar_type(const char *lake)
{
    static const char *const map[][2] = {
        {"int8", "TINYINT"},      {"int16", "SMALLINT"},     {"int32", "INTEGER"},
        {"int64", "BIGINT"},      {"int128", "HUGEINT"},     {"uint8", "UTINYINT"},
        {"uint16", "USMALLINT"},  {"uint32", "UINTEGER"},    {"uint64", "UBIGINT"},
        {"uint128", "UHUGEINT"},  {"float32", "FLOAT"},      {"float64", "DOUBLE"},
        {"boolean", "BOOLEAN"},   {"varchar", "VARCHAR"},    {"blob", "BLOB"},
        {"json", "JSON"},         {"uuid", "UUID"},          {"date", "DATE"},
        {"time", "TIME"},         {"timetz", "TIME WITH TIME ZONE"},
        {"timestamp", "TIMESTAMP"}, {"timestamptz", "TIMESTAMP WITH TIME ZONE"},
        {"timestamp_s", "TIMESTAMP_S"}, {"timestamp_ms", "TIMESTAMP_MS"},
        {"timestamp_ns", "TIMESTAMP_NS"}, {"interval", "INTERVAL"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(lake, map[i][0]) == 0)
            return map[i][1];
    return NULL;
}

/* ducklake_column rows of one table (column_id, column_name, column_type,
 * parent_column, begin_snapshot, end_snapshot) and the snapshot its inlined
 * table's schema version began at (-1: unknown, take the live columns). */
typedef struct dk_cols {
    trows r;
    int64_t at;
} dk_cols;

static bool dk_col_live(const dk_cols *k, size_t i)
{
    const char *b = cell(&k->r, i, 4), *e = cell(&k->r, i, 5);
    if (k->at < 0)
        return !e;
    return b && strtoll(b, NULL, 10) <= k->at && (!e || strtoll(e, NULL, 10) > k->at);
}

/* The DuckDB type of ducklake_column row i into b; false if DuckLake's type
 * name is not known here. */
static bool dk_type_of(const dk_cols *k, size_t i, rl_buf *b, int depth)
{
    const char *ty = cell(&k->r, i, 2), *id = cell(&k->r, i, 0);
    if (!ty || !id || depth > 32)
        return false;
    const char *scalar = dk_scalar_type(ty);
    if (scalar) {
        rl_buf_put_str(b, scalar);
        return true;
    }
    int p, s;
    if (sscanf(ty, "decimal(%d,%d)", &p, &s) == 2) {
        rl_buf_printf(b, "DECIMAL(%d,%d)", p, s);
        return true;
    }
    bool list = strcmp(ty, "list") == 0, map = strcmp(ty, "map") == 0;
    if (!list && !map && strcmp(ty, "struct") != 0)
        return false;
    rl_buf_put_str(b, list ? "" : map ? "MAP(" : "STRUCT(");
    size_t kids = 0;
    for (size_t c = 0; c < k->r.nrows; c++) {
        const char *parent = cell(&k->r, c, 3);
        if (!parent || strcmp(parent, id) != 0 || !dk_col_live(k, c))
            continue;
        if (kids++)
            rl_buf_put_str(b, ", ");
        if (!list && !map) {
            quote_ident(b, cell(&k->r, c, 1) ? cell(&k->r, c, 1) : "");
            rl_buf_put(b, " ", 1);
        }
        if (!dk_type_of(k, c, b, depth + 1))
            return false;
    }
    rl_buf_put_str(b, list ? "[]" : ")");
    return kids > 0 && (!list || kids == 1) && (!map || kids == 2);
}

static int64_t lake_int(rl_session *s, const char *sql, rl_error *err, int *rc)
{
    trows r;
    if (lake_rows(s, sql, &r, err) < 0) {
        *rc = -1;
        return -1;
    }
    int64_t v = r.nrows && cell(&r, 0, 0) ? strtoll(cell(&r, 0, 0), NULL, 10) : -1;
    trows_free(&r);
    return v;
}

static bool has_table(const tlist *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->t[i].name, name) == 0)
            return true;
    return false;
}

/* The DuckDB types of an inlined-data table's columns, as DuckLake created
 * them in a DuckDB file: each user column's from ducklake_column as of the
 * schema version the table holds (ducklake_inlined_data_tables), the rest
 * (row_id, snapshots) and any column not found there from its lake type. */
static int dk_inlined_types(exporter *ex, ttable *t, rl_error *err)
{
    if (!has_table(&ex->tables, "ducklake_inlined_data_tables") ||
        !has_table(&ex->tables, "ducklake_column"))
        return 0; /* nothing says what the table holds: its lake types */
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "SELECT table_id, schema_version FROM public.ducklake_inlined_data_tables "
                       "WHERE table_name = ");
    quote_literal(&q, t->name);
    rl_buf_put(&q, "", 1);
    trows which;
    int rc = lake_rows(ex->s, (const char *)q.data, &which, err);
    if (rc < 0 || !which.nrows || !cell(&which, 0, 0) || !cell(&which, 0, 1)) {
        if (rc == 0)
            trows_free(&which);
        rl_buf_free(&q);
        return rc;
    }
    long long table_id = strtoll(cell(&which, 0, 0), NULL, 10);
    long long version = strtoll(cell(&which, 0, 1), NULL, 10);
    trows_free(&which);
    dk_cols k = {.at = -1};
    if (has_table(&ex->tables, "ducklake_schema_versions")) {
        rl_buf_reset(&q);
        rl_buf_printf(&q, "SELECT min(begin_snapshot) FROM public.ducklake_schema_versions WHERE "
                          "table_id = %lld AND schema_version = %lld", table_id, version);
        rl_buf_put(&q, "", 1);
        k.at = lake_int(ex->s, (const char *)q.data, err, &rc);
    }
    if (rc == 0 && k.at < 0) {
        rl_buf_reset(&q);
        rl_buf_printf(&q, "SELECT min(snapshot_id) FROM public.ducklake_snapshot WHERE "
                          "schema_version = %lld", version);
        rl_buf_put(&q, "", 1);
        k.at = lake_int(ex->s, (const char *)q.data, err, &rc);
    }
    rl_buf_reset(&q);
    rl_buf_printf(&q, "SELECT column_id, column_name, column_type, parent_column, begin_snapshot, "
                      "end_snapshot FROM public.ducklake_column WHERE table_id = %lld "
                      "ORDER BY column_order, column_id", table_id);
    rl_buf_put(&q, "", 1);
    if (rc == 0)
        rc = lake_rows(ex->s, (const char *)q.data, &k.r, err);
    rl_buf_free(&q);
    if (rc < 0)
        return -1;
    rl_buf b;
    rl_buf_init(&b, 0);
    for (size_t c = 0; c < t->ncols && rc == 0; c++) {
        for (size_t i = 0; i < k.r.nrows; i++) {
            const char *name = cell(&k.r, i, 1);
            if (cell(&k.r, i, 3) || !name || strcmp(name, t->cols[c].name) != 0 ||
                !dk_col_live(&k, i))
                continue;
            rl_buf_reset(&b);
            if (dk_type_of(&k, i, &b, 0)) {
                rl_buf_put(&b, "", 1);
                if (b.failed || !(t->xtypes[c] = strdup((const char *)b.data)))
                    rc = rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
            }
            break;
        }
    }
    rl_buf_free(&b);
    trows_free(&k.r);
    return rc;
}

/* A column's type in the DuckDB file: an inlined column's DuckDB type, or
 * the lake's (PostgreSQL) spelling, which DuckDB reads as the type DuckLake
 * uses there (BIGINT, VARCHAR, BOOLEAN, UUID, TIMESTAMP WITH TIME ZONE). */
static const char *dk_col_decl(const ttable *t, size_t col)
{
    return t->xtypes && t->xtypes[col] ? t->xtypes[col] : t->cols[col].type;
}

static int dk_target_open(exporter *ex, rl_error *err)
{
    dk_conn *d = &ex->dk;
    ex->created = access(ex->path, F_OK) != 0;
    if (dk_open(d, ex->path, "rl_target", false, err) < 0)
        return -1;
    trows r;
    if (dk_rows(d, "SELECT table_name FROM duckdb_tables() WHERE database_name = 'rl_target' "
                   "AND starts_with(table_name, 'ducklake_') LIMIT 1", &r, err) < 0)
        return -1;
    int rc = r.nrows ? file_taken(err, "DuckDB", ex->path, cell(&r, 0, 0)) : 0;
    trows_free(&r);
    return rc < 0 ? -1 : dk_exec(d, "BEGIN TRANSACTION", err);
}

/* Statements run on the target file. */
static int dk_target_exec(exporter *ex, const char *sql, rl_error *err)
{
    return dk_exec(&ex->dk, sql, err);
}

static int dk_target_create(exporter *ex, rl_error *err)
{
    for (size_t i = 0; i < ex->tables.n; i++) {
        ttable *t = &ex->tables.t[i];
        if (strncmp(t->name, "ducklake_inlined_data_", 22) != 0 ||
            strcmp(t->name, "ducklake_inlined_data_tables") == 0)
            continue;
        if (!(t->xtypes = calloc(t->ncols, sizeof *t->xtypes)))
            return rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
        if (dk_inlined_types(ex, t, err) < 0)
            return -1;
    }
    return create_tables(ex, NULL, dk_col_decl, dk_target_exec, err);
}

/* The type of column `col` in the staging table: the type dk_append
 * appends its values as (the lake's integers, booleans, a bytea for a BLOB
 * column; every other value is appended as text). */
static const char *dk_stage_type(const ttable *t, size_t col)
{
    const char *lake = t->cols[col].type, *decl = dk_col_decl(t, col);
    if (strcmp(lake, "BOOLEAN") == 0)
        return "BOOLEAN";
    if (strcmp(lake, "BIGINT") == 0 || strcmp(lake, "INTEGER") == 0 || strcmp(lake, "SMALLINT") == 0)
        return "BIGINT";
    if (strcmp(lake, "BYTEA") == 0 && (strcmp(decl, "BLOB") == 0 || strcmp(decl, "BYTEA") == 0))
        return "BLOB";
    return "VARCHAR";
}

/* Append one lake value to the staging row: booleans and integers as
 * themselves, a bytea as a BLOB's bytes (or, for the VARCHAR DuckLake keeps
 * as bytea on PostgreSQL, as text), everything else as its text, which the
 * INSERT from the staging table casts to the column's DuckDB type. */
static duckdb_state dk_append(exporter *ex, const rl_value *v, const char *stage)
{
    const rl_duckdb_api *api = ex->dk.api;
    if (v->d.isnull)
        return api->append_null(ex->dk_app);
    switch (rl_oid_type(v->oid)) {
    case RL_T_BOOL:
        return api->append_bool(ex->dk_app, v->d.v.b);
    case RL_T_INT8:
    case RL_T_INT4:
    case RL_T_INT2:
        return api->append_int64(ex->dk_app, v->d.v.i);
    case RL_T_BYTEA:
        if (strcmp(stage, "BLOB") == 0)
            return api->append_blob(ex->dk_app, v->d.v.s.len ? v->d.v.s.p : (const uint8_t *)"",
                                    v->d.v.s.len);
        return api->append_varchar_length(ex->dk_app,
                                          v->d.v.s.len ? (const char *)v->d.v.s.p : "",
                                          v->d.v.s.len);
    default:
        break;
    }
    rl_buf *text = &ex->dk.line;
    rl_buf_reset(text);
    rl_value_to_text(text, v);
    if (text->failed)
        return DUCKDB_ERROR;
    return api->append_varchar_length(ex->dk_app, text->len ? (const char *)text->data : "",
                                      text->len);
}

/* The staged rows into the table (each value cast to its column's DuckDB
 * type), and the staging table emptied. */
static int dk_flush(exporter *ex, rl_error *err)
{
    const ttable *t = ex->dk_cur;
    if (ex->dk.api->appender_flush(ex->dk_app) != DUCKDB_OK)
        return dk_appender_fail(err, "writing the target", ex->dk.api, ex->dk_app);
    rl_buf q;
    rl_buf_init(&q, 0);
    insert_head(&q, t, " SELECT ");
    for (size_t i = 0; i < t->ncols; i++)
        rl_buf_printf(&q, "%sCAST(c%zu AS %s)", i ? ", " : "", i + 1, dk_col_decl(t, i));
    rl_buf_put_str(&q, " FROM temp.main.rl_stage;\nDELETE FROM temp.main.rl_stage");
    rl_buf_put(&q, "", 1);
    int rc = q.failed ? rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory")
                      : dk_exec(&ex->dk, (const char *)q.data, err);
    rl_buf_free(&q);
    ex->dk_in_chunk = 0;
    return rc;
}

/* One lake row into the staging table; every RL_TRANSFER_CHUNK_ROWS rows
 * go on into the target table. */
static int dk_export_row(void *ctx, size_t ncols, const rl_value *vals)
{
    exporter *ex = ctx;
    if (interrupted)
        return -1;
    duckdb_state st = DUCKDB_OK;
    for (size_t c = 0; c < ncols && st == DUCKDB_OK; c++)
        st = dk_append(ex, &vals[c], dk_stage_type(ex->dk_cur, c));
    if (st == DUCKDB_OK)
        st = ex->dk.api->appender_end_row(ex->dk_app);
    if (st != DUCKDB_OK) {
        dk_appender_fail(&ex->copy_err, "writing the target", ex->dk.api, ex->dk_app);
        ex->copy_failed = true;
    } else if (++ex->dk_in_chunk == RL_TRANSFER_CHUNK_ROWS && dk_flush(ex, &ex->copy_err) < 0) {
        ex->copy_failed = true;
    }
    if (ex->copy_failed) {
        rl_error_detail(&ex->copy_err, "in table %s", ex->dk_cur->name);
        return -1;
    }
    return export_row_done(ex);
}

/* A table's rows: appended (DuckDB's fast path) to a staging table of the
 * types they are appended as, then INSERTed with a cast to the column's
 * DuckDB type, a chunk at a time; the staging table is temporary, in the
 * same transaction. */
static int dk_export_table(exporter *ex, const ttable *t, rl_error *err)
{
    const rl_duckdb_api *api = ex->dk.api;
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "CREATE TEMP TABLE rl_stage(");
    for (size_t i = 0; i < t->ncols; i++)
        rl_buf_printf(&q, "%sc%zu %s", i ? ", " : "", i + 1, dk_stage_type(t, i));
    rl_buf_put(&q, ")", 2);
    ex->dk_cur = t;
    ex->dk_in_chunk = 0;
    int rc = q.failed ? rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory")
                      : dk_exec(&ex->dk, (const char *)q.data, err);
    if (rc == 0 &&
        api->appender_create_ext(ex->dk.con, "temp", "main", "rl_stage", &ex->dk_app) != DUCKDB_OK)
        rc = dk_appender_fail(err, ex->path, api, ex->dk_app);
    rl_buf_free(&q);
    if (rc == 0)
        rc = export_rows(ex, t, dk_export_row, err);
    if (rc == 0 && ex->dk_in_chunk) /* the last, partial chunk */
        rc = dk_flush(ex, err);
    if (ex->dk_app)
        api->appender_destroy(&ex->dk_app);
    ex->dk_app = NULL;
    rl_error ignored;
    if (rc == 0)
        rc = dk_exec(&ex->dk, "DROP TABLE temp.main.rl_stage", err);
    else
        dk_exec(&ex->dk, "DROP TABLE IF EXISTS temp.main.rl_stage", &ignored);
    return rc;
}

static int dk_target_count(exporter *ex, const ttable *t, int64_t *have, rl_error *err)
{
    return dk_count(&ex->dk, t, have, err);
}

/* libduckdb loaded (dlopen): an export to a DuckDB file needs it. */
static int dk_target_load(rl_error *err)
{
    return rl_duckdb_load(err) ? 0 : -1;
}

/* The DuckDB file attached (made if missing) in its transaction, with no
 * DuckLake catalog yet, and the lake's tables created there. */
static int dk_target_ready(exporter *ex, const char *target, rl_error *err)
{
    if (dk_target_open(ex, err) < 0)
        return -1;
    return dk_target_create(ex, err);
}

/* Committed, then detached: the file is checkpointed, no WAL is left. */
static int dk_target_commit(exporter *ex, rl_error *err)
{
    if (dk_exec(&ex->dk, "COMMIT", err) < 0 || dk_exec(&ex->dk, "USE memory", err) < 0 ||
        dk_exec(&ex->dk, "DETACH rl_target", err) < 0)
        return -1;
    return 0;
}

/* The report's words for the target. */
static void dk_target_describe(const exporter *ex, FILE *out)
{
    fprintf(out, "DuckDB file %s", ex->path);
}

/* The target file closed; after a failure rolled back first, and removed
 * (with its WAL) when this export made it (it holds nothing). */
static void dk_target_close(exporter *ex, bool failed)
{
    if (failed && ex->dk.con) {
        rl_error ignored;
        dk_exec(&ex->dk, "ROLLBACK", &ignored);
    }
    dk_close(&ex->dk);
    if (failed && ex->created && ex->dk.api) {
        char wal[4096];
        snprintf(wal, sizeof wal, "%s.wal", ex->path);
        unlink(ex->path);
        unlink(wal);
    }
}

static const export_target sq_target = {NULL, sq_target_ready, sq_export_table, sq_target_count,
                                        sq_target_commit, sq_target_describe, sq_target_close};
static const export_target dk_target = {dk_target_load, dk_target_ready, dk_export_table,
                                        dk_target_count, dk_target_commit, dk_target_describe,
                                        dk_target_close};

/* An export into a file (`kind` "SQLite" or "DuckDB": no --schema), named
 * `target` with its 7-byte "sqlite:" / "duckdb:" prefix when prefixed. */
static rl_transfer_result export_file(const export_target *to, const char *kind, bool prefixed,
                                      const char *lake_url, const char *target,
                                      const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    if (!file_no_schema(o, kind, err))
        return RL_TRANSFER_FAILED;
    exporter ex = {.schema = "public", .path = target + (prefixed ? 7 : 0)};
    return export_to(&ex, to, lake_url, target, o, report, err);
}

rl_transfer_result rl_export_sqlite(const char *lake_url, const char *target,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    return export_file(&sq_target, "SQLite", rl_transfer_is_sqlite(target), lake_url, target, o,
                       report, err);
}

rl_transfer_result rl_export_duckdb(const char *lake_url, const char *target,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    return export_file(&dk_target, "DuckDB", rl_transfer_is_duckdb(target), lake_url, target, o,
                       report, err);
}
