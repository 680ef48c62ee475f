/*
 * demo.h — builds a small but realistic DuckLake catalog through the catalog
 * API, the way DuckLake itself would write it (one transaction = one
 * snapshot, rows in DuckLake's column order).
 *
 * Owns: the demo/benchmark catalog generator used by `rocklake demo` and by
 * bench/. It only writes through rl_txn_* (never kv directly), so what it
 * produces is exactly what the catalog layer would store for DuckLake.
 *
 * Invariants of a built catalog (verified by `rocklake check`):
 *  - every tag 0x01-0x1C has keys (0x1D too in a 1.1 catalog) when
 *    tables >= 1, columns_per_table >= 2 and files >= 2; plus 0x80 (live,
 *    pk and dynamic-name index entries), 0x81, 0x82, 0xFD, 0xFE, 0xFF;
 *  - ids come from one running next_catalog_id / next_file_id, mirrored in
 *    each ducklake_snapshot row, so counters stay above every id;
 *  - versioned entities have exactly one open version.
 */
#ifndef ROCKLAKE_DEMO_H
#define ROCKLAKE_DEMO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "catalog/catalog.h"
#include "base/error.h"

typedef struct rl_demo_params {
    int tables;            /* user tables in schema "main" (>= 1) */
    int columns_per_table; /* columns per table (>= 1, <= 60) */
    int files;             /* data files, spread round-robin over the tables */
    int history;           /* renames per table: each closes a version and opens one */
    int files_per_commit;  /* data files per transaction (1 = one snapshot per file) */
    bool column_stats;     /* write ducklake_file_column_stats / table_column_stats */
    bool extras;           /* tag, view, macro, partition, sort, inlined data, ... */
} rl_demo_params;

/* Fill *p with the small defaults of `rocklake demo` (5 tables, 4 columns,
 * 20 files, history 2, 1 file per commit, stats and extras on). */
void rl_demo_defaults(rl_demo_params *p);

/* The seeds' reference catalog for the storage benchmark: 50 tables,
 * 500 columns in all, 10,000 data files with per-column stats, 100 files per
 * commit. */
void rl_demo_reference(rl_demo_params *p);

/* Build the demo catalog into `cat` (registering DuckLake's tables under
 * schema "public" first, so SQL clients see them), which must be an open writer on a
 * catalog without snapshots (an existing ducklake_snapshot is an error, so a
 * second run never mixes two demos). Progress lines go to `progress` (may be
 * NULL) about every 1000 data files. Returns 0 or -1 with *err filled.
 * Borrows `cat` and `p`; allocates nothing that outlives the call. */
int rl_demo_build(rl_catalog *cat, const rl_demo_params *p, FILE *progress, rl_error *err);

#endif
