/*
 * transfer_pg.c — PostgreSQL (libpq) as the other side of `rocklake import`
 * and `rocklake export`: an import's source (source_ops) and an export's
 * target (export_target), and their entry points rl_import_postgres and
 * rl_export_postgres (transfer.h); the run itself is transfer.c's.
 *
 * Owns: connecting (and the hint of a failed connect), the session
 * settings whose text output the lake reads back exactly, the DuckLake
 * metadata schema (--schema, a plain name), discovering the ducklake_*
 * tables from pg_attribute, streaming a source table with COPY TO STDOUT,
 * and writing a target table with COPY FROM STDIN fed by the lake's COPY
 * TO STDOUT.
 *
 * Invariants:
 *  - an import reads the source in ONE transaction, REPEATABLE READ READ
 *    ONLY, begun at open and ended at finish: every read sees one
 *    consistent catalog;
 *  - an export writes the target in one transaction, refused (42P07,
 *    nothing written) when the schema already has ducklake_* tables, and
 *    committed only by export_target.commit, which transfer.c calls after
 *    every table's row count matched; any other end rolls it back;
 *  - the marker's words name host, port, database and schema, never the
 *    password.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libpq-fe.h>

#include "base/buf.h"
#include "cli/transfer_int.h"
#include "sql/sql.h"

/* ------------------------------------------------------------- libpq */

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
        xfer_trows_add(out, vals, lens);
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

/* The row count of table t in schema `schema` of the database. */
static int pg_count(PGconn *pg, const char *schema, const ttable *t, int64_t *out, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    xfer_count_sql(&q, schema, t);
    trows r;
    int rc = pg_rows(pg, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    return xfer_count_answer(rc, &r, out);
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

/* ------------------------------------------------------ import source */

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
    xfer_columns_sql(&q, p->schema, true);
    trows r;
    int rc = pg_rows(p->pg, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    if (rc < 0)
        return -1;
    rc = xfer_tlist_build(&r, out, err);
    xfer_trows_free(&r);
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
    snprintf(out, n, "%s", r.nrows && xfer_cell(&r, 0, 0) ? xfer_cell(&r, 0, 0) : "?");
    xfer_trows_free(&r);
    return 0;
}

static int pgs_count(void *src, ttable *t, rl_error *err)
{
    pg_source *p = src;
    return pg_count(p->pg, p->schema, t, &t->rows, err);
}

/* The table's COPY TO STDOUT, line by line. */
static int pgs_stream(void *src, const ttable *t, row_fn row, void *ctx, rl_error *err)
{
    pg_source *p = src;
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "COPY (SELECT ");
    xfer_column_list(&q, t);
    rl_buf_put_str(&q, " FROM ");
    xfer_qualified(&q, p->schema, t->name);
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

static int pgs_rows(void *ctx, const char *sql, trows *out, rl_error *err)
{
    return pg_rows(ctx, sql, out, err);
}

/* The source's indexes, key constraints and comments on its tables l. */
static int pgs_extras(void *src, const tlist *l, rl_buf *out, size_t *n, rl_error *err)
{
    pg_source *p = src;
    return xfer_extras(pgs_rows, p->pg, p->schema, l, NULL, out, n, err);
}

static const source_ops pg_source_ops = {
    pgs_open,  pgs_discover, pgs_version,  pgs_count,
    pgs_stream, pgs_finish,  pgs_describe, pgs_close,
    "name the schema DuckLake's METADATA_SCHEMA used with --schema", pgs_extras};

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
    return xfer_import(&pg_source_ops, &src, what, source, lake_url, o, report, err);
}

/* ------------------------------------------------------ export target */

/* An export's target: the database it writes, in one transaction. */
typedef struct pg_tgt {
    PGconn *pg;
} pg_tgt;

static pg_tgt *tgt_of(const exporter *ex)
{
    return ex->tgt;
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
    int rc = pg_rows(tgt_of(ex)->pg, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    if (rc < 0)
        return -1;
    if (r.nrows) {
        rl_error_set(err, RL_SQLSTATE_DUPLICATE_TABLE,
                     "the target already has a DuckLake catalog in schema \"%s\" (table %s)",
                     ex->schema, xfer_cell(&r, 0, 0));
        rl_error_hint(err, "export into a new database (CREATE DATABASE), or another schema with "
                           "--schema; nothing was written");
        rc = -1;
    }
    xfer_trows_free(&r);
    return rc;
}

/* Statements run on the target database. */
static int pg_target_exec(exporter *ex, const char *sql, rl_error *err)
{
    return pg_exec(tgt_of(ex)->pg, sql, err);
}

/* Chunks of the lake's COPY TO STDOUT (whole text rows) go to the target. */
static int export_chunk(void *ctx, const uint8_t *data, size_t len)
{
    exporter *ex = ctx;
    if (xfer_interrupted)
        return -1;
    if (PQputCopyData(tgt_of(ex)->pg, (const char *)data, (int)len) != 1) {
        ex->copy_failed = true;
        pg_fail(&ex->copy_err, tgt_of(ex)->pg, NULL, "writing the target");
        return -1;
    }
    for (size_t i = 0; i < len; i++)
        ex->prog.rows += data[i] == '\n';
    xfer_progress_show(&ex->prog, false);
    return 0;
}

static int export_table(exporter *ex, const ttable *t, rl_error *err)
{
    PGconn *pg = tgt_of(ex)->pg;
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "COPY ");
    xfer_qualified(&q, ex->schema, t->name);
    rl_buf_put(&q, " (", 2);
    xfer_column_list(&q, t);
    rl_buf_put_str(&q, ") FROM STDIN");
    rl_buf_put(&q, "", 1);
    PGresult *res = PQexec(pg, (const char *)q.data);
    rl_buf_reset(&q);
    if (PQresultStatus(res) != PGRES_COPY_IN) {
        pg_fail(err, pg, res, "writing the target");
        PQclear(res);
        rl_buf_free(&q);
        return -1;
    }
    PQclear(res);
    rl_buf_put_str(&q, "COPY (");
    xfer_select_sql(&q, t);
    rl_buf_put_str(&q, ") TO STDOUT");
    rl_buf_put(&q, "", 1);
    rl_sink k = {.ctx = ex, .copy_out_data = export_chunk};
    rl_exec_status st = rl_session_simple_query(ex->s, (const char *)q.data, &k, err);
    rl_buf_free(&q);
    int rc = xfer_export_outcome(ex, st, err);
    if (PQputCopyEnd(pg, rc == 0 ? NULL : "export stopped") != 1 && rc == 0)
        rc = pg_fail(err, pg, NULL, "writing the target");
    while ((res = PQgetResult(pg))) {
        if (rc == 0 && PQresultStatus(res) != PGRES_COMMAND_OK)
            rc = pg_fail(err, pg, res, "writing the target");
        PQclear(res);
    }
    return rc;
}

/* The target database connected, in its transaction, with no DuckLake
 * catalog in the schema yet, and the lake's tables created there. */
static int pg_target_open(exporter *ex, const char *target, rl_error *err)
{
    pg_tgt *tg = tgt_of(ex);
    if (!(tg->pg = pg_connect(target, "target PostgreSQL", true, err)) ||
        pg_session_setup(tg->pg, err) < 0 || pg_exec(tg->pg, "BEGIN", err) < 0 ||
        target_check_empty(ex, err) < 0 ||
        xfer_create_tables(ex, ex->schema, xfer_pg_col_type, pg_target_exec, err) < 0)
        return -1;
    return 0;
}

/* The row count a table has in the target schema. */
static int pg_target_count(exporter *ex, const ttable *t, int64_t *have, rl_error *err)
{
    return pg_count(tgt_of(ex)->pg, ex->schema, t, have, err);
}

/* The target's transaction committed. */
static int pg_target_commit(exporter *ex, rl_error *err)
{
    return pg_target_exec(ex, "COMMIT", err);
}

/* The report's words for the target. */
static void pg_target_describe(const exporter *ex, FILE *out)
{
    fprintf(out, "PostgreSQL database %s (schema %s)", PQdb(tgt_of(ex)->pg), ex->schema);
}

/* The target's transaction rolled back unless it committed, and the
 * connection closed (done or failed alike). */
static void pg_target_close(exporter *ex, bool failed)
{
    PGconn *pg = tgt_of(ex)->pg;
    if (pg && PQtransactionStatus(pg) != PQTRANS_IDLE) {
        PGresult *res = PQexec(pg, "ROLLBACK");
        PQclear(res);
    }
    PQfinish(pg);
    tgt_of(ex)->pg = NULL;
}

static const export_target pg_target = {NULL,           pg_target_open,     export_table,
                                        pg_target_count, pg_target_commit, pg_target_describe,
                                        pg_target_close, pg_target_exec};

rl_transfer_result rl_export_postgres(const char *lake_url, const char *target,
                                      const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    pg_tgt tgt = {0};
    exporter ex = {.schema = o && o->schema ? o->schema : "public", .tgt = &tgt};
    if (!ident_ok(ex.schema)) {
        rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER, "--schema \"%s\" is not a plain name",
                     ex.schema);
        return RL_TRANSFER_FAILED;
    }
    return xfer_export(&ex, &pg_target, lake_url, target, o, report, err);
}
