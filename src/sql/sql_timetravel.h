/*
 * sql_timetravel.h — DuckLake's time-travel lookups (sql_timetravel.c),
 * private to src/sql/: which reads of ducklake_snapshot are DuckLake asking
 * for the catalog state of a snapshot, and the 72000 error when that
 * snapshot was expired.
 */
#ifndef ROCKLAKE_SQL_TIMETRAVEL_H
#define ROCKLAKE_SQL_TIMETRAVEL_H

#include <stdbool.h>
#include <stddef.h>

#include "keys/desc.h"
#include "sql/sql_exec.h"

/* What a query that found no row of d asked for: one key (fields
 * key[0..nkey), or nkey 0), or, as its whole WHERE, `column upper_col <=
 * upper` (upper_col -1: not that), reading the columns flagged in reads[]
 * (one per stored column of d). */
typedef struct rl_timetravel_probe {
    const rl_datum *key;
    size_t nkey;
    int upper_col;
    rl_datum upper;
    const bool *reads;
} rl_timetravel_probe;

/* Can a read of d be a time-travel lookup at all (ducklake_snapshot)? A
 * caller checks this before building a probe, so an empty answer from any
 * other table costs nothing. */
bool rl_timetravel_applies(const rl_table_desc *d);

/* -1 with 72000 in x->err, naming the oldest snapshot the lake retains,
 * when the probe is one of DuckLake's lookups and asked for a snapshot
 * older than it: by version (exactly snapshot_id, schema_version,
 * next_catalog_id, next_file_id of one key) an id below the oldest, or by
 * time (exactly snapshot_time, snapshot_id where snapshot_time <= T) once
 * snapshots were expired. 0 otherwise: finding nothing is the answer, as
 * on PostgreSQL (ducklake_snapshots(), an expiry of an id already gone, a
 * hand-written SELECT * read other columns). */
int rl_timetravel_check(rl_exec *x, const rl_table_desc *d, const rl_timetravel_probe *p);

#endif
