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

#include "keys/tags.h"

int rl_txn_oldest_snapshot(rl_txn *t, int64_t *id, rl_datum *taken, rl_error *err)
{
    rl_scan *sc = rl_txn_scan(t, rl_desc_by_tag(RL_TAG_SNAPSHOT), NULL, 0, err);
    if (!sc)
        return -1;
    const rl_row *row;
    int rc = rl_scan_next(sc, &row, err);
    if (rc == 1) {
        *id = row->vals[0].v.i;
        *taken = row->vals[1]; /* a timestamptz: no bytes to outlive the scan */
    }
    rl_scan_free(sc);
    return rc;
}
