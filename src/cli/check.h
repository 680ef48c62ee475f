/*
 * check.h — `rocklake check`: verify a store's invariants in one key-order
 * pass.
 *
 * Owns: the list of storage invariants and their readable report. What is
 * checked (each failure is one problem line naming tag, key hex and what is
 * wrong):
 *  - every key has a known tag and decodes for its table; every value
 *    decodes for its descriptor in the catalog's DuckLake format; NOT NULL
 *    columns are not NULL;
 *  - at most one open version (end_snapshot NULL) per versioned entity
 *    (a DuckLake invariant PostgreSQL does not enforce: two duplicate open
 *    rows, which a table without a PRIMARY KEY accepts, are reported);
 *  - live index (0x80 01) entries point at existing rows with end_snapshot
 *    NULL, and every such row has one; pk index (0x80 02) entries point at
 *    existing rows with that id, and every row of such a table has one;
 *  - children name existing parents (the descriptors' `parents`, desc.h):
 *    ducklake_table.schema_id,
 *    ducklake_column/data_file/delete_file.table_id,
 *    ducklake_delete_file.data_file_id, ducklake_file_column_stats.data_file_id,
 *    ducklake_snapshot_changes.snapshot_id;
 *  - cross-table rules DuckLake keeps: a column, data file or delete file
 *    does not begin before its table's first version and is not live
 *    after its table was dropped; a delete file and a column statistics
 *    row name a data file of their own table; no begin_snapshot or
 *    end_snapshot is after the latest snapshot;
 *  - the store's integrity digest (kv.h, kv_verify): per key group, the
 *    keys and values found add up to what the writer committed (lost or
 *    resurrected keys are reported per tag);
 *  - counters are above every id in use (snapshot, catalog, file, row
 *    sequences, commit sequence, dynamic table ids, duplicate-row
 *    discriminators);
 *  - system keys: catalog-format-version == RL_STORAGE_FORMAT_VERSION,
 *    a known ducklake-format, a writer-epoch, no copy-incomplete marker
 *    (an unfinished import, backup or restore: catalog.h);
 *  - dynamic rows belong to a defined dynamic table; definitions and the
 *    name index agree both ways.
 *
 * Memory: hash sets of ids and of the keys of versioned rows — bounded by
 * the catalog's live metadata, never by the values.
 */
#ifndef ROCKLAKE_CHECK_H
#define ROCKLAKE_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "catalog/catalog.h"
#include "base/error.h"

/* Maximum problems printed; the rest are only counted. */
#define RL_CHECK_MAX_REPORTED 100

/* Check the store under `cat` (borrowed; a read-only open is enough).
 * Writes the report to `out`: "ok: N keys checked" when clean, otherwise one
 * line per problem (up to RL_CHECK_MAX_REPORTED) and a summary line.
 * Returns the number of problems (0 = clean), or -1 with *err filled when
 * the store could not be read at all. *keys_out (may be NULL) gets the
 * number of keys examined. */
long rl_check(rl_catalog *cat, FILE *out, uint64_t *keys_out, rl_error *err);

/* Before rl_check of the store at `url` (read-only: kv_journal_unapplied):
 * does a local store's journal hold records SlateDB lacks? rl_check reads
 * SlateDB only, so it would miss them (acknowledged commits of a writer
 * killed before its WAL followed; the next writer open replays them).
 * With no live writer (rl_lease_live) that is a failure of the check:
 * returns 1 and writes to `msgs` why and what to do (open the lake once
 * with `rocklake serve`); the caller still checks the store (its report
 * says what SlateDB holds) and exits 1. A live writer flushes them itself: returns 0 after a
 * note to `out` that the check does not cover them. 0 when there are none;
 * -1 with *err set when the store cannot be read. */
int rl_check_journal(const char *url, FILE *out, FILE *msgs, rl_error *err);
/* The same check by a copy (`rocklake import`) on its new lake before it
 * removes its marker: the copy-incomplete key is not a problem here. */
long rl_check_copy(rl_catalog *cat, FILE *out, uint64_t *keys_out, rl_error *err);

#endif
