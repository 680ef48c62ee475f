/*
 * transfer_int.h — what the files of `rocklake import` / `export` share with
 * each other (main.c sees only transfer.h):
 *
 *   transfer.c          the shared driver: result sets, table lists, the
 *                       CREATE statements, progress, interruption, the
 *                       import and export runs and their verification
 *   transfer_pg.c       PostgreSQL (libpq): an import's source, an export's
 *                       target, rl_import_postgres / rl_export_postgres
 *   transfer_sqlite.c   a SQLite file: the same, rl_import_sqlite /
 *                       rl_export_sqlite
 *   transfer_duckdb.c   a DuckDB file (libduckdb, duckapi.h): the same,
 *                       rl_import_duckdb / rl_export_duckdb
 *
 * Calls go one way: a backend calls the driver (the xfer_* functions here)
 * and the driver reaches a backend only through the source_ops or
 * export_target it is handed, never by name; so no backend header exists
 * and this one names no backend's library (libpq, SQLite, DuckDB): a
 * backend's own state hangs off `src` (an import) or exporter.tgt (an
 * export).
 *
 * Threading: one transfer at a time per process (transfer.h).
 */
#ifndef ROCKLAKE_TRANSFER_INT_H
#define ROCKLAKE_TRANSFER_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "base/error.h"
#include "catalog/catalog.h"
#include "cli/transfer.h"
#include "sql/sql.h"

/* Set by rl_transfer_interrupt (a signal handler), cleared when a transfer
 * starts; every row handed on checks it. */
extern volatile sig_atomic_t xfer_interrupted;

/* ------------------------------------------------------------ results */

/* A result set as text: cells[row * ncols + col], NULL for SQL NULL. */
typedef struct trows {
    size_t ncols, nrows, cap;
    char **cells;
    bool oom;
} trows;

void xfer_trows_free(trows *r);
const char *xfer_cell(const trows *r, size_t row, size_t col);
/* Append one row of ncols cells (copied; NULL stays NULL). */
void xfer_trows_add(trows *r, const char *const *vals, const size_t *lens);

/* Run one statement on the lake's session and collect its rows. */
int xfer_lake_rows(rl_session *s, const char *sql, trows *out, rl_error *err);

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

/* Rows (relname, attname, typname, atttypmod, attnotnull) ordered by
 * relname, attnum -> the ducklake_* tables. */
int xfer_tlist_build(const trows *r, tlist *l, rl_error *err);

/* "relname, attname, typname, atttypmod, attnotnull" of schema `schema`. */
void xfer_columns_sql(rl_buf *q, const char *schema, bool pg_source);

/* How a file catalog's declared column type becomes the lake's. */
typedef bool (*decl_type_fn)(const char *rel, const char *att, const char *decl, tcol *c);

/* Add column `att` (declared `decl` on `side`) of table `rel` to l. */
int xfer_add_col(tlist *l, const char *rel, const char *att, const char *decl,
                 decl_type_fn type_of, const char *side, rl_error *err);

/* A fixed table's column: its type and NOT NULL from RockLake's descriptor
 * (DuckLake's PostgreSQL types); 0 when `rel`.`att` is not one, -1 when its
 * type has no CREATE TABLE spelling. */
int xfer_desc_col_type(const char *rel, const char *att, tcol *c);

void xfer_quote_ident(rl_buf *b, const char *s);
/* 'text' with its quotes doubled (standard_conforming_strings). */
void xfer_quote_literal(rl_buf *b, const char *s);
/* "c1", "c2", ... : a table's columns, quoted */
void xfer_column_list(rl_buf *q, const ttable *t);
/* "schema"."table" */
void xfer_qualified(rl_buf *q, const char *schema, const char *table);

/* The type a column of `t` gets in a CREATE TABLE on one side. */
typedef const char *(*col_type_fn)(const ttable *t, size_t col);

/* The lake's (PostgreSQL's) type of a column. */
const char *xfer_pg_col_type(const ttable *t, size_t col);

/* Appends "SELECT count(*) FROM "schema"."t"" and its terminating NUL. */
void xfer_count_sql(rl_buf *q, const char *schema, const ttable *t);

/* A count(*) query's answer: rc is how running it went (its rows in r,
 * freed here when it ran); the count into *out (-1 when there is none),
 * or -1 when the query failed. */
int xfer_count_answer(int rc, trows *r, int64_t *out);

/* ----------------------------------------------------------- progress */

typedef struct progress {
    bool on;
    const char *verb;
    size_t tables_done, tables;
    int64_t rows, total;
    double t0, last;
} progress;

void xfer_progress_show(progress *p, bool force);

/* ------------------------------------------------------------- import */

/* One row of a table as a COPY text line ('\n' included); 0 to go on, 1
 * to stop (interrupted), -1 on an error in *err. */
typedef int (*row_fn)(void *ctx, const char *line, size_t len, rl_error *err);

/* A row's COPY text in `line` ended with its newline and handed to `row`;
 * its result, or -1 when the text ran out of memory. */
int xfer_line_out(rl_buf *line, row_fn row, void *ctx, rl_error *err);

/* A text value as COPY text: backslash, tab, newline and CR escaped. */
void xfer_copy_text(rl_buf *b, const unsigned char *s, size_t n);

/* A catalog an import reads: PostgreSQL (libpq), a SQLite or a DuckDB
 * file. Every call runs inside the one read transaction `open` started
 * (the backend keeps that invariant: one transaction, one consistent
 * catalog). */
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
    /* NULL, or the hint of "the source has no DuckLake catalog" */
    const char *no_catalog_hint;
    /* NULL, or the source's indexes, key constraints and comments on its
     * tables l, as statements for the lake (xfer_extras) */
    int (*extras)(void *src, const tlist *l, rl_buf *out, size_t *n, rl_error *err);
} source_ops;

/* An import from `source` (read through `ops` on `src`; `what` names where
 * the catalog was looked for: "schema \"public\"", "the SQLite file") into
 * the new lake at lake_url: the whole run, the report's line, src closed. */
rl_transfer_result xfer_import(const source_ops *ops, void *src, const char *what,
                               const char *source, const char *lake_url,
                               const rl_transfer_opts *o, FILE *report, rl_error *err);

/* An import from a file (`kind` "SQLite" or "DuckDB": no --schema) read
 * through `ops` on `src`, named `source` with its 7-byte "sqlite:" /
 * "duckdb:" prefix when prefixed. */
rl_transfer_result xfer_import_file(const source_ops *ops, void *src, const char *kind,
                                    bool prefixed, const char *source, const char *lake_url,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err);

/* ------------------------------------- indexes, constraints, comments */

/* Runs a catalog query on one side: the lake's session, or a PostgreSQL
 * source's connection. */
typedef int (*extras_rows_fn)(void *ctx, const char *sql, trows *out, rl_error *err);
/* The indexes, UNIQUE / PRIMARY KEY constraints and comments a person made
 * on the tables of l in schema `from` of one side (asked through rows), as
 * statements for the other: each NUL-terminated in *out, *n of them, the
 * tables qualified by `to` (NULL: unqualified). A DuckLake table's own
 * primary key is left out (its CREATE TABLE has it). */
int xfer_extras(extras_rows_fn rows, void *ctx, const char *from, const tlist *l,
                const char *to, rl_buf *out, size_t *n, rl_error *err);

/* ------------------------------------------------------------- export */

typedef struct exporter {
    const char *schema;
    rl_catalog *cat;
    rl_engine *eng;
    rl_session *s;
    tlist tables;
    progress prog;
    rl_error copy_err;
    bool copy_failed;
    int chunks; /* tables copied (the test hook's count) */
    size_t extras, extras_skipped; /* index / constraint / comment statements */
    /* a file target (SQLite, DuckDB): */
    const char *path;
    bool created; /* the file did not exist before */
    /* the target's own state (its connection, statement, appender) */
    void *tgt;
} exporter;

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
    /* NULL, or the target closed before the exporter is freed (failed: its
     * transaction rolled back, a file the export made removed) */
    void (*close)(exporter *ex, bool failed);
    /* NULL, or the target runs SQL statements in its transaction: the
     * indexes, key constraints and comments a person made on the lake's
     * tables are recreated there after the rows (a file target reports
     * them as not carried) */
    int (*exec)(exporter *ex, const char *sql, rl_error *err);
} export_target;

/* An export of the lake at lake_url into `to`'s target: progress when asked
 * for, the report's line when done, then the target closed and the
 * exporter freed. */
rl_transfer_result xfer_export(exporter *ex, const export_target *to, const char *lake_url,
                               const char *target, const rl_transfer_opts *o, FILE *report,
                               rl_error *err);

/* An export into a file (`kind` "SQLite" or "DuckDB": no --schema) whose
 * own state is `tgt`, named `target` with its 7-byte "sqlite:" / "duckdb:"
 * prefix when prefixed. */
rl_transfer_result xfer_export_file(const export_target *to, void *tgt, const char *kind,
                                    bool prefixed, const char *lake_url, const char *target,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err);

/* Runs statements (NUL-terminated text) on an export's target: 0, or -1
 * with err set. */
typedef int (*target_exec_fn)(exporter *ex, const char *sql, rl_error *err);

/* The CREATE TABLE statements for every table exported, in `schema` (NULL:
 * unqualified; a schema other than public is created first) with column
 * types from type_of, run on the target by `run`. */
int xfer_create_tables(exporter *ex, const char *schema, col_type_fn type_of,
                       target_exec_fn run, rl_error *err);

/* The refusal of a file target (`kind` "SQLite" / "DuckDB") that already
 * holds a DuckLake catalog (`table` one of its tables): -1. */
int xfer_file_taken(rl_error *err, const char *kind, const char *path, const char *table);

/* Appends "INSERT INTO "<t>"" and `rest` (a file target's tables are
 * unqualified). */
void xfer_insert_head(rl_buf *q, const ttable *t, const char *rest);

/* Appends "SELECT <t's columns> FROM public.<t>": the lake's query for all
 * of a table's rows (no terminating NUL). */
void xfer_select_sql(rl_buf *q, const ttable *t);

/* What copying a table came to once the lake's query `st` ended: 1 when
 * interrupted, -1 when the target refused a row (its error, kept in
 * copy_err, into err) or the query failed, else 0. */
int xfer_export_outcome(exporter *ex, rl_exec_status st, rl_error *err);

/* A table's rows from the lake, each handed to `row` (the target's writer,
 * with the exporter as its context); the outcome as xfer_export_outcome's. */
int xfer_export_rows(exporter *ex, const ttable *t,
                     int (*row)(void *ctx, size_t ncols, const rl_value *vals), rl_error *err);

/* One more row written to the target: the progress line follows. */
int xfer_export_row_done(exporter *ex);

#endif
