/*
 * transfer.c — the shared driver of `rocklake import` and `rocklake export`:
 * a DuckLake catalog moved between a source or target (PostgreSQL,
 * transfer_pg.c; a SQLite file, transfer_sqlite.c; a DuckDB file,
 * transfer_duckdb.c) and a RockLake lake (this process's own SQL engine,
 * sql.h, on the lake's catalog). The backends call in here (transfer_int.h);
 * this file reaches a backend only through the source_ops or export_target
 * it is handed.
 *
 * Owns: text result sets; the table list (every ducklake_* relation, the
 * dynamic inlined-data tables included, with their columns typed as on
 * PostgreSQL: pg_attribute's types, a fixed table's from the descriptors);
 * the CREATE TABLE statements DuckDB's ducklake extension would send; the
 * lake side of both directions; progress; interruption; the import and
 * export runs and the verification at their end.
 *
 * Invariants:
 *  - the lake side of an export is read in one RockLake transaction
 *    (REPEATABLE READ), so it copies one consistent catalog (each backend
 *    reads an import's source in one transaction of its own: source_ops);
 *  - an import writes the copy-incomplete marker durably before its
 *    first row (in the batch that creates the catalog) and removes it only
 *    after every table's row count equals the source's and rl_check_copy
 *    reported nothing: a lake without the marker is complete; an error,
 *    interrupt or kill leaves the marker;
 *  - an import commits at most RL_TRANSFER_CHUNK_ROWS rows at a time, so
 *    memory stays bounded by a chunk, not by the catalog (a source streams
 *    its rows: a DuckDB source reads pages of that many rows);
 *  - an export commits its target only after every table's row count
 *    there equals the lake's (the target writes in one transaction of its
 *    own: export_target): a target is either untouched or complete;
 *  - Parquet files are never touched: data_path rows are copied verbatim.
 */
#include "cli/transfer_int.h"

#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "catalog/catalog.h"
#include "cli/check.h"
#include "keys/desc.h"
#include "sql/sql.h"

volatile sig_atomic_t xfer_interrupted;

void rl_transfer_interrupt(void) { xfer_interrupted = 1; }

/* ------------------------------------------------------------ results */

void xfer_trows_free(trows *r)
{
    for (size_t i = 0; i < r->nrows * r->ncols; i++)
        free(r->cells[i]);
    free(r->cells);
    memset(r, 0, sizeof *r);
}

const char *xfer_cell(const trows *r, size_t row, size_t col)
{
    return r->cells[row * r->ncols + col];
}

/* Append one row of ncols cells (copied; NULL stays NULL). */
void xfer_trows_add(trows *r, const char *const *vals, const size_t *lens)
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
    xfer_trows_add(rs->rows, p, l);
    return rs->rows->oom ? -1 : 0;
}

/* Run one statement on the lake's session and collect its rows. */
int xfer_lake_rows(rl_session *s, const char *sql, trows *out, rl_error *err)
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
    xfer_trows_free(out);
    return -1;
}

static int lake_exec(rl_session *s, const char *sql, rl_error *err)
{
    trows r;
    if (xfer_lake_rows(s, sql, &r, err) < 0)
        return -1;
    xfer_trows_free(&r);
    return 0;
}

/* ------------------------------------------------------------- tables */

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
int xfer_tlist_build(const trows *r, tlist *l, rl_error *err)
{
    memset(l, 0, sizeof *l);
    for (size_t i = 0; i < r->nrows; i++) {
        const char *rel = xfer_cell(r, i, 0), *att = xfer_cell(r, i, 1), *typ = xfer_cell(r, i, 2);
        if (!rel || !att || !typ || strncmp(rel, "ducklake_", 9) != 0)
            continue;
        tcol *c;
        if (tlist_add_col(l, rel, att, &c, err) < 0)
            return -1;
        long typmod = xfer_cell(r, i, 3) ? strtol(xfer_cell(r, i, 3), NULL, 10) : -1;
        if (!sql_type(typ, typmod, c->type, sizeof c->type))
            return rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                                "column %s.%s has type %s, which a DuckLake catalog does not use",
                                rel, att, typ);
        c->notnull = xfer_cell(r, i, 4) && xfer_cell(r, i, 4)[0] == 't';
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
void xfer_columns_sql(rl_buf *q, const char *schema, bool pg_source)
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

void xfer_quote_literal(rl_buf *b, const char *s)
{
    rl_buf_put(b, "'", 1);
    for (; *s; s++) {
        rl_buf_put(b, s, 1);
        if (*s == '\'')
            rl_buf_put(b, s, 1); /* doubled */
    }
    rl_buf_put(b, "'", 1);
}

void xfer_quote_ident(rl_buf *b, const char *s)
{
    rl_buf_put(b, "\"", 1);
    for (; *s; s++) {
        rl_buf_put(b, s, 1);
        if (*s == '"') /* doubled inside a quoted identifier */
            rl_buf_put(b, s, 1);
    }
    rl_buf_put(b, "\"", 1);
}

const char *xfer_pg_col_type(const ttable *t, size_t col)
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
        xfer_quote_ident(q, schema);
        rl_buf_put(q, ".", 1);
    }
    xfer_quote_ident(q, t->name);
    rl_buf_put(q, "(", 1);
    for (size_t i = 0; i < t->ncols; i++) {
        if (i)
            rl_buf_put(q, ", ", 2);
        xfer_quote_ident(q, t->cols[i].name);
        rl_buf_printf(q, " %s", type_of(t, i));
        if (pk && strcmp(pk, t->cols[i].name) == 0)
            rl_buf_put_str(q, " PRIMARY KEY");
        else if (t->cols[i].notnull)
            rl_buf_put_str(q, " NOT NULL");
    }
    rl_buf_put_str(q, ");\n");
}

void xfer_column_list(rl_buf *q, const ttable *t)
{
    for (size_t i = 0; i < t->ncols; i++) {
        if (i)
            rl_buf_put(q, ", ", 2);
        xfer_quote_ident(q, t->cols[i].name);
    }
}

void xfer_qualified(rl_buf *q, const char *schema, const char *table)
{
    xfer_quote_ident(q, schema);
    rl_buf_put(q, ".", 1);
    xfer_quote_ident(q, table);
}

/* ----------------------------------------------------------- progress */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void xfer_progress_show(progress *p, bool force)
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
        xfer_progress_show(p, true);
        fputc('\n', stderr);
    }
}

/* A transfer's start (verb "import" / "export"): its progress line when
 * asked for, no interrupt pending; the start time. */
static double transfer_start(progress *p, const rl_transfer_opts *o, const char *verb)
{
    *p = (progress){.on = o && o->progress, .verb = verb, .t0 = now_s()};
    xfer_interrupted = 0;
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

/* ---------------------------------------------------------- row counts */

void xfer_count_sql(rl_buf *q, const char *schema, const ttable *t)
{
    rl_buf_put_str(q, "SELECT count(*) FROM ");
    xfer_qualified(q, schema, t->name);
    rl_buf_put(q, "", 1);
}

/* A count(*) query's answer: rc is how running it went (its rows in r,
 * freed here when it ran); the count into *out (-1 when there is none),
 * or -1 when the query failed. */
int xfer_count_answer(int rc, trows *r, int64_t *out)
{
    if (rc < 0)
        return -1;
    *out = r->nrows && xfer_cell(r, 0, 0) ? strtoll(xfer_cell(r, 0, 0), NULL, 10) : -1;
    xfer_trows_free(r);
    return 0;
}

/* The row count of table t in the lake's schema `schema`. */
static int lake_count(rl_session *s, const char *schema, const ttable *t, int64_t *out,
                      rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    xfer_count_sql(&q, schema, t);
    trows r;
    int rc = xfer_lake_rows(s, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    return xfer_count_answer(rc, &r, out);
}

/* ------------------------------------------------- what sources share */

/* A row's COPY text in `line` ended with its newline and handed to `row`;
 * its result, or -1 when the text ran out of memory. */
int xfer_line_out(rl_buf *line, row_fn row, void *ctx, rl_error *err)
{
    rl_buf_put(line, "\n", 1);
    return line->failed ? rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory")
                        : row(ctx, (const char *)line->data, line->len, err);
}

/* A fixed table's column: its type and NOT NULL from RockLake's descriptor
 * (DuckLake's PostgreSQL types); 0 when `rel`.`att` is not one, -1 when its
 * type has no CREATE TABLE spelling. */
int xfer_desc_col_type(const char *rel, const char *att, tcol *c)
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

/* Add column `att` (declared `decl` on `side`) of table `rel` to l. */
int xfer_add_col(tlist *l, const char *rel, const char *att, const char *decl,
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

/* A text value as COPY text: backslash, tab, newline and CR escaped. */
void xfer_copy_text(rl_buf *b, const unsigned char *s, size_t n)
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

/* A file catalog is read from its main schema: --schema is refused, not
 * ignored. */
static bool file_no_schema(const rl_transfer_opts *o, const char *kind, rl_error *err)
{
    if (!o || !o->schema)
        return true;
    rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER, "--schema does not apply to a %s file", kind);
    return false;
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
    size_t extras, extras_skipped; /* the source's indexes, constraints, comments */
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
        if (im->ops->no_catalog_hint)
            rl_error_hint(err, "%s", im->ops->no_catalog_hint);
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
        create_sql(&q, "public", &im->tables.t[i], xfer_pg_col_type);
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
    xfer_qualified(&q, "public", t->name);
    rl_buf_put(&q, " (", 2);
    xfer_column_list(&q, t);
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
    if (xfer_interrupted)
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
    xfer_progress_show(&im->prog, false);
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
    if (rc == 0 && xfer_interrupted)
        rc = 1;
    return rc;
}

static int import_verify(importer *im, FILE *report, rl_error *err)
{
    for (size_t i = 0; i < im->tables.n; i++) {
        ttable *t = &im->tables.t[i];
        int64_t have = -1;
        if (lake_count(im->s, "public", t, &have, err) < 0)
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

/* The source's indexes, key constraints and comments on the lake's new
 * tables, one statement at a time: one the lake refuses (gist, a foreign
 * key to DuckLake's own primary key: 42704 / 0A000) is left out and
 * counted, any other error fails the import. UNIQUE indexes over
 * expressions or with a predicate come along (the session evaluates
 * them). */
static int import_extras(importer *im, rl_error *err)
{
    if (!im->ops->extras)
        return 0;
    rl_buf stmts;
    rl_buf_init(&stmts, 0);
    size_t n;
    int rc = im->ops->extras(im->src, &im->tables, &stmts, &n, err);
    for (size_t off = 0; rc == 0 && off < stmts.len;) {
        const char *st = (const char *)stmts.data + off;
        off += strlen(st) + 1;
        rl_error e;
        memset(&e, 0, sizeof e);
        if (lake_exec(im->s, st, &e) == 0) {
            im->extras++;
            continue;
        }
        if (strcmp(e.sqlstate, RL_SQLSTATE_FEATURE_NOT_SUPPORTED) == 0 ||
            strcmp(e.sqlstate, RL_SQLSTATE_UNDEFINED_OBJECT) == 0) {
            im->extras_skipped++;
            continue;
        }
        *err = e;
        rl_error_detail(err, "while recreating the source's %s", st);
        rc = -1;
    }
    rl_buf_free(&stmts);
    return rc;
}

static int import_run(importer *im, const char *source, const char *lake_url, FILE *report,
                      rl_error *err)
{
    if (im->ops->open(im->src, source, err) < 0)
        return -1;
    rl_format fmt;
    if (source_discover(im, &fmt, err) < 0 || source_count(im, err) < 0)
        return -1;
    if (xfer_interrupted)
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
        xfer_progress_show(&im->prog, false);
    }
    progress_end(&im->prog);
    im->prog.on = false;
    if (import_extras(im, err) < 0 || import_verify(im, report, err) < 0)
        return -1;
    im->ops->finish(im->src, err);
    if (xfer_interrupted)
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

rl_transfer_result xfer_import(const source_ops *ops, void *src, const char *what,
                               const char *source, const char *lake_url,
                               const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    importer imp = {.ops = ops, .src = src, .what = what}, *im = &imp;
    double t0 = transfer_start(&im->prog, o, "import");
    int rc = import_run(im, source, lake_url, report, err);
    transfer_stopped(&im->prog, rc);
    if (rc == 0) {
        fprintf(report, "imported %zu tables, %" PRId64 " rows into %s (DuckLake %s) in %.1f s; "
                        "check: ok\n",
                im->tables.n, im->tables.total_rows, lake_url,
                rl_format_name(rl_catalog_format(im->cat)), now_s() - t0);
        if (im->extras)
            fprintf(report, "recreated %zu indexes, constraints and comments of the source\n",
                    im->extras);
        if (im->extras_skipped)
            fprintf(report,
                    "warning: %zu indexes or constraints of the source were left out "
                    "(gist/gin indexes, foreign keys to DuckLake's own primary keys: "
                    "RockLake does not keep them)\n",
                    im->extras_skipped);
    }
    importer_free(im);
    return transfer_result(rc);
}

/* An import from a file (`kind` "SQLite" or "DuckDB": no --schema) read
 * through `ops` on `src`, named `source` with its 7-byte "sqlite:" /
 * "duckdb:" prefix when prefixed. */
rl_transfer_result xfer_import_file(const source_ops *ops, void *src, const char *kind,
                                    bool prefixed, const char *source, const char *lake_url,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    if (!file_no_schema(o, kind, err))
        return RL_TRANSFER_FAILED;
    char what[32];
    snprintf(what, sizeof what, "the %s file", kind);
    return xfer_import(ops, src, what, source + (prefixed ? 7 : 0), lake_url, o, report, err);
}

/* -------------------------------------------------------------- export */

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
    xfer_columns_sql(&q, "public", false);
    trows r;
    int rc = xfer_lake_rows(ex->s, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    if (rc < 0)
        return -1;
    rc = xfer_tlist_build(&r, &ex->tables, err);
    xfer_trows_free(&r);
    if (rc < 0)
        return -1;
    if (ex->tables.n == 0)
        return rl_error_set(err, RL_SQLSTATE_UNDEFINED_TABLE,
                            "the lake has no DuckLake tables yet (attach it with DuckDB once)");
    qsort(ex->tables.t, ex->tables.n, sizeof *ex->tables.t, table_cmp);
    for (size_t i = 0; i < ex->tables.n; i++) {
        if (lake_count(ex->s, "public", &ex->tables.t[i], &ex->tables.t[i].rows, err) < 0)
            return -1;
        ex->tables.total_rows += ex->tables.t[i].rows;
    }
    return 0;
}

/* Appends "INSERT INTO "<t>"" and `rest` (a file target's tables are
 * unqualified). */
void xfer_insert_head(rl_buf *q, const ttable *t, const char *rest)
{
    rl_buf_put_str(q, "INSERT INTO ");
    xfer_quote_ident(q, t->name);
    rl_buf_put_str(q, rest);
}

/* The CREATE TABLE statements for every table exported, in `schema` (NULL:
 * unqualified; a schema other than public is created first) with column
 * types from type_of, run on the target by `run`. */
int xfer_create_tables(exporter *ex, const char *schema, col_type_fn type_of,
                       target_exec_fn run, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    if (schema && strcmp(schema, "public") != 0) {
        rl_buf_put_str(&q, "CREATE SCHEMA IF NOT EXISTS ");
        xfer_quote_ident(&q, schema);
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
int xfer_file_taken(rl_error *err, const char *kind, const char *path, const char *table)
{
    rl_error_set(err, RL_SQLSTATE_DUPLICATE_TABLE,
                 "the target %s file \"%s\" already has a DuckLake catalog (table %s)", kind, path,
                 table);
    rl_error_hint(err, "export into a new file; nothing was written");
    return -1;
}

/* Appends "SELECT <t's columns> FROM public.<t>": the lake's query for all
 * of a table's rows (no terminating NUL). */
void xfer_select_sql(rl_buf *q, const ttable *t)
{
    rl_buf_put_str(q, "SELECT ");
    xfer_column_list(q, t);
    rl_buf_put_str(q, " FROM ");
    xfer_qualified(q, "public", t->name);
}

/* What copying a table came to once the lake's query `st` ended: 1 when
 * interrupted, -1 when the target refused a row (its error, kept in
 * copy_err, into err) or the query failed, else 0. */
int xfer_export_outcome(exporter *ex, rl_exec_status st, rl_error *err)
{
    if (xfer_interrupted)
        return 1;
    if (ex->copy_failed) {
        *err = ex->copy_err;
        return -1;
    }
    return st == RL_EXEC_DONE ? 0 : -1;
}

/* A table's rows from the lake, each handed to `row` (the target's writer,
 * with the exporter as its context); the outcome as xfer_export_outcome's. */
int xfer_export_rows(exporter *ex, const ttable *t,
                     int (*row)(void *ctx, size_t ncols, const rl_value *vals), rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    xfer_select_sql(&q, t);
    rl_buf_put(&q, "", 1);
    rl_sink k = {.ctx = ex, .data_row = row};
    rl_exec_status st = rl_session_simple_query(ex->s, (const char *)q.data, &k, err);
    rl_buf_free(&q);
    return xfer_export_outcome(ex, st, err);
}

/* One more row written to the target: the progress line follows. */
int xfer_export_row_done(exporter *ex)
{
    ex->prog.rows++;
    xfer_progress_show(&ex->prog, false);
    return 0;
}

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
        xfer_progress_show(&ex->prog, false);
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
    return xfer_interrupted ? 1 : 0;
}

/* ------------------------------------ indexes, constraints, comments */

/* The indexes, key and CHECK constraints and comments a person made on the
 * DuckLake tables of one side (the lake, or a PostgreSQL source: both
 * answer these catalog queries alike), as statements for the other side. The rows are
 * copied first, so a UNIQUE index is built over them as PostgreSQL would
 * build it. A DuckLake table's own primary key is its CREATE TABLE's. */
static const char EXTRAS_SQL[] =
    "SELECT tc.relname, ic.relname, con.contype, pg_get_constraintdef(con.oid), "
    "pg_get_indexdef(i.indexrelid), i.indisunique "
    "FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid "
    "JOIN pg_class tc ON tc.oid = i.indrelid "
    "LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid "
    "WHERE tc.relnamespace = %s::regnamespace ORDER BY ic.oid";
/* FOREIGN KEYs between the tables of one side, after the indexes (the
 * keys they reference), in creation order. */
static const char FKEYS_SQL[] =
    "SELECT c.relname, con.conname, pg_get_constraintdef(con.oid), f.relname "
    "FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid "
    "JOIN pg_class f ON f.oid = con.confrelid "
    "WHERE con.contype = 'f' AND c.relnamespace = %s::regnamespace "
    "AND f.relnamespace = c.relnamespace ORDER BY con.oid";
static const char CHECKS_SQL[] =
    "SELECT c.relname, con.conname, pg_get_constraintdef(con.oid) FROM pg_constraint con "
    "JOIN pg_class c ON c.oid = con.conrelid "
    "WHERE con.contype = 'c' AND c.relnamespace = %s::regnamespace ORDER BY 1, 2";
static const char COMMENTS_SQL[] =
    "SELECT c.relname, c.relkind, a.attname, d.description FROM pg_description d "
    "JOIN pg_class c ON c.oid = d.objoid "
    "LEFT JOIN pg_attribute a ON a.attrelid = d.objoid AND a.attnum = d.objsubid "
    "WHERE d.classoid = 'pg_class'::regclass AND c.relnamespace = %s::regnamespace "
    "ORDER BY 1, 3 NULLS FIRST";

/* The sequences of one side (CREATE SEQUENCE), in creation order, with
 * the table column that owns one; each one's state is read on its own
 * (SEQUENCE_STATE_SQL) so that a setval(.., false) comes along too. */
static const char SEQUENCES_SQL[] =
    "SELECT c.relname, format_type(s.seqtypid, NULL), s.seqincrement, s.seqmin, s.seqmax, "
    "s.seqstart, s.seqcache, s.seqcycle, t.relname, a.attname "
    "FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid "
    "LEFT JOIN pg_depend d ON d.objid = c.oid AND d.classid = 'pg_class'::regclass "
    "AND d.refclassid = 'pg_class'::regclass AND d.deptype = 'a' "
    "LEFT JOIN pg_class t ON t.oid = d.refobjid "
    "LEFT JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid "
    "WHERE c.relnamespace = %s::regnamespace ORDER BY c.oid";

static bool listed(const tlist *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->t[i].name, name) == 0)
            return true;
    return false;
}

/* Where the statements go: qualified by `schema`, or unqualified (NULL). */
static void qualify(rl_buf *q, const char *schema, const char *name)
{
    if (schema)
        xfer_qualified(q, schema, name);
    else
        xfer_quote_ident(q, name);
}

/* "ALTER TABLE <table> ADD CONSTRAINT <name> ", the definition to follow. */
static void add_constraint(rl_buf *q, const char *schema, const char *table, const char *name)
{
    rl_buf_put_str(q, "ALTER TABLE ");
    qualify(q, schema, table);
    rl_buf_put_str(q, " ADD CONSTRAINT ");
    xfer_quote_ident(q, name);
    rl_buf_put(q, " ", 1);
}

/* One index or key constraint of a listed table as its statement. */
static bool index_statement(const tlist *l, const trows *r, size_t row, const char *schema,
                            rl_buf *q)
{
    const char *table = xfer_cell(r, row, 0), *index = xfer_cell(r, row, 1);
    const char *contype = xfer_cell(r, row, 2), *condef = xfer_cell(r, row, 3);
    const char *indexdef = xfer_cell(r, row, 4), *unique = xfer_cell(r, row, 5);
    const rl_table_desc *d = rl_desc_by_name(table, RL_FMT_LATEST);
    if (!listed(l, table) || !indexdef)
        return false;
    if (contype && *contype == 'p' && d && d->pk_col >= 0)
        return false; /* DuckLake's own primary key: in its CREATE TABLE */
    if (contype && condef) {
        add_constraint(q, schema, table, index);
        rl_buf_put_str(q, condef);
        return true;
    }
    const char *using = strstr(indexdef, " USING ");
    if (!using)
        return false;
    rl_buf_printf(q, "CREATE %sINDEX ", unique && *unique == 't' ? "UNIQUE " : "");
    xfer_quote_ident(q, index);
    rl_buf_put_str(q, " ON ");
    qualify(q, schema, table);
    rl_buf_put_str(q, using);
    return true;
}

/* One FOREIGN KEY between listed tables as its ALTER TABLE ... ADD
 * CONSTRAINT, its REFERENCES target qualified for the other side (the
 * definition names it as the source's search path shows it). */
static bool fkey_statement(const tlist *l, const trows *r, size_t row, const char *schema,
                           rl_buf *q)
{
    const char *table = xfer_cell(r, row, 0), *name = xfer_cell(r, row, 1);
    const char *condef = xfer_cell(r, row, 2), *ref = xfer_cell(r, row, 3);
    if (!table || !name || !condef || !ref || !listed(l, table) || !listed(l, ref))
        return false;
    const char *at = strstr(condef, " REFERENCES ");
    const char *cols = at ? strchr(at + 12, '(') : NULL;
    if (!cols)
        return false;
    add_constraint(q, schema, table, name);
    rl_buf_put(q, condef, (size_t)(at + 12 - condef));
    qualify(q, schema, ref);
    rl_buf_put_str(q, cols);
    return true;
}

/* One CHECK constraint of a listed table: ALTER TABLE ... ADD CONSTRAINT
 * with pg_get_constraintdef's text (NO INHERIT and NOT VALID with it: a
 * valid one is checked against the rows copied before it). */
static bool check_statement(const tlist *l, const trows *r, size_t row, const char *schema,
                            rl_buf *q)
{
    const char *table = xfer_cell(r, row, 0), *name = xfer_cell(r, row, 1);
    const char *condef = xfer_cell(r, row, 2);
    if (!table || !name || !condef || !listed(l, table))
        return false;
    add_constraint(q, schema, table, name);
    rl_buf_put_str(q, condef);
    return true;
}

/* One sequence as CREATE SEQUENCE (OWNED BY a listed table's column), and
 * its state as setval when it moved from its start: two statements. */
static int sequence_statements(extras_rows_fn rows, void *ctx, const char *from, const tlist *l,
                               const trows *r, size_t row, const char *to, rl_buf *out,
                               size_t *n, rl_error *err)
{
    const char *name = xfer_cell(r, row, 0), *type = xfer_cell(r, row, 1);
    const char *cycle = xfer_cell(r, row, 7), *table = xfer_cell(r, row, 8);
    const char *column = xfer_cell(r, row, 9);
    if (!name || !type)
        return 0;
    rl_buf_put_str(out, "CREATE SEQUENCE ");
    qualify(out, to, name);
    rl_buf_printf(out, " AS %s INCREMENT BY %s MINVALUE %s MAXVALUE %s START WITH %s CACHE %s %s",
                  type, xfer_cell(r, row, 2), xfer_cell(r, row, 3), xfer_cell(r, row, 4),
                  xfer_cell(r, row, 5), xfer_cell(r, row, 6),
                  cycle && *cycle == 't' ? "CYCLE" : "NO CYCLE");
    if (table && column && listed(l, table)) {
        rl_buf_put_str(out, " OWNED BY ");
        qualify(out, to, table);
        rl_buf_put(out, ".", 1);
        xfer_quote_ident(out, column);
    }
    rl_buf_put(out, "", 1);
    (*n)++;
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "SELECT last_value, is_called FROM ");
    xfer_qualified(&q, from, name);
    rl_buf_put(&q, "", 1);
    trows st = {0};
    int rc = q.failed ? rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory")
                      : rows(ctx, (const char *)q.data, &st, err);
    const char *last = rc == 0 && st.nrows == 1 ? xfer_cell(&st, 0, 0) : NULL;
    const char *called = rc == 0 && st.nrows == 1 ? xfer_cell(&st, 0, 1) : NULL;
    if (last && called && (*called == 't' || strcmp(last, xfer_cell(r, row, 5)) != 0)) {
        rl_buf_reset(&q);
        qualify(&q, to, name);
        rl_buf_put(&q, "", 1);
        rl_buf_put_str(out, "SELECT setval(");
        xfer_quote_literal(out, (const char *)q.data);
        rl_buf_printf(out, ", %s, %s)", last, *called == 't' ? "true" : "false");
        rl_buf_put(out, "", 1);
        (*n)++;
    }
    xfer_trows_free(&st);
    rl_buf_free(&q);
    return rc;
}

/* One comment on a listed table, a column of it, or an index of one. */
static bool comment_statement(const tlist *l, const trows *r, size_t row, const trows *indexes,
                              const char *schema, rl_buf *q)
{
    const char *rel = xfer_cell(r, row, 0), *kind = xfer_cell(r, row, 1);
    const char *col = xfer_cell(r, row, 2), *text = xfer_cell(r, row, 3);
    bool index = kind && *kind == 'i';
    const char *table = index ? NULL : rel;
    for (size_t i = 0; index && i < indexes->nrows; i++)
        if (strcmp(xfer_cell(indexes, i, 1), rel) == 0)
            table = xfer_cell(indexes, i, 0);
    if (!text || !table || !listed(l, table))
        return false;
    rl_buf_printf(q, "COMMENT ON %s ", col ? "COLUMN" : index ? "INDEX" : "TABLE");
    qualify(q, schema, rel);
    if (col) {
        rl_buf_put(q, ".", 1);
        xfer_quote_ident(q, col);
    }
    rl_buf_put_str(q, " IS ");
    xfer_quote_literal(q, text);
    return true;
}

/* The statements of one side (whose catalog queries `rows` answers; its
 * DuckLake tables in schema `from`) for the tables of l, into *out, each
 * ending with a NUL, *n of them, qualified by `to` (NULL: unqualified). */
int xfer_extras(extras_rows_fn rows, void *ctx, const char *from, const tlist *l,
                const char *to, rl_buf *out, size_t *n, rl_error *err)
{
    rl_buf sql, lit;
    rl_buf_init(&sql, 0);
    rl_buf_init(&lit, 0);
    xfer_quote_literal(&lit, from);
    rl_buf_put(&lit, "", 1);
    trows ix = {0}, ck = {0}, cm = {0}, fk = {0}, sq = {0};
    const struct {
        const char *fmt;
        trows *out;
    } queries[] = {{EXTRAS_SQL, &ix}, {CHECKS_SQL, &ck}, {COMMENTS_SQL, &cm},
                   {SEQUENCES_SQL, &sq}, {FKEYS_SQL, &fk}};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < sizeof queries / sizeof queries[0]; i++) {
        rl_buf_reset(&sql);
        rl_buf_printf(&sql, queries[i].fmt, (const char *)lit.data);
        rl_buf_put(&sql, "", 1);
        rc = sql.failed ? rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory")
                        : rows(ctx, (const char *)sql.data, queries[i].out, err);
    }
    *n = 0;
    for (size_t i = 0; rc == 0 && i < ix.nrows; i++)
        if (index_statement(l, &ix, i, to, out)) {
            rl_buf_put(out, "", 1);
            (*n)++;
        }
    for (size_t i = 0; rc == 0 && i < fk.nrows; i++)
        if (fkey_statement(l, &fk, i, to, out)) {
            rl_buf_put(out, "", 1);
            (*n)++;
        }
    xfer_trows_free(&fk);
    for (size_t i = 0; rc == 0 && i < sq.nrows; i++)
        rc = sequence_statements(rows, ctx, from, l, &sq, i, to, out, n, err);
    xfer_trows_free(&sq);
    for (size_t i = 0; rc == 0 && i < ck.nrows; i++)
        if (check_statement(l, &ck, i, to, out)) {
            rl_buf_put(out, "", 1);
            (*n)++;
        }
    for (size_t i = 0; rc == 0 && i < cm.nrows; i++)
        if (comment_statement(l, &cm, i, &ix, to, out)) {
            rl_buf_put(out, "", 1);
            (*n)++;
        }
    xfer_trows_free(&ix);
    xfer_trows_free(&ck);
    xfer_trows_free(&cm);
    rl_buf_free(&sql);
    rl_buf_free(&lit);
    if (rc == 0 && out->failed)
        rc = rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
    return rc;
}

static int lake_rows(void *ctx, const char *sql, trows *out, rl_error *err)
{
    return xfer_lake_rows(ctx, sql, out, err);
}

/* The indexes, constraints and comments into a target that runs SQL (one
 * batch, in its transaction); a file target's count is reported as not
 * carried. */
static int export_extras(exporter *ex, const export_target *to, rl_error *err)
{
    rl_buf stmts, batch;
    rl_buf_init(&stmts, 0);
    rl_buf_init(&batch, 0);
    size_t n;
    int rc = xfer_extras(lake_rows, ex->s, "public", &ex->tables, ex->schema, &stmts, &n, err);
    for (size_t off = 0; rc == 0 && off < stmts.len;) {
        const char *st = (const char *)stmts.data + off;
        rl_buf_printf(&batch, "%s;\n", st);
        off += strlen(st) + 1;
    }
    rl_buf_put(&batch, "", 1);
    if (rc == 0 && n && to->exec)
        rc = batch.failed ? rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory")
                          : to->exec(ex, (const char *)batch.data, err);
    if (rc < 0 && !err->detail[0])
        rl_error_detail(err, "while recreating the lake's indexes, constraints and comments");
    if (rc == 0 && n)
        *(to->exec ? &ex->extras : &ex->extras_skipped) = n;
    rl_buf_free(&stmts);
    rl_buf_free(&batch);
    return rc;
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
    if (rc == 0)
        rc = export_extras(ex, to, err);
    return rc != 0 ? rc : to->commit(ex, err);
}

/* The lake side closed (the target's state is its close's). */
static void exporter_free(exporter *ex)
{
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
rl_transfer_result xfer_export(exporter *ex, const export_target *to, const char *lake_url,
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
        if (ex->extras)
            fprintf(report, "recreated %zu indexes, constraints and comments there\n",
                    ex->extras);
        if (ex->extras_skipped)
            fprintf(report,
                    "warning: %zu indexes, constraints and comments made on the lake's tables "
                    "were not carried (a file target; export to PostgreSQL keeps them)\n",
                    ex->extras_skipped);
    }
    if (to->close)
        to->close(ex, rc != 0);
    exporter_free(ex);
    return transfer_result(rc);
}

/* An export into a file (`kind` "SQLite" or "DuckDB": no --schema) whose
 * own state is `tgt`, named `target` with its 7-byte "sqlite:" / "duckdb:"
 * prefix when prefixed. */
rl_transfer_result xfer_export_file(const export_target *to, void *tgt, const char *kind,
                                    bool prefixed, const char *lake_url, const char *target,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    if (!file_no_schema(o, kind, err))
        return RL_TRANSFER_FAILED;
    exporter ex = {.schema = "public", .path = target + (prefixed ? 7 : 0), .tgt = tgt};
    return xfer_export(&ex, to, lake_url, target, o, report, err);
}
