/*
 * retention.c — snapshot retention: the oldest snapshot row in a
 * transaction's view, for commit's retain-from and for the SQL layer,
 * which recognises DuckLake's time-travel lookups and refuses one of an
 * expired snapshot (src/sql/sql_timetravel.c).
 *
 * Owns: the oldest snapshot row (snapshot_id is the key: the first row).
 *
 * Invariants: reads only.
 */
#include "catalog/catalog_int.h"

#include <assert.h>
#include <stdio.h>

#include "keys/tags.h"
#include "pgtype/pgtype.h"

/* The oldest snapshot row in the transaction's view (snapshot_id is the
 * key: the first row): 1 with *row, valid until rl_scan_free(*sc); 0 when
 * the lake has none yet; -1 on error (*sc NULL). The caller frees *sc. */
int cat_first_snapshot_row(rl_txn *t, rl_scan **sc, const rl_row **row, rl_error *err)
{
    *sc = rl_txn_scan(t, rl_desc_by_tag(RL_TAG_SNAPSHOT), NULL, 0, err);
    return *sc ? rl_scan_next(*sc, row, err) : -1;
}

/* The oldest snapshot's id: 1 with *id, 0 when there is none yet, -1 on
 * error. */
int cat_oldest_snapshot(rl_txn *t, uint64_t *id, rl_error *err)
{
    rl_scan *sc;
    const rl_row *row;
    int rc = cat_first_snapshot_row(t, &sc, &row, err);
    if (rc == 1)
        *id = (uint64_t)row->vals[0].v.i;
    rl_scan_free(sc);
    return rc;
}

int rl_txn_oldest_snapshot(rl_txn *t, int64_t *id, rl_datum *taken, rl_error *err)
{
    rl_scan *sc;
    const rl_row *row;
    int rc = cat_first_snapshot_row(t, &sc, &row, err);
    if (rc == 1) {
        *id = row->vals[0].v.i;
        *taken = row->vals[1]; /* a timestamptz: no bytes to outlive the scan */
    }
    rl_scan_free(sc);
    return rc;
}
