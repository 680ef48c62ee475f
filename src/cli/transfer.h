/*
 * transfer.h — moving a DuckLake catalog between PostgreSQL, a SQLite file or
 * a DuckDB file and RockLake: `rocklake import` (a catalog -> a new lake) and
 * `rocklake export` (a lake -> a PostgreSQL database, SQLite or DuckDB file).
 * Only catalog rows move; the Parquet files stay where ducklake_metadata's
 * data_path says.
 *
 * Threading: one transfer at a time per process; rl_transfer_interrupt is
 * the only function safe from a signal handler.
 *
 * Ownership: every argument is borrowed for the call.
 */
#ifndef ROCKLAKE_TRANSFER_H
#define ROCKLAKE_TRANSFER_H

#include <stdbool.h>
#include <stdio.h>

#include "base/error.h"

typedef struct rl_transfer_opts {
    const char *schema; /* PostgreSQL side's DuckLake metadata schema; NULL = "public" */
    bool progress;      /* a progress line on stderr (tables, rows, rate, ETA) */
} rl_transfer_opts;

typedef enum rl_transfer_result {
    RL_TRANSFER_FAILED = -1,      /* *err says why */
    RL_TRANSFER_DONE = 0,
    RL_TRANSFER_INTERRUPTED = 1   /* rl_transfer_interrupt was called */
} rl_transfer_result;

/* Copy the DuckLake catalog in `source` (a libpq conninfo string or
 * postgres:// URI) into a new RockLake catalog at `lake_url`, which must not
 * hold a catalog yet (the caller checks). The source is read in one
 * REPEATABLE READ READ ONLY transaction; the lake is written in bounded
 * commits (a table's rows at most RL_TRANSFER_CHUNK_ROWS per commit) after
 * a durable copy-incomplete marker, which is removed only once every
 * row count matches the source and rl_check_copy found nothing. Until
 * then (an error, an interrupt, a kill) the lake is refused by serve and
 * reported by check. `report` gets the closing summary line. */
rl_transfer_result rl_import_postgres(const char *source, const char *lake_url,
                                      const rl_transfer_opts *o, FILE *report, rl_error *err);

/* The same from a SQLite file DuckLake keeps its catalog in (`source` is
 * "sqlite:/path/file"; the prefix may be left off), read in one SQLite
 * read transaction. Fixed tables get DuckLake's PostgreSQL column types (as
 * a PostgreSQL-born lake has), per-table inlined tables the types their
 * SQLite declarations name (BIGINT, VARCHAR, BYTEA, DOUBLE PRECISION). */
rl_transfer_result rl_import_sqlite(const char *source, const char *lake_url,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err);

/* Is `where` a SQLite catalog ("sqlite:/path/file")? */
bool rl_transfer_is_sqlite(const char *where);

/* The same from a DuckDB database file DuckLake keeps its catalog in
 * (`source` "duckdb:/path/file", what ATTACH 'ducklake:/path/file' makes),
 * through libduckdb loaded at this call (duckapi.h; when missing, *err
 * names the command that installs it), read in one DuckDB transaction.
 * Fixed tables get DuckLake's PostgreSQL column types, per-table inlined
 * tables the types DuckLake gives those DuckDB types on PostgreSQL. */
rl_transfer_result rl_import_duckdb(const char *source, const char *lake_url,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err);

/* Is `where` a DuckDB catalog file ("duckdb:/path/file")? */
bool rl_transfer_is_duckdb(const char *where);

/* Copy the lake at `lake_url` (opened read-only, one snapshot) into the
 * PostgreSQL database `target`: the same tables and column types DuckDB's
 * ducklake extension creates there, every row, in one PostgreSQL
 * transaction that commits only when every row count matches. Refuses a
 * target schema that already has ducklake_* tables (42P07). */
rl_transfer_result rl_export_postgres(const char *lake_url, const char *target,
                                      const rl_transfer_opts *o, FILE *report, rl_error *err);

/* The same into a new SQLite file (`target` "sqlite:/path/file"; the
 * prefix may be left off), with the tables and column types DuckLake
 * creates on SQLite, in one SQLite transaction that commits only when every
 * row count matches. Refuses a file that already has ducklake_* tables
 * (42P07); a file this export created is removed when it fails. */
rl_transfer_result rl_export_sqlite(const char *lake_url, const char *target,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err);

/* The same into a DuckDB database file (`target` "duckdb:/path/file"),
 * with the tables and column types DuckLake creates in one (an inlined
 * table's from ducklake_column), in one DuckDB transaction that commits
 * only when every row count matches; stock DuckDB attaches it as
 * 'ducklake:/path/file'. Refuses a file that already has ducklake_*
 * tables (42P07); a file this export created is removed when it fails. */
rl_transfer_result rl_export_duckdb(const char *lake_url, const char *target,
                                    const rl_transfer_opts *o, FILE *report, rl_error *err);

/* Ask the running transfer to stop at its next row (async-signal-safe). */
void rl_transfer_interrupt(void);

#define RL_TRANSFER_CHUNK_ROWS 10000

#endif
