/*
 * retention.c — snapshot retention: the oldest snapshot a lake retains,
 * and the 72000 error of DuckLake's time-travel lookups before it.
 *
 * Owns: which probes are DuckLake's lookups by version or by time
 * (rl_retention_probe), and the oldest snapshot row in a transaction's
 * view (for commit's retain-from).
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

/* Does the query read exactly the columns named (of d, in its format)? */
static bool reads_exactly(rl_txn *t, const rl_table_desc *d, const bool *reads,
                          const char *const *names, size_t n)
{
    size_t want = 0;
    for (size_t i = 0; i < n; i++) {
        int c = rl_desc_column_index(d, names[i], t->fmt);
        assert(c >= 0);
        if (!reads[c])
            return false;
    }
    for (size_t c = 0; c < rl_txn_table_ncols(t, d); c++)
        want += reads[c];
    return want == n;
}

/* DuckLake's lookup by version: the catalog state of one snapshot row,
 * `SELECT snapshot_id, schema_version, next_catalog_id, next_file_id ...
 * WHERE snapshot_id = N`. Only that read set: other reads of a missing row
 * (ducklake_snapshots(), an expiry of an id already gone, a hand-written
 * SELECT *) get the empty answer PostgreSQL gives. */
static bool retention_by_version(rl_txn *t, const rl_table_desc *d, const rl_retention_probe *p)
{
    static const char *const state[] = {"snapshot_id", "schema_version", "next_catalog_id",
                                        "next_file_id"};
    return p->nkey > 0 && !p->key[0].isnull && p->key[0].v.i >= 0 &&
           reads_exactly(t, d, p->reads, state, 4);
}

/* DuckLake's lookup by time: `SELECT snapshot_time, snapshot_id ... WHERE
 * snapshot_time <= T`. */
static bool retention_by_time(rl_txn *t, const rl_table_desc *d, const rl_retention_probe *p)
{
    static const char *const when[] = {"snapshot_time", "snapshot_id"};
    return p->nkey == 0 && p->upper_col == rl_desc_column_index(d, "snapshot_time", t->fmt) &&
           !p->upper.isnull && reads_exactly(t, d, p->reads, when, 2);
}

/* `asked` names what was looked for ("snapshot 3 of this lake was expired",
 * "no snapshot of this lake at or before T is retained"). */
static int expired_error(rl_error *err, const rl_row *oldest, const char *asked)
{
    rl_buf when;
    rl_buf_init(&when, 0);
    rl_datum_to_text(&when, RL_T_TIMESTAMPTZ, &oldest->vals[1]);
    unsigned long long id = (unsigned long long)oldest->vals[0].v.i;
    rl_error_set(err, RL_SQLSTATE_SNAPSHOT_TOO_OLD, "%s: the oldest snapshot it retains is %llu",
                 asked, id);
    rl_error_detail(err, "ducklake_expire_snapshots removed the snapshots before %llu, which "
                         "was taken at %.*s; time travel reaches it and the later ones.",
                    id, when.failed ? 0 : (int)when.len, when.failed ? "" : (const char *)when.data);
    rl_error_hint(err, "Read at VERSION => %llu or later; SELECT * FROM <lake>.snapshots() "
                       "lists the snapshots retained.", id);
    rl_buf_free(&when);
    return -1;
}

bool rl_retention_applies(const rl_table_desc *d) { return d->tag == RL_TAG_SNAPSHOT; }

int rl_txn_check_retained(rl_txn *t, const rl_table_desc *d, const rl_retention_probe *p,
                          rl_error *err)
{
    if (!rl_retention_applies(d))
        return 0;
    bool by_version = retention_by_version(t, d, p), by_time = retention_by_time(t, d, p);
    if (!by_version && !by_time)
        return 0;
    rl_scan *sc;
    const rl_row *oldest;
    int rc = cat_first_snapshot_row(t, &sc, &oldest, err);
    char asked[160];
    if (rc == 1 && by_version && (uint64_t)p->key[0].v.i < (uint64_t)oldest->vals[0].v.i) {
        snprintf(asked, sizeof asked, "snapshot %lld of this lake was expired",
                 (long long)p->key[0].v.i);
        rc = expired_error(err, oldest, asked);
    } else if (rc == 1 && by_time && oldest->vals[0].v.i > 0 &&
               p->upper.v.i < oldest->vals[1].v.i) {
        rl_buf at;
        rl_buf_init(&at, 0);
        rl_datum_to_text(&at, RL_T_TIMESTAMPTZ, &p->upper);
        snprintf(asked, sizeof asked, "no snapshot of this lake at or before %.*s is retained",
                 at.failed ? 0 : (int)at.len, at.failed ? "" : (const char *)at.data);
        rl_buf_free(&at);
        rc = expired_error(err, oldest, asked);
    }
    rl_scan_free(sc);
    return rc < 0 ? -1 : 0;
}
