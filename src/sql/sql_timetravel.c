/*
 * sql_timetravel.c — DuckLake's time-travel lookups, recognised by the SQL
 * layer (sql_timetravel.h).
 *
 * Owns: which read sets of ducklake_snapshot are DuckLake's lookups of a
 * snapshot's catalog state (by version, by time), and the 72000 "snapshot
 * too old" error with its detail and hint. The catalog only answers the
 * fact this needs: the oldest snapshot its transaction sees
 * (rl_txn_oldest_snapshot). DuckLake's column names live here, in the
 * layer that reads SQL, not in the catalog.
 *
 * Invariants: reads only; 0 for every probe that is not one of the two
 * lookups (a read that finds nothing answers nothing, as on PostgreSQL).
 */
#include "sql/sql_timetravel.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "catalog/catalog.h"
#include "pgtype/pgtype.h"

bool rl_timetravel_applies(const rl_table_desc *d)
{
    return strcmp(d->name, "ducklake_snapshot") == 0;
}

/* Does the query read exactly the columns named (of d, in its format)? */
static bool reads_exactly(rl_txn *t, const rl_table_desc *d, rl_format fmt, const bool *reads,
                          const char *const *names, size_t n)
{
    size_t want = 0;
    for (size_t i = 0; i < n; i++) {
        int c = rl_desc_column_index(d, names[i], fmt);
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
 * WHERE snapshot_id = N`. */
static bool by_version(rl_txn *t, const rl_table_desc *d, rl_format fmt,
                       const rl_timetravel_probe *p)
{
    static const char *const state[] = {"snapshot_id", "schema_version", "next_catalog_id",
                                        "next_file_id"};
    return p->nkey > 0 && !p->key[0].isnull && p->key[0].v.i >= 0 &&
           reads_exactly(t, d, fmt, p->reads, state, 4);
}

/* DuckLake's lookup by time: `SELECT snapshot_time, snapshot_id ... WHERE
 * snapshot_time <= T`. */
static bool by_time(rl_txn *t, const rl_table_desc *d, rl_format fmt,
                    const rl_timetravel_probe *p)
{
    static const char *const when[] = {"snapshot_time", "snapshot_id"};
    return p->nkey == 0 && p->upper_col == rl_desc_column_index(d, "snapshot_time", fmt) &&
           !p->upper.isnull && reads_exactly(t, d, fmt, p->reads, when, 2);
}

/* `asked` names what was looked for ("snapshot 3 of this lake was expired",
 * "no snapshot of this lake at or before T is retained"). */
static int expired_error(rl_error *err, int64_t oldest, const rl_datum *taken, const char *asked)
{
    rl_buf when;
    rl_buf_init(&when, 0);
    rl_datum_to_text(&when, RL_T_TIMESTAMPTZ, taken);
    unsigned long long id = (unsigned long long)oldest;
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

int rl_timetravel_check(rl_exec *x, const rl_table_desc *d, const rl_timetravel_probe *p)
{
    if (!rl_timetravel_applies(d) || (p->nkey == 0 && p->upper_col < 0))
        return 0;
    rl_txn *t = rl_exec_txn(x);
    if (!t)
        return 0;
    rl_format fmt = rl_exec_format(x);
    bool version = by_version(t, d, fmt, p), time = by_time(t, d, fmt, p);
    if (!version && !time)
        return 0;
    int64_t oldest;
    rl_datum taken;
    int rc = rl_txn_oldest_snapshot(t, &oldest, &taken, x->err);
    if (rc <= 0)
        return rc;
    char asked[160];
    if (version && p->key[0].v.i < oldest) {
        snprintf(asked, sizeof asked, "snapshot %lld of this lake was expired",
                 (long long)p->key[0].v.i);
        return expired_error(x->err, oldest, &taken, asked);
    }
    if (time && oldest > 0 && p->upper.v.i < taken.v.i) {
        rl_buf at;
        rl_buf_init(&at, 0);
        rl_datum_to_text(&at, RL_T_TIMESTAMPTZ, &p->upper);
        snprintf(asked, sizeof asked, "no snapshot of this lake at or before %.*s is retained",
                 at.failed ? 0 : (int)at.len, at.failed ? "" : (const char *)at.data);
        rl_buf_free(&at);
        return expired_error(x->err, oldest, &taken, asked);
    }
    return 0;
}
