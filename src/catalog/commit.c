/*
 * commit.c — COMMIT: validation, commit sequencing, the one atomic batch,
 * the commit log.
 *
 * Owns: rl_txn_commit; checking every expectation against the latest
 * state (in memory when the commit log covers the commits since the
 * snapshot), moving a row of a table that keeps duplicates when its key
 * was taken, calling the rebase planner (sequence.c) when a DuckLake append
 * lost the race for its snapshot id, and its metrics; the commit log.
 *
 * Invariants: validation and the memtable write happen under cat->lock
 * (commits are ordered and each validates against every earlier one); the
 * wait for durability happens outside it (flush.c); a commit's rows, its
 * counters, its audit row and retain-from are one kv batch; a failed commit
 * writes nothing. Sequencing is called from here only and reads only
 * through scan.c.
 */
#include "catalog/catalog_int.h"

#include <assert.h>
#include <time.h>

#include "base/crashpoint.h"
#include "keys/keys.h"
#include "keys/tags.h"

_Static_assert(RL_SEQ_NREASONS <= sizeof(((rl_sequence_stats *)0)->fallbacks) /
                                       sizeof(((rl_sequence_stats *)0)->fallbacks[0]),
               "rl_sequence_stats.fallbacks holds every fallback reason");

bool rl_catalog_sequence_commits(const rl_catalog *cat) { return cat->sequence_commits; }

void rl_catalog_sequence_stats(rl_catalog *cat, rl_sequence_stats *out)
{
    memset(out, 0, sizeof *out);
    out->rebased = atomic_load(&cat->seq_rebased);
    out->distance = atomic_load(&cat->seq_distance);
    out->rebase_ns = atomic_load(&cat->seq_ns);
    for (size_t i = 0; i < RL_SEQ_NREASONS; i++)
        out->fallbacks[i] = atomic_load(&cat->seq_fallbacks[i]);
}

const char *rl_sequence_reason_name(size_t i)
{
    return i > 0 && i < RL_SEQ_NREASONS ? rl_seq_reason_name((rl_seq_reason)i)
           : i == 0                     ? ""
                                        : NULL;
}

/* ----------------------------------------------------------------- commit */

/* Remember the keys of commit `seq` (caller holds cat->lock). Without
 * memory the slot is left empty, which only costs later commits a store
 * read. */
static void commit_log_add_locked(rl_catalog *cat, uint64_t seq, const rl_txn *t,
                                  uint64_t kv_seq)
{
    CAT_ASSERT_LOCKED(cat);
    commit_log_entry *e = &cat->log[seq % COMMIT_LOG_SIZE];
    free(e->blob);
    *e = (commit_log_entry){0};
    size_t len = 0;
    for (size_t i = 0; i < t->nov; i++)
        len += 4 + t->ov[i].klen;
    uint8_t *blob = malloc(len ? len : 1);
    if (!blob)
        return;
    size_t off = 0;
    for (size_t i = 0; i < t->nov; i++) {
        uint32_t kl = (uint32_t)t->ov[i].klen;
        memcpy(blob + off, &kl, 4);
        memcpy(blob + off + 4, t->ov[i].key, kl);
        off += 4 + kl;
    }
    *e = (commit_log_entry){.seq = seq,
                            .blob = blob,
                            .len = len,
                            .kv_seq = kv_seq,
                            .shape = t->wrote_names || t->fmt_changed};
}

/* Does the log hold every commit after the transaction's snapshot? */
static bool commit_log_covers_locked(const rl_txn *t)
{
    CAT_ASSERT_LOCKED(t->cat);
    const rl_catalog *cat = t->cat;
    if (t->snap == NULL || cat->written_seq - t->snap_seq > COMMIT_LOG_MAX_SCAN)
        return false;
    for (uint64_t s = t->snap_seq + 1; s <= cat->written_seq; s++)
        if (cat->log[s % COMMIT_LOG_SIZE].seq != s)
            return false;
    return true;
}

/* Did a commit after the snapshot write `e`'s key (or, for a prefix
 * expectation, any key under it)? Only valid when the log covers them. */
static bool commit_log_touches_locked(const rl_txn *t, const expectation *e)
{
    CAT_ASSERT_LOCKED(t->cat);
    const rl_catalog *cat = t->cat;
    bool prefix = e->kind == EXPECT_PREFIX_ABSENT || e->kind == EXPECT_RANGE_UNCHANGED ||
                  e->kind == EXPECT_FKEY_UNREFERENCED;
    for (uint64_t s = t->snap_seq + 1; s <= cat->written_seq; s++) {
        const commit_log_entry *c = &cat->log[s % COMMIT_LOG_SIZE];
        for (size_t off = 0; off + 4 <= c->len;) {
            uint32_t kl;
            memcpy(&kl, c->blob + off, 4);
            const uint8_t *k = c->blob + off + 4;
            off += 4 + kl;
            if (prefix ? kl >= e->klen && memcmp(k, e->key, e->klen) == 0
                       : kl == e->klen && memcmp(k, e->key, kl) == 0)
                return true;
        }
    }
    return false;
}

/* The overlay entry at `k` moves to k | dup. A row keeps its value; a
 * tombstone (the row was deleted or rekeyed again in this transaction) is
 * dropped: the key it would delete now holds another commit's row. No
 * entry: an earlier expectation on the same key moved it already. */
static int ov_move_to_dup(rl_txn *t, const uint8_t *k, size_t kl, uint64_t dup, rl_error *err)
{
    size_t i = cat_ov_lower_bound(t, k, kl);
    if (i == t->nov || rl_bytes_cmp(t->ov[i].key, t->ov[i].klen, k, kl) != 0)
        return 0;
    pending p = cat_ov_take(t, i);
    int rc = 0;
    if (p.val) {
        rl_buf nk;
        rl_buf_init(&nk, 0);
        rl_buf_put(&nk, p.key, p.klen);
        rl_key_put_dup(&nk, dup);
        rc = nk.failed ? oom(err) : cat_ov_set(t, nk.data, nk.len, p.val, p.vlen, err);
        rl_buf_free(&nk);
    }
    free(p.key);
    free(p.val);
    return rc;
}

/* The transaction's UNIQUE index entries (0x80 07) that name the row at
 * `from` name it at `to` now (the row moved to a discriminator). */
static int ov_renames_row(rl_txn *t, const uint8_t *from, size_t fl, const uint8_t *to,
                          size_t tl, rl_error *err)
{
    uint8_t prefix[RL_KEY_INDEX_PREFIX_LEN];
    size_t plen = rl_key_index_prefix(prefix, RL_INDEX_UNIQUE);
    for (size_t i = cat_ov_lower_bound(t, prefix, plen); i < t->nov; i++) {
        pending *p = &t->ov[i];
        if (p->klen < plen || memcmp(p->key, prefix, plen) != 0)
            break;
        if (!p->val || rl_bytes_cmp(p->val, p->vlen, from, fl) != 0)
            continue;
        uint8_t *nv = dup_bytes(to, tl);
        if (!nv)
            return oom(err);
        free(p->val);
        p->val = nv;
        p->vlen = tl;
    }
    return 0;
}

/* A concurrent commit took the natural key K that this transaction put a
 * row at (EXPECT_SLOT_FREE): the row and its live-index entry move to
 * K | dup, as PostgreSQL would keep both rows, and the UNIQUE index entries
 * that named it follow. Caller holds cat->lock, so the discriminator is
 * taken here and nothing else can take K | dup. */
static int move_to_dup_locked(rl_txn *t, const expectation *e, rl_error *err)
{
    CAT_ASSERT_LOCKED(t->cat);
    rl_buf live;
    rl_buf_init(&live, 0);
    rl_key_live_index(&live, e->key[0], e->key, e->klen);
    uint64_t dup;
    int rc = -1;
    if (live.failed)
        oom(err);
    else if (cat_alloc_seq_locked(t->cat, RL_COUNTER_NEXT_DUP, &dup, err) == 0 &&
             cat_touch_counter(t, RL_COUNTER_NEXT_DUP, dup + 1, err) == 0 &&
             ov_move_to_dup(t, e->key, e->klen, dup, err) == 0 &&
             ov_move_to_dup(t, live.data, live.len, dup, err) == 0) {
        rl_buf moved;
        rl_buf_init(&moved, 0);
        rl_buf_put(&moved, e->key, e->klen);
        rl_key_put_dup(&moved, dup);
        rc = moved.failed ? oom(err)
                          : ov_renames_row(t, e->key, e->klen, moved.data, moved.len, err);
        rl_buf_free(&moved);
    }
    rl_buf_free(&live);
    return rc;
}

/* Does the range under e's prefix hold the same keys and values in the
 * latest state as in the transaction's snapshot? 1 yes, 0 no, -1 error. */
static int range_unchanged_locked(rl_txn *t, const expectation *e, rl_error *err)
{
    CAT_ASSERT_LOCKED(t->cat);
    if (!t->snap)
        return 0;
    kv_error ke;
    kv_iter *then = kv_scan_prefix(t->cat->kv, t->snap, e->key, e->klen, &ke);
    kv_iter *now = then ? kv_scan_prefix(t->cat->kv, NULL, e->key, e->klen, &ke) : NULL;
    int same = 1;
    for (;;) {
        if (!now) {
            same = cat_kv_fail(err, &ke, "validating commit");
            break;
        }
        const uint8_t *k1, *v1, *k2, *v2;
        size_t kl1, vl1, kl2, vl2;
        int r1 = kv_iter_next(then, &k1, &kl1, &v1, &vl1, &ke);
        int r2 = r1 < 0 ? -1 : kv_iter_next(now, &k2, &kl2, &v2, &vl2, &ke);
        if (r1 < 0 || r2 < 0) {
            same = cat_kv_fail(err, &ke, "validating commit");
            break;
        }
        if (r1 != r2 || (r1 == 1 && (rl_bytes_cmp(k1, kl1, k2, kl2) != 0 ||
                                     rl_bytes_cmp(v1, vl1, v2, vl2) != 0))) {
            same = 0;
            break;
        }
        if (r1 == 0)
            break;
    }
    kv_iter_free(then);
    kv_iter_free(now);
    return same;
}

/* A FOREIGN KEY's expectation against the latest state (`found`: the
 * referenced key, or a referencing row under the prefix, is there): the
 * referenced key gone (a concurrent DELETE of the referenced row committed
 * first), or a referencing row there (a concurrent INSERT of one committed
 * first); PostgreSQL waits for the other transaction and fails this one
 * with the same 23503. 0 holds, -1 with err. */
static int fkey_expectation_holds(const expectation *e, int found, rl_error *err)
{
    if (e->kind == EXPECT_FKEY_PRESENT && found == 0)
        rl_error_set(err, RL_SQLSTATE_FOREIGN_KEY_VIOLATION,
                     "insert or update on table \"%s\" violates foreign key constraint \"%s\"",
                     e->table, e->constraint);
    else if (e->kind == EXPECT_FKEY_UNREFERENCED && found == 1)
        rl_error_set(err, RL_SQLSTATE_FOREIGN_KEY_VIOLATION,
                     "update or delete on table \"%s\" violates foreign key constraint \"%s\" "
                     "on table \"%s\"",
                     e->table, e->constraint, e->other);
    else
        return 0;
    rl_error_detail(err, "%s", e->detail);
    return -1;
}

static int check_expectations(rl_txn *t, rl_error *err)
{
    CAT_ASSERT_LOCKED(t->cat); /* commit validates under the lock */
    kv_db *kv = t->cat->kv;
    kv_error ke;
    bool logged = commit_log_covers_locked(t);
    for (size_t i = 0; i < t->nex; i++) {
        expectation *e = &t->ex[i];
        /* nobody wrote it since our snapshot, which is where it was read */
        if (logged && !commit_log_touches_locked(t, e))
            continue;
        int taken;
        if (e->kind == EXPECT_RANGE_UNCHANGED) {
            int same = logged ? 0 : range_unchanged_locked(t, e, err);
            if (same < 0)
                return -1;
            if (!same)
                return cat_serialization_failure(err, "a concurrent change of a table a unique "
                                                  "index was built on");
            continue;
        }
        bool fkey = e->kind == EXPECT_FKEY_PRESENT || e->kind == EXPECT_FKEY_UNREFERENCED;
        if (e->kind == EXPECT_PREFIX_ABSENT || e->kind == EXPECT_FKEY_UNREFERENCED) {
            kv_iter *it = kv_scan_prefix(kv, NULL, e->key, e->klen, &ke);
            if (!it)
                return cat_kv_fail(err, &ke, "validating commit");
            const uint8_t *k, *v;
            size_t kl, vl;
            taken = kv_iter_next(it, &k, &kl, &v, &vl, &ke);
            kv_iter_free(it);
        } else {
            uint8_t *v = NULL;
            size_t vl = 0;
            taken = kv_get(kv, NULL, e->key, e->klen, e->kind == EXPECT_VALUE ? &v : NULL, &vl,
                           &ke);
            if (taken >= 0 && e->kind == EXPECT_VALUE) {
                bool same = (taken == 1) == (e->val != NULL) &&
                            (!e->val || rl_bytes_cmp(v, vl, e->val, e->vlen) == 0);
                free(v);
                if (!same) {
                    rl_error_set(err, RL_SQLSTATE_SERIALIZATION_FAILURE,
                                 "could not serialize access due to concurrent update");
                    rl_error_hint(err, "another transaction changed this row after this "
                                       "transaction's snapshot; retry the transaction");
                    return -1;
                }
                continue;
            }
        }
        if (taken < 0)
            return cat_kv_fail(err, &ke, "validating commit");
        if (fkey) {
            if (fkey_expectation_holds(e, taken, err) < 0)
                return -1;
            continue;
        }
        if (taken && e->kind == EXPECT_SLOT_FREE) {
            if (move_to_dup_locked(t, e, err) < 0)
                return -1;
            continue;
        }
        if (taken) {
            rl_error_set(err, RL_SQLSTATE_UNIQUE_VIOLATION,
                         "duplicate key value violates unique constraint \"%s\"", e->constraint);
            rl_error_detail(err, "%s", e->detail);
            return -1;
        }
    }
    return 0;
}

/* A reader of `snap` (NULL: the latest state), for the rebase planner. It
 * borrows the snapshot and is freed with rl_txn_free. Caller holds cat->lock
 * (a reader takes no lock of its own). */
static rl_txn *reader_locked(rl_catalog *cat, kv_snapshot *snap, rl_format fmt, rl_error *err)
{
    CAT_ASSERT_LOCKED(cat);
    rl_txn *r = calloc(1, sizeof *r);
    if (!r) {
        oom(err);
        return NULL;
    }
    r->cat = cat;
    r->snap = snap;
    r->snap_borrowed = true;
    r->fmt = fmt;
    r->done = true; /* reads only */
    rl_buf_init(&r->get_key, 0);
    rl_buf_init(&r->get_arena, 0);
    return r;
}

/* Rule R4: every commit since the transaction's snapshot was a DuckLake
 * commit (it wrote a snapshot row) that wrote only keys an append writes.
 * Only valid when the commit log covers them. */
static bool history_only_appends_locked(const rl_txn *t)
{
    CAT_ASSERT_LOCKED(t->cat);
    const rl_catalog *cat = t->cat;
    for (uint64_t s = t->snap_seq + 1; s <= cat->written_seq; s++) {
        const commit_log_entry *c = &cat->log[s % COMMIT_LOG_SIZE];
        bool snapshot = false;
        for (size_t off = 0; off + 4 <= c->len;) {
            uint32_t kl;
            memcpy(&kl, c->blob + off, 4);
            const uint8_t *k = c->blob + off + 4;
            off += 4 + kl;
            if (!rl_seq_append_key(k, kl))
                return false;
            snapshot |= k[0] == RL_TAG_SNAPSHOT;
        }
        if (!snapshot)
            return false;
    }
    return true;
}

/* Replace the transaction's buffered writes by the plan's, written against
 * the latest state (the lock keeps it fixed), then validate them as any
 * commit: the expectations they record hold unless the plan is wrong. */
static int replay_locked(rl_txn *t, const rl_seq_plan *plan, rl_error *err)
{
    CAT_ASSERT_LOCKED(t->cat);
    cat_free_buffered_writes(t);
    kv_snapshot *snap = t->snap;
    t->snap = NULL;
    t->seq = false;
    t->locked = true;
    t->done = false;
    int rc = 0;
    for (size_t i = 0; i < plan->n && rc == 0; i++) {
        const rl_seq_write *w = &plan->w[i];
        assert(w->op == RL_SEQ_INSERT || w->op == RL_SEQ_UPDATE);
        rc = w->op == RL_SEQ_INSERT ? rl_txn_insert(t, w->d, w->row, err)
                                    : rl_txn_update(t, w->d, w->key, w->klen, w->row, err);
    }
    /* the replayed rows' DEFERRED FOREIGN KEY checks: against the latest
     * state too, never skipped (they run at COMMIT, which this is) */
    if (rc == 0)
        rc = rl_txn_fkey_deferred_checks(t, err);
    if (rc == 0)
        rc = check_expectations(t, err);
    t->snap = snap;
    t->locked = false;
    t->done = true;
    if (rc == 0) {
        t->rebased = true;
        t->claimed_sid = plan->claimed_sid;
        t->base_sid = plan->base_sid;
        rl_str_copy(t->id_map, sizeof t->id_map, plan->id_map);
    }
    return rc;
}

/* Sequencing's COMMIT (docs/design/commit-sequencing.md §7.3), under
 * cat->lock: when the transaction's snapshot id is still free, validate as
 * always; when a concurrent commit took it, rebase the transaction onto the
 * latest state if it is a pure append, or fail it with the same 23505 as
 * without sequencing (counted under the reason). */
static int sequence_locked(rl_txn *t, rl_error *err)
{
    CAT_ASSERT_LOCKED(t->cat);
    rl_catalog *cat = t->cat;
    const rl_table_desc *sd = rl_desc_by_tag(RL_TAG_SNAPSHOT);
    rl_datum id = {.v.i = (int64_t)t->max_snapshot_inserted};
    rl_buf k;
    rl_buf_init(&k, 0);
    kv_error ke;
    int taken = rl_key_encode_prefix(&k, sd, &id, 1) != RL_KEY_OK || k.failed
                    ? -2
                    : kv_get(cat->kv, NULL, k.data, k.len, NULL, NULL, &ke);
    rl_buf_free(&k);
    if (taken == -2)
        return oom(err);
    if (taken < 0)
        return cat_kv_fail(err, &ke, "validating commit");
    if (taken == 0)
        return check_expectations(t, err);
    uint64_t t0 = rl_monotonic_ns();
    rl_seq_reason reason = RL_SEQ_OK;
    if (t->seq_foreign)
        reason = RL_SEQ_NOT_APPEND;
    else if (!commit_log_covers_locked(t))
        reason = RL_SEQ_LOG_WINDOW;
    else if (!history_only_appends_locked(t))
        reason = RL_SEQ_FOREIGN_COMMIT;
    rl_seq_plan plan;
    memset(&plan, 0, sizeof plan);
    if (reason == RL_SEQ_OK) {
        rl_txn *base = reader_locked(cat, t->snap, t->fmt, err);
        rl_txn *latest = base ? reader_locked(cat, NULL, cat->fmt, err) : NULL;
        int rc = latest ? rl_seq_plan_rebase(base, latest, t->seqw, t->nseqw, cat_now_pg_micros(),
                                            &plan, &reason, err)
                        : -1;
        rl_txn_free(base);
        rl_txn_free(latest);
        if (rc < 0) {
            atomic_fetch_add(&cat->seq_fallbacks[RL_SEQ_ERROR], 1);
            return -1;
        }
    }
    if (reason != RL_SEQ_OK) {
        atomic_fetch_add(&cat->seq_fallbacks[reason], 1);
        if (check_expectations(t, err) == 0) /* the snapshot key's expectation fails it */
            rl_error_set(err, RL_SQLSTATE_UNIQUE_VIOLATION,
                         "duplicate key value violates unique constraint "
                         "\"ducklake_snapshot_pkey\"");
        return -1;
    }
    int rc = replay_locked(t, &plan, err);
    if (rc == 0) {
        rl_crash_point(RL_CRASH_SEQUENCE_PLACED);
        atomic_fetch_add(&cat->seq_rebased, 1);
        atomic_fetch_add(&cat->seq_distance, plan.assigned_sid - plan.claimed_sid);
    } else {
        atomic_fetch_add(&cat->seq_fallbacks[RL_SEQ_ERROR], 1);
    }
    rl_seq_plan_free(&plan);
    atomic_fetch_add(&cat->seq_ns, rl_monotonic_ns() - t0);
    return rc;
}

/* Does this transaction delete a snapshot row (ducklake_expire_snapshots)?
 * The overlay is sorted, so its snapshot keys are one run. */
static bool deletes_snapshot(rl_txn *t)
{
    const uint8_t tag = RL_TAG_SNAPSHOT;
    for (size_t i = cat_ov_lower_bound(t, &tag, 1); i < t->nov && t->ov[i].key[0] == tag; i++)
        if (!t->ov[i].val)
            return true;
    return false;
}

bool rl_txn_has_writes(const rl_txn *t)
{
    return t->nov + t->ndv > 0 || t->fmt_changed;
}

int rl_txn_commit(rl_txn *t, rl_error *err)
{
    if (t->done)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "transaction already finished");
    /* FOREIGN KEY checks left: a DEFERRED key's, and NO ACTION's of a
     * writer through the API that did not end a statement */
    if (rl_txn_fkey_deferred_checks(t, err) < 0) {
        t->done = true;
        return -1;
    }
    t->done = true;
    if (t->nov + t->ndv == 0 && t->nex == 0)
        return 0;
    if (t->cat->read_only)
        return rl_error_set(err, RL_SQLSTATE_READ_ONLY_TRANSACTION,
                            "cannot commit writes on a read-only RockLake follower");
    rl_catalog *cat = t->cat;
    if (rl_catalog_failed(cat))
        return cat_store_failed_error(cat, err);
    /* An expiry moves the lake's "retain-from" (the oldest snapshot left),
     * in the same batch. A concurrent expiry of the same rows conflicts in
     * validation, so the transaction's own view decides it. */
    int64_t retain_from = 0;
    rl_datum oldest_taken;
    int retain = deletes_snapshot(t) ? rl_txn_oldest_snapshot(t, &retain_from, &oldest_taken, err)
                                     : 0;
    if (retain < 0)
        return -1;
    kv_batch *b = kv_batch_new();
    uint64_t *values = NULL;
    kv_pending *in_flight = NULL;
    kv_error ke;
    int rc = -1;
    /* Validation and the memtable write happen under the lock, so commits
     * are ordered and each one validates against every earlier one. The
     * wait for durability happens outside it: commits that arrive while a
     * WAL flush is in flight share the next one (group commit). */
    uint64_t w0 = rl_monotonic_ns();
    pthread_mutex_lock(&cat->lock);
    uint64_t l0 = rl_monotonic_ns();
    atomic_fetch_add(&cat->commit_lock_wait_ns, l0 - w0);
    if (!b) {
        oom(err);
        goto unlock;
    }
    /* rows checked against other UNIQUE indexes than the latest commit's
     * lack the entries of one created since, or keep those of one dropped */
    if (t->rows_checked && t->rows_unique_gen != cat->unique_gen) {
        cat_serialization_failure(err, "a concurrent change of a table's constraints (UNIQUE, "
                                       "FOREIGN KEY or CHECK)");
        goto unlock;
    }
    if ((t->seq && t->inserted_snapshot ? sequence_locked(t, err) : check_expectations(t, err)) <
        0)
        goto unlock;
    /* after validation: moving a duplicate (move_to_dup_locked) touches a counter */
    if (!(values = calloc(t->ntc + 1, sizeof *values))) {
        oom(err);
        goto unlock;
    }
    cat_ov_settle(t); /* the batch (and the commit log) walk t->ov whole */
    if (t->nov == 0) { /* only UPDATEs that changed nothing: validated, nothing to write */
        atomic_fetch_add(&cat->commit_lock_held_ns, rl_monotonic_ns() - l0);
        pthread_mutex_unlock(&cat->lock);
        kv_batch_free(b);
        free(values);
        return 0;
    }
    for (size_t i = 0; i < t->nov; i++) {
        if (t->ov[i].val)
            kv_batch_put(b, t->ov[i].key, t->ov[i].klen, t->ov[i].val, t->ov[i].vlen);
        else
            kv_batch_delete(b, t->ov[i].key, t->ov[i].klen);
    }
    if (retain == 1)
        cat_batch_put_system_u64(b, RL_SYS_RETAIN_FROM, (uint64_t)retain_from);
    if (cat_add_counters_locked(t, b, values, err) < 0 || cat_add_audit_locked(t, b, err) < 0)
        goto unlock;
    if (kv_write_begin(cat->kv, b, &in_flight, &ke) < 0) {
        cat_note_store_failure(cat, &ke);
        cat_kv_fail(err, &ke, "committing");
        cat_hint_store_failed(cat, err);
        goto unlock;
    }
    /* Later commits must number from here even before this one is durable;
     * if it then fails, the ids are merely skipped. */
    for (size_t i = 0; i < t->ntc; i++) {
        counter *c = cat_counter_locked(cat, t->tc[i].name, NULL);
        if (c && values[i] > c->value)
            c->value = values[i];
    }
    counter *seqc = cat_counter_locked(cat, RL_COUNTER_NEXT_COMMIT_SEQ, NULL);
    if (seqc)
        seqc->value++;
    uint64_t my_seq = ++cat->written_seq;
    commit_log_add_locked(cat, my_seq, t, kv_pending_seq(in_flight));
    if (my_seq % MEMTABLE_FLUSH_EVERY == 0) {
        kv_error fe;
        kv_flush_memtable_async(cat->kv, &fe); /* best effort */
    }
    if (t->wrote_names)
        cat->name_gen++;
    if (t->unique_changed)
        cat->unique_gen++;
    if (t->fmt_changed)
        cat->fmt = t->fmt; /* transactions begun from now on see the new shapes */
    rl_crash_point(t->fmt_changed   ? RL_CRASH_FORMAT_WRITTEN
                   : t->wrote_names ? RL_CRASH_DDL_WRITTEN : RL_CRASH_COMMIT_WRITTEN);
    rc = 0;
unlock:
    atomic_fetch_add(&cat->commit_lock_held_ns, rl_monotonic_ns() - l0);
    pthread_mutex_unlock(&cat->lock);
    kv_batch_free(b);
    free(values);
    /* a handle exists only when the write began, and then rc is 0; the
     * wait (kv's group commit) consumes it */
    assert(!in_flight || rc == 0);
    if (in_flight && cat_write_wait(cat, in_flight, "committing", err) < 0)
        rc = -1;
    if (rc == 0) rl_crash_point(t->fmt_changed   ? RL_CRASH_FORMAT_DURABLE
                                : t->wrote_names ? RL_CRASH_DDL_DURABLE : RL_CRASH_COMMIT_DURABLE);
    return rc;
}

bool rl_txn_own_snapshot(const rl_txn *t, uint64_t *id)
{
    *id = t->inserted_snapshot ? t->max_snapshot_inserted : 0;
    return t->inserted_snapshot;
}
