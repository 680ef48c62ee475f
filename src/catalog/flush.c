/*
 * flush.c — durability of commits, as the catalog sees it.
 *
 * Owns: turning kv's group commit (kv.h: every store write is numbered,
 * kv_wait_durable(seq) makes every write up to seq durable, one leader for
 * a group) into the catalog's errors: the store failure latch, the SQLSTATE
 * and, after an I/O failure, the hint that the commit's outcome is unknown
 * and that the server recovers by itself.
 * There is no second group commit here: one numbering, one leader, in kv.
 *
 * Invariants: called with no catalog lock held (a wait may take as long as
 * an object write); a failed wait never acknowledges the write.
 */
#include "catalog/catalog_int.h"

uint64_t rl_catalog_durable_seq(rl_catalog *cat) { return kv_durable_seq(cat->kv); }

_Static_assert(RL_COMMIT_GROUP_BUCKETS == KV_GROUP_BUCKETS, "catalog.h names kv's buckets");

void rl_catalog_group_sizes(rl_catalog *cat, uint64_t out[RL_COMMIT_GROUP_BUCKETS])
{
    kv_group_sizes(cat->kv, out);
}

void rl_catalog_commit_times(rl_catalog *cat, rl_commit_times *out)
{
    kv_group_times g;
    kv_group_times_get(cat->kv, &g);
    *out = (rl_commit_times){.lock_wait_ns = atomic_load(&cat->commit_lock_wait_ns),
                             .lock_held_ns = atomic_load(&cat->commit_lock_held_ns),
                             .gather_ns = g.gather_ns,
                             .flush_ns = g.flush_ns,
                             .snapshot_waits = atomic_load(&cat->snapshot_waits),
                             .snapshot_wait_ns = atomic_load(&cat->snapshot_wait_ns)};
}

static int durable_failed(rl_catalog *cat, const kv_error *ke, const char *doing, rl_error *err)
{
    cat_note_store_failure(cat, ke);
    cat_kv_fail(err, ke, doing);
    if (ke->kind == KV_ERR_IO && rl_catalog_heals(cat))
        rl_error_hint(err, "The store did not take the write: this commit was not "
                           "acknowledged, and may or may not be in the store. The server "
                           "reopens the lake from its store by itself once the store works "
                           "again (docs/operations.md, \"Store faults\"): retry then; no "
                           "restart or new connection is needed.");
    else
        cat_hint_store_failed(cat, err);
    return -1;
}

int cat_wait_durable(rl_catalog *cat, uint64_t seq, const char *doing, rl_error *err)
{
    kv_error ke;
    if (kv_wait_durable(cat->kv, seq, &ke) < 0)
        return durable_failed(cat, &ke, doing, err);
    return 0;
}

int cat_write_wait(rl_catalog *cat, kv_pending *p, const char *doing, rl_error *err)
{
    kv_error ke;
    if (kv_write_wait(p, &ke) < 0)
        return durable_failed(cat, &ke, doing, err);
    return 0;
}
