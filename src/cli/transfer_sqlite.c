/*
 * transfer_sqlite.c — a SQLite file (libsqlite3) as the other side of
 * `rocklake import` and `rocklake export`: an import's source (source_ops)
 * and an export's target (export_target), and their entry points
 * rl_import_sqlite, rl_export_sqlite and rl_transfer_is_sqlite
 * (transfer.h); the run itself is transfer.c's.
 *
 * Owns: the "sqlite:" prefix, SQLite's errors as SQLSTATEs, discovering
 * the ducklake_* tables (sqlite_master, table_info) with DuckLake's
 * PostgreSQL types (a fixed table's from the descriptors, an inlined one's
 * from its declared SQLite type), a SQLite value as the COPY text the lake
 * parses, and the target's tables as DuckLake declares them on SQLite
 * (BIGINT, BLOB, VARCHAR), written one INSERT per row.
 *
 * Invariants:
 *  - an import reads the file in ONE read transaction (BEGIN at open, its
 *    first SELECT fixing the snapshot every later one reads, COMMIT at
 *    finish), the file opened read-only;
 *  - an export writes the file in one write transaction (BEGIN
 *    IMMEDIATE), refused (42P07, nothing written) when the file already has
 *    ducklake_* tables, committed only by export_target.commit, which
 *    transfer.c calls after every table's row count matched; any other end
 *    rolls it back, and removes the file when this export created it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <sqlite3.h>

#include "base/buf.h"
#include "cli/transfer_int.h"
#include "sql/sql.h"

/* ------------------------------------------------------ import source */

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
static bool sq_col_type(const char *rel, const char *att, const char *decl, tcol *c)
{
    int fixed = xfer_desc_col_type(rel, att, c);
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
            rc = xfer_add_col(out, rel, att, decl ? decl : "", sq_col_type, "SQLite", err);
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
    xfer_quote_ident(&q, t->name);
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
        xfer_copy_text(b, sqlite3_column_text(st, col), (size_t)sqlite3_column_bytes(st, col));
    }
}

static int sqs_stream(void *src, const ttable *t, row_fn row, void *ctx, rl_error *err)
{
    sq_source *s = src;
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "SELECT ");
    xfer_column_list(&q, t);
    rl_buf_put_str(&q, " FROM ");
    xfer_quote_ident(&q, t->name);
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
        rc = xfer_line_out(&s->line, row, ctx, err);
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
                                         sqs_stream, sqs_finish,  sqs_describe, sqs_close,
                                         NULL, NULL};

bool rl_transfer_is_sqlite(const char *where)
{
    return strncmp(where, "sqlite:", 7) == 0;
}

rl_transfer_result rl_import_sqlite(const char *source, const char *lake_url,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    sq_source src = {0};
    return xfer_import_file(&sq_source_ops, &src, "SQLite", rl_transfer_is_sqlite(source),
                            source, lake_url, o, report, err);
}

/* ------------------------------------------------------ export target */

/* An export's target: the file, in one write transaction. */
typedef struct sq_tgt {
    sqlite3 *sq;
    sqlite3_stmt *ins; /* the open table's INSERT */
    rl_buf text;       /* a value's text */
} sq_tgt;

static sq_tgt *tgt_of(const exporter *ex)
{
    return ex->tgt;
}

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
    sq_tgt *tg = tgt_of(ex);
    ex->created = access(path, F_OK) != 0;
    if (sqlite3_open_v2(path, &tg->sq, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK)
        return sq_fail(err, tg->sq, path);
    sqlite3_busy_timeout(tg->sq, 10000);
    if (sqlite3_exec(tg->sq, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return sq_fail(err, tg->sq, path);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(tg->sq, "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                   "name LIKE 'ducklake\\_%' ESCAPE '\\' LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return sq_fail(err, tg->sq, path);
    int step = sqlite3_step(st), rc = 0;
    if (step == SQLITE_ROW)
        rc = xfer_file_taken(err, "SQLite", path, (const char *)sqlite3_column_text(st, 0));
    else if (step != SQLITE_DONE)
        rc = sq_fail(err, tg->sq, path);
    sqlite3_finalize(st);
    return rc;
}

/* Statements run on the target file. */
static int sq_target_exec(exporter *ex, const char *sql, rl_error *err)
{
    sq_tgt *tg = tgt_of(ex);
    return sqlite3_exec(tg->sq, sql, NULL, NULL, NULL) == SQLITE_OK
               ? 0
               : sq_fail(err, tg->sq, ex->path);
}

/* Bind one lake value to parameter `i` of the INSERT. */
static int sq_bind(exporter *ex, int i, const rl_value *v)
{
    sq_tgt *tg = tgt_of(ex);
    if (v->d.isnull)
        return sqlite3_bind_null(tg->ins, i);
    switch (rl_oid_type(v->oid)) {
    case RL_T_BOOL:
        return sqlite3_bind_int64(tg->ins, i, v->d.v.b ? 1 : 0);
    case RL_T_BYTEA:
        return sqlite3_bind_blob64(tg->ins, i, v->d.v.s.len ? v->d.v.s.p : (const uint8_t *)"",
                                   v->d.v.s.len, SQLITE_TRANSIENT);
    default:
        break;
    }
    rl_buf_reset(&tg->text);
    rl_value_to_text(&tg->text, v);
    if (tg->text.failed)
        return SQLITE_NOMEM;
    rl_type t = rl_oid_type(v->oid);
    if (t == RL_T_INT8 || t == RL_T_INT4 || t == RL_T_INT2) {
        rl_buf_put(&tg->text, "", 1);
        return sqlite3_bind_int64(tg->ins, i, strtoll((const char *)tg->text.data, NULL, 10));
    }
    return sqlite3_bind_text64(tg->ins, i, tg->text.len ? (const char *)tg->text.data : "",
                               tg->text.len, SQLITE_TRANSIENT, SQLITE_UTF8);
}

/* One lake row -> one INSERT on the target. */
static int sq_export_row(void *ctx, size_t ncols, const rl_value *vals)
{
    exporter *ex = ctx;
    sq_tgt *tg = tgt_of(ex);
    if (xfer_interrupted)
        return -1;
    int rc = SQLITE_OK;
    for (size_t c = 0; c < ncols && rc == SQLITE_OK; c++)
        rc = sq_bind(ex, (int)c + 1, &vals[c]);
    if (rc == SQLITE_OK && sqlite3_step(tg->ins) != SQLITE_DONE)
        rc = SQLITE_ERROR;
    sqlite3_reset(tg->ins);
    if (rc != SQLITE_OK) {
        ex->copy_failed = true;
        sq_fail(&ex->copy_err, tg->sq, "writing the target");
        return -1;
    }
    return xfer_export_row_done(ex);
}

static int sq_export_table(exporter *ex, const ttable *t, rl_error *err)
{
    sq_tgt *tg = tgt_of(ex);
    rl_buf q;
    rl_buf_init(&q, 0);
    xfer_insert_head(&q, t, " VALUES (");
    for (size_t i = 0; i < t->ncols; i++)
        rl_buf_put_str(&q, i ? ", ?" : "?");
    rl_buf_put(&q, ")", 2);
    int rc = sqlite3_prepare_v2(tg->sq, (const char *)q.data, -1, &tg->ins, NULL) == SQLITE_OK
                 ? 0
                 : sq_fail(err, tg->sq, ex->path);
    rl_buf_free(&q);
    if (rc == 0)
        rc = xfer_export_rows(ex, t, sq_export_row, err);
    sqlite3_finalize(tg->ins);
    tg->ins = NULL;
    return rc;
}

/* The row count a table has in the SQLite target (the source's count). */
static int sq_target_count(exporter *ex, const ttable *t, int64_t *have, rl_error *err)
{
    sq_tgt *tg = tgt_of(ex);
    sq_source src = {.db = tg->sq, .path = ex->path};
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
    sq_tgt *tg = tgt_of(ex);
    rl_buf_init(&tg->text, 0);
    if (sq_target_open(ex, ex->path, err) < 0)
        return -1;
    return xfer_create_tables(ex, NULL, sq_col_decl, sq_target_exec, err);
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
    sq_tgt *tg = tgt_of(ex);
    if (failed && tg->sq)
        sqlite3_exec(tg->sq, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(tg->sq);
    tg->sq = NULL;
    if (failed && ex->created)
        unlink(ex->path);
    rl_buf_free(&tg->text);
}

static const export_target sq_target = {NULL, sq_target_ready, sq_export_table, sq_target_count,
                                        sq_target_commit, sq_target_describe, sq_target_close,
                                        NULL};

rl_transfer_result rl_export_sqlite(const char *lake_url, const char *target,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    sq_tgt tgt = {0};
    return xfer_export_file(&sq_target, &tgt, "SQLite", rl_transfer_is_sqlite(target), lake_url,
                            target, o, report, err);
}
