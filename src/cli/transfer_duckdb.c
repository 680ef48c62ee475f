/*
 * transfer_duckdb.c — a DuckDB database file (libduckdb, loaded when first
 * used: duckapi.h) as the other side of `rocklake import` and `rocklake
 * export`: an import's source (source_ops) and an export's target
 * (export_target), and their entry points rl_import_duckdb,
 * rl_export_duckdb and rl_transfer_is_duckdb (transfer.h); the run itself
 * is transfer.c's.
 *
 * Owns: the "duckdb:" prefix, one in-memory DuckDB with the file attached
 * (extension autoloading off: nothing is downloaded), DuckDB's errors as
 * SQLSTATEs, discovering the ducklake_* tables (duckdb_columns()) with the
 * PostgreSQL types DuckLake gives them there, reading a source table in
 * pages as the COPY text the lake parses, and the target's tables as
 * DuckLake creates them in a DuckDB file (an inlined table's types from
 * ducklake_column), written through an appender to a staging table.
 *
 * Invariants:
 *  - an import reads the file in ONE transaction, the file attached
 *    READ_ONLY; a table is read RL_TRANSFER_CHUNK_ROWS rows at a time in
 *    rowid order, so a page's result is all DuckDB holds in memory;
 *  - an export writes the file in one transaction, refused (42P07,
 *    nothing written) when the file already has ducklake_* tables,
 *    committed (and the file detached: checkpointed, no WAL left) only by
 *    export_target.commit, which transfer.c calls after every table's row
 *    count matched; any other end rolls it back, and removes the file (and
 *    its WAL) when this export created it;
 *  - libduckdb is loaded before the lake is read: without it, no work.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "cli/duckapi.h"
#include "cli/transfer_int.h"
#include "sql/sql.h"

/* ------------------------------------------------------ the connection */

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
            xfer_trows_add(out, (const char *const *)vals, lens);
            for (size_t c = 0; c < out->ncols; c++)
                d->api->free(vals[c]);
        }
        if (rc == 0 && out->oom)
            rc = rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
        if (rc < 0)
            xfer_trows_free(out);
    }
    d->api->destroy_result(&r);
    return rc;
}

static int dk_exec(dk_conn *d, const char *sql, rl_error *err)
{
    return dk_rows(d, sql, NULL, err);
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
    xfer_quote_literal(&q, path);
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

/* ------------------------------------------------------ import source */

/* The PostgreSQL type DuckLake gives a per-table (inlined) column of DuckDB
 * type `decl` on PostgreSQL: the numbers, booleans, UUID, TIME, INTERVAL as
 * themselves, BLOB and VARCHAR (JSON) BYTEA, every other type VARCHAR (its
 * DuckDB text); a fixed table's columns come from the descriptor. */
static bool dk_col_type(const char *rel, const char *att, const char *decl, tcol *c)
{
    int fixed = xfer_desc_col_type(rel, att, c);
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
        if (xfer_cell(&r, i, 0) && xfer_cell(&r, i, 1))
            rc = xfer_add_col(out, xfer_cell(&r, i, 0), xfer_cell(&r, i, 1),
                              xfer_cell(&r, i, 2) ? xfer_cell(&r, i, 2) : "", dk_col_type,
                              "DuckDB", err);
    xfer_trows_free(&r);
    return rc;
}

static int dks_version(void *src, char *out, size_t n, rl_error *err)
{
    trows r;
    if (dk_rows(src, "SELECT value FROM ducklake_metadata WHERE key = 'version' AND scope IS NULL",
                &r, err) < 0)
        return -1;
    snprintf(out, n, "%s", r.nrows && xfer_cell(&r, 0, 0) ? xfer_cell(&r, 0, 0) : "?");
    xfer_trows_free(&r);
    return 0;
}

static int dk_count(dk_conn *d, const ttable *t, int64_t *out, rl_error *err)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "SELECT count(*) FROM ");
    xfer_quote_ident(&q, t->name);
    rl_buf_put(&q, "", 1);
    trows r;
    int rc = dk_rows(d, (const char *)q.data, &r, err);
    rl_buf_free(&q);
    return xfer_count_answer(rc, &r, out);
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
            xfer_quote_ident(&q, t->cols[c].name);
            rl_buf_put_str(&q, bytea ? ")" : " AS VARCHAR)");
        }
        rl_buf_put_str(&q, " FROM ");
        xfer_quote_ident(&q, t->name);
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
                    xfer_copy_text(&d->line, (const unsigned char *)v, strlen(v));
                d->api->free(v);
            }
            rc = xfer_line_out(&d->line, row, ctx, err);
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
                                         dks_stream, dks_finish,  dks_describe, dks_close,
                                         NULL, NULL};

bool rl_transfer_is_duckdb(const char *where)
{
    return strncmp(where, "duckdb:", 7) == 0;
}

rl_transfer_result rl_import_duckdb(const char *source, const char *lake_url,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    dk_conn src = {0};
    return xfer_import_file(&dk_source_ops, &src, "DuckDB", rl_transfer_is_duckdb(source),
                            source, lake_url, o, report, err);
}

/* ------------------------------------------------------ export target */

/* An export's target: the file attached as rl_target, in one transaction,
 * and the table being written. */
typedef struct dk_tgt {
    dk_conn dk;
    duckdb_appender dk_app; /* the open table's staging appender */
    const ttable *dk_cur;   /* its table */
    int64_t dk_in_chunk;    /* rows staged since the last INSERT */
} dk_tgt;

static dk_tgt *tgt_of(const exporter *ex)
{
    return ex->tgt;
}

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
    const char *b = xfer_cell(&k->r, i, 4), *e = xfer_cell(&k->r, i, 5);
    if (k->at < 0)
        return !e;
    return b && strtoll(b, NULL, 10) <= k->at && (!e || strtoll(e, NULL, 10) > k->at);
}

/* The DuckDB type of ducklake_column row i into b; false if DuckLake's type
 * name is not known here. */
static bool dk_type_of(const dk_cols *k, size_t i, rl_buf *b, int depth)
{
    const char *ty = xfer_cell(&k->r, i, 2), *id = xfer_cell(&k->r, i, 0);
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
        const char *parent = xfer_cell(&k->r, c, 3);
        if (!parent || strcmp(parent, id) != 0 || !dk_col_live(k, c))
            continue;
        if (kids++)
            rl_buf_put_str(b, ", ");
        if (!list && !map) {
            xfer_quote_ident(b, xfer_cell(&k->r, c, 1) ? xfer_cell(&k->r, c, 1) : "");
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
    if (xfer_lake_rows(s, sql, &r, err) < 0) {
        *rc = -1;
        return -1;
    }
    int64_t v = r.nrows && xfer_cell(&r, 0, 0) ? strtoll(xfer_cell(&r, 0, 0), NULL, 10) : -1;
    xfer_trows_free(&r);
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
    xfer_quote_literal(&q, t->name);
    rl_buf_put(&q, "", 1);
    trows which;
    int rc = xfer_lake_rows(ex->s, (const char *)q.data, &which, err);
    if (rc < 0 || !which.nrows || !xfer_cell(&which, 0, 0) || !xfer_cell(&which, 0, 1)) {
        if (rc == 0)
            xfer_trows_free(&which);
        rl_buf_free(&q);
        return rc;
    }
    long long table_id = strtoll(xfer_cell(&which, 0, 0), NULL, 10);
    long long version = strtoll(xfer_cell(&which, 0, 1), NULL, 10);
    xfer_trows_free(&which);
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
        rc = xfer_lake_rows(ex->s, (const char *)q.data, &k.r, err);
    rl_buf_free(&q);
    if (rc < 0)
        return -1;
    rl_buf b;
    rl_buf_init(&b, 0);
    for (size_t c = 0; c < t->ncols && rc == 0; c++) {
        for (size_t i = 0; i < k.r.nrows; i++) {
            const char *name = xfer_cell(&k.r, i, 1);
            if (xfer_cell(&k.r, i, 3) || !name || strcmp(name, t->cols[c].name) != 0 ||
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
    xfer_trows_free(&k.r);
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
    dk_tgt *tg = tgt_of(ex);
    dk_conn *d = &tg->dk;
    ex->created = access(ex->path, F_OK) != 0;
    if (dk_open(d, ex->path, "rl_target", false, err) < 0)
        return -1;
    trows r;
    if (dk_rows(d, "SELECT table_name FROM duckdb_tables() WHERE database_name = 'rl_target' "
                   "AND starts_with(table_name, 'ducklake_') LIMIT 1", &r, err) < 0)
        return -1;
    int rc = r.nrows ? xfer_file_taken(err, "DuckDB", ex->path, xfer_cell(&r, 0, 0)) : 0;
    xfer_trows_free(&r);
    return rc < 0 ? -1 : dk_exec(d, "BEGIN TRANSACTION", err);
}

/* Statements run on the target file. */
static int dk_target_exec(exporter *ex, const char *sql, rl_error *err)
{
    dk_tgt *tg = tgt_of(ex);
    return dk_exec(&tg->dk, sql, err);
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
    return xfer_create_tables(ex, NULL, dk_col_decl, dk_target_exec, err);
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
    dk_tgt *tg = tgt_of(ex);
    const rl_duckdb_api *api = tg->dk.api;
    if (v->d.isnull)
        return api->append_null(tg->dk_app);
    switch (rl_oid_type(v->oid)) {
    case RL_T_BOOL:
        return api->append_bool(tg->dk_app, v->d.v.b);
    case RL_T_INT8:
    case RL_T_INT4:
    case RL_T_INT2:
        return api->append_int64(tg->dk_app, v->d.v.i);
    case RL_T_BYTEA:
        if (strcmp(stage, "BLOB") == 0)
            return api->append_blob(tg->dk_app, v->d.v.s.len ? v->d.v.s.p : (const uint8_t *)"",
                                    v->d.v.s.len);
        return api->append_varchar_length(tg->dk_app,
                                          v->d.v.s.len ? (const char *)v->d.v.s.p : "",
                                          v->d.v.s.len);
    default:
        break;
    }
    rl_buf *text = &tg->dk.line;
    rl_buf_reset(text);
    rl_value_to_text(text, v);
    if (text->failed)
        return DUCKDB_ERROR;
    return api->append_varchar_length(tg->dk_app, text->len ? (const char *)text->data : "",
                                      text->len);
}

/* The staged rows into the table (each value cast to its column's DuckDB
 * type), and the staging table emptied. */
static int dk_flush(exporter *ex, rl_error *err)
{
    dk_tgt *tg = tgt_of(ex);
    const ttable *t = tg->dk_cur;
    if (tg->dk.api->appender_flush(tg->dk_app) != DUCKDB_OK)
        return dk_appender_fail(err, "writing the target", tg->dk.api, tg->dk_app);
    rl_buf q;
    rl_buf_init(&q, 0);
    xfer_insert_head(&q, t, " SELECT ");
    for (size_t i = 0; i < t->ncols; i++)
        rl_buf_printf(&q, "%sCAST(c%zu AS %s)", i ? ", " : "", i + 1, dk_col_decl(t, i));
    rl_buf_put_str(&q, " FROM temp.main.rl_stage;\nDELETE FROM temp.main.rl_stage");
    rl_buf_put(&q, "", 1);
    int rc = q.failed ? rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory")
                      : dk_exec(&tg->dk, (const char *)q.data, err);
    rl_buf_free(&q);
    tg->dk_in_chunk = 0;
    return rc;
}

/* One lake row into the staging table; every RL_TRANSFER_CHUNK_ROWS rows
 * go on into the target table. */
static int dk_export_row(void *ctx, size_t ncols, const rl_value *vals)
{
    exporter *ex = ctx;
    dk_tgt *tg = tgt_of(ex);
    if (xfer_interrupted)
        return -1;
    duckdb_state st = DUCKDB_OK;
    for (size_t c = 0; c < ncols && st == DUCKDB_OK; c++)
        st = dk_append(ex, &vals[c], dk_stage_type(tg->dk_cur, c));
    if (st == DUCKDB_OK)
        st = tg->dk.api->appender_end_row(tg->dk_app);
    if (st != DUCKDB_OK) {
        dk_appender_fail(&ex->copy_err, "writing the target", tg->dk.api, tg->dk_app);
        ex->copy_failed = true;
    } else if (++tg->dk_in_chunk == RL_TRANSFER_CHUNK_ROWS && dk_flush(ex, &ex->copy_err) < 0) {
        ex->copy_failed = true;
    }
    if (ex->copy_failed) {
        rl_error_detail(&ex->copy_err, "in table %s", tg->dk_cur->name);
        return -1;
    }
    return xfer_export_row_done(ex);
}

/* A table's rows: appended (DuckDB's fast path) to a staging table of the
 * types they are appended as, then INSERTed with a cast to the column's
 * DuckDB type, a chunk at a time; the staging table is temporary, in the
 * same transaction. */
static int dk_export_table(exporter *ex, const ttable *t, rl_error *err)
{
    dk_tgt *tg = tgt_of(ex);
    const rl_duckdb_api *api = tg->dk.api;
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_put_str(&q, "CREATE TEMP TABLE rl_stage(");
    for (size_t i = 0; i < t->ncols; i++)
        rl_buf_printf(&q, "%sc%zu %s", i ? ", " : "", i + 1, dk_stage_type(t, i));
    rl_buf_put(&q, ")", 2);
    tg->dk_cur = t;
    tg->dk_in_chunk = 0;
    int rc = q.failed ? rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory")
                      : dk_exec(&tg->dk, (const char *)q.data, err);
    if (rc == 0 &&
        api->appender_create_ext(tg->dk.con, "temp", "main", "rl_stage", &tg->dk_app) != DUCKDB_OK)
        rc = dk_appender_fail(err, ex->path, api, tg->dk_app);
    rl_buf_free(&q);
    if (rc == 0)
        rc = xfer_export_rows(ex, t, dk_export_row, err);
    if (rc == 0 && tg->dk_in_chunk) /* the last, partial chunk */
        rc = dk_flush(ex, err);
    if (tg->dk_app)
        api->appender_destroy(&tg->dk_app);
    tg->dk_app = NULL;
    rl_error ignored;
    if (rc == 0)
        rc = dk_exec(&tg->dk, "DROP TABLE temp.main.rl_stage", err);
    else
        dk_exec(&tg->dk, "DROP TABLE IF EXISTS temp.main.rl_stage", &ignored);
    return rc;
}

static int dk_target_count(exporter *ex, const ttable *t, int64_t *have, rl_error *err)
{
    dk_tgt *tg = tgt_of(ex);
    return dk_count(&tg->dk, t, have, err);
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
    dk_tgt *tg = tgt_of(ex);
    if (dk_exec(&tg->dk, "COMMIT", err) < 0 || dk_exec(&tg->dk, "USE memory", err) < 0 ||
        dk_exec(&tg->dk, "DETACH rl_target", err) < 0)
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
    dk_tgt *tg = tgt_of(ex);
    if (failed && tg->dk.con) {
        rl_error ignored;
        dk_exec(&tg->dk, "ROLLBACK", &ignored);
    }
    dk_close(&tg->dk);
    if (failed && ex->created && tg->dk.api) {
        char wal[4096];
        snprintf(wal, sizeof wal, "%s.wal", ex->path);
        unlink(ex->path);
        unlink(wal);
    }
}

static const export_target dk_target = {dk_target_load, dk_target_ready, dk_export_table,
                                        dk_target_count, dk_target_commit, dk_target_describe,
                                        dk_target_close, NULL};

rl_transfer_result rl_export_duckdb(const char *lake_url, const char *target,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err)
{
    dk_tgt tgt = {0};
    return xfer_export_file(&dk_target, &tgt, "DuckDB", rl_transfer_is_duckdb(target), lake_url,
                            target, o, report, err);
}
