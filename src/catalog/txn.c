/*
 * txn.c — a transaction: its read snapshot, its buffered writes (the
 * overlay, a sorted array of key -> value or tombstone) and its
 * expectations about the latest committed state.
 *
 * Owns: rl_txn_begin (the snapshot taken under cat->lock: the durable
 * view while commits are in flight, else the state at written_seq and the
 * wait until that is durable), rl_txn_free, the overlay, the
 * expectations, savepoints (copies of the buffered writes and
 * expectations, put back by rl_txn_restore), reads of one key in the
 * transaction's view, the relations version.
 *
 * Invariants: the overlay (t->ov and its delta t->dv, each sorted by key)
 * holds a key at most once; a writer's
 * snapshot holds nothing that is not durable when it is first read; it
 * holds the commits numbered up to snap_seq (exactly, unless a
 * READ COMMITTED refresh moved it on after the transaction wrote: then
 * snap_seq stays where its writes are validated from) and is only read
 * once they are durable; a refreshed transaction is never rebased; a finished
 * (done) transaction takes no write.
 */
#include "catalog/catalog_int.h"

#include <assert.h>

#include "keys/keys.h"
#include "keys/tags.h"

/* Index of the first of the n entries of a with key >= k. */
static size_t lower_bound_in(const pending *a, size_t n, const uint8_t *k, size_t kl)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rl_bytes_cmp(a[mid].key, a[mid].klen, k, kl) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void cat_ov_settle(rl_txn *t)
{
    if (t->ndv == 0)
        return;
    pending *grown = rl_array_reserve(t->ov, t->nov + t->ndv - 1, &t->capov, sizeof *grown, 64);
    if (!grown)
        abort(); /* out of memory merging buffered writes: nothing safe to go on with */
    t->ov = grown;
    /* merge from the back: each entry moves at most once, the runs of ov
     * between two delta keys (found by binary search) as blocks */
    size_t i = t->nov, j = t->ndv, w = t->nov + t->ndv;
    while (j > 0) {
        const pending *d = &t->dv[--j];
        size_t at = lower_bound_in(t->ov, i, d->key, d->klen); /* ov[at..i) > d */
        w -= i - at;
        memmove(&t->ov[w], &t->ov[at], (i - at) * sizeof *t->ov);
        i = at;
        t->ov[--w] = *d;
    }
    assert(w == i);
    t->nov += t->ndv;
    t->ndv = 0;
}

size_t cat_ov_lower_bound(rl_txn *t, const uint8_t *k, size_t kl)
{
    cat_ov_settle(t);
    return lower_bound_in(t->ov, t->nov, k, kl);
}

pending *cat_ov_find(rl_txn *t, const uint8_t *k, size_t kl)
{
    size_t i = lower_bound_in(t->ov, t->nov, k, kl);
    if (i < t->nov && rl_bytes_cmp(t->ov[i].key, t->ov[i].klen, k, kl) == 0)
        return &t->ov[i];
    i = lower_bound_in(t->dv, t->ndv, k, kl);
    if (i < t->ndv && rl_bytes_cmp(t->dv[i].key, t->dv[i].klen, k, kl) == 0)
        return &t->dv[i];
    return NULL;
}

/* The FOREIGN KEY checks left (fkeys.c's; freed here so that ending or
 * rolling back a transaction needs nothing of fkeys.c): all of them, or
 * (keep_commit) those for the statement's end only: a DEFERRED key's
 * checks outlive a savepoint's rollback, and look at the rows as they are
 * when they run (a row rolled back is gone, and has nothing to check). */
static void txn_fkey_deferred_drop(rl_txn *t, bool keep_commit)
{
    size_t kept = 0;
    for (size_t i = 0; i < t->nfkd; i++) {
        /* a referencing row's without its row key: a write that failed */
        if (keep_commit && t->fkd[i].at_commit && (!t->fkd[i].referencing || t->fkd[i].prefix)) {
            t->fkd[kept++] = t->fkd[i];
            continue;
        }
        free(t->fkd[i].prefix);
        free(t->fkd[i].refkey);
    }
    t->nfkd = kept;
    if (kept == 0) {
        free(t->fkd);
        t->fkd = NULL;
        t->capfkd = 0;
    }
}

/* checks.c's registries: stale after DDL, rebuilt on next use. */
static void cat_exprs_stale(rl_txn *t)
{
    for (int k = 0; k < CAT_EXPR_KINDS; k++)
        t->exprs[k].built = false;
}

/* Put (val != NULL) or tombstone (val == NULL) in the overlay. */
int cat_ov_set(rl_txn *t, const uint8_t *k, size_t kl, const uint8_t *val, size_t vlen,
                  rl_error *err)
{
    uint8_t *v = NULL;
    if (val && !(v = dup_bytes(val, vlen)))
        return oom(err);
    if (kl >= 2 && k[0] == RL_TAG_INDEX &&
        (k[1] == RL_INDEX_DYNAMIC_NAME || k[1] == RL_INDEX_SQL_INDEX || k[1] == RL_INDEX_COMMENT ||
         k[1] == RL_INDEX_FKEY || k[1] == RL_INDEX_CHECK || k[1] == RL_INDEX_DEFAULT)) {
        t->wrote_names = true;
        /* the UNIQUE index, FOREIGN KEY, CHECK and DEFAULT registries
         * (uniques.c, fkeys.c, checks.c) resolve definitions through table
         * names: a write of either makes them stale */
        if (k[1] != RL_INDEX_COMMENT) {
            t->uniq_built = t->fk_built = false;
            cat_exprs_stale(t);
        }
    }
    if (t->seq && t->seq_depth == 0)
        t->seq_foreign = true; /* not a row write sequencing can replay */
    pending *have = cat_ov_find(t, k, kl);
    if (have) {
        free(have->val);
        have->val = v;
        have->vlen = vlen;
        return 0;
    }
    /* a new key: into the delta, which is merged once it outgrows about
     * sqrt(nov) entries (at least 64) */
    if (t->ndv >= 64 && t->ndv * t->ndv >= t->nov)
        cat_ov_settle(t);
    pending *grown = rl_array_reserve(t->dv, t->ndv, &t->capdv, sizeof *grown, 64);
    if (!grown) {
        free(v);
        return oom(err);
    }
    t->dv = grown;
    uint8_t *kd = dup_bytes(k, kl);
    if (!kd) {
        free(v);
        return oom(err);
    }
    size_t i = lower_bound_in(t->dv, t->ndv, k, kl);
    memmove(&t->dv[i + 1], &t->dv[i], (t->ndv - i) * sizeof *t->dv);
    t->dv[i] = (pending){kd, kl, v, vlen};
    t->ndv++;
    return 0;
}

/* Take entry i out of the overlay; its bytes are the caller's to free. */
pending cat_ov_take(rl_txn *t, size_t i)
{
    pending p = t->ov[i];
    memmove(&t->ov[i], &t->ov[i + 1], (t->nov - i - 1) * sizeof *t->ov);
    t->nov--;
    return p;
}

int cat_add_expectation(rl_txn *t, expect_kind kind, const uint8_t *k, size_t kl,
                           const uint8_t *val, size_t vlen, const char *constraint,
                           const char *detail, rl_error *err)
{
    expectation *grown = rl_array_reserve(t->ex, t->nex, &t->capex, sizeof *grown, 32);
    if (!grown)
        return oom(err);
    t->ex = grown;
    expectation *e = &t->ex[t->nex];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->key = dup_bytes(k, kl);
    e->klen = kl;
    if (val)
        e->val = dup_bytes(val, vlen);
    e->vlen = vlen;
    if (!e->key || (val && !e->val)) {
        free(e->key);
        free(e->val);
        return oom(err);
    }
    rl_str_copy(e->constraint, sizeof e->constraint, constraint ? constraint : "");
    rl_str_copy(e->detail, sizeof e->detail, detail ? detail : "");
    t->nex++;
    return 0;
}

int cat_expect_table_unchanged(rl_txn *t, const rl_table_desc *d, rl_error *err)
{
    rl_buf prefix;
    rl_buf_init(&prefix, 0);
    int rc = rl_key_encode_prefix(&prefix, d, NULL, 0) != RL_KEY_OK || prefix.failed
                 ? oom(err)
                 : cat_add_expectation(t, EXPECT_RANGE_UNCHANGED, prefix.data, prefix.len, NULL,
                                       0, NULL, NULL, err);
    rl_buf_free(&prefix);
    return rc;
}

/* A new relations version for t (see rl_txn_relations_version): drawn from
 * one counter for the whole process, so no two transactions, and no two
 * states of one, ever share a value. */
static atomic_uint_fast64_t relations_versions;

void cat_relations_changed(rl_txn *t)
{
    t->rel_version = atomic_fetch_add(&relations_versions, 1) + 1;
}

uint64_t rl_txn_relations_version(const rl_txn *t) { return t->rel_version; }

/* A new transaction's snapshot while commits are in flight: the state the
 * last group flush made durable (kv_snapshot_durable), so that it reads
 * nothing a failed flush could take back without waiting for the flush in
 * flight. Waiting made every transaction that began during a flush pay
 * that flush and then its own commit's: with writers that each begin
 * right after their last commit, one object write per commit in lockstep
 * (docs/design/group-commit.md). snap_seq is the last commit the view
 * holds, found in the commit log by its store write's number; commit
 * validation then checks the commits after it as for any older snapshot.
 * Not when a commit after it wrote names or the format (the catalog's
 * name_gen and fmt are only known for the latest state), when the log
 * does not reach back, or when kv has no view to give: 0, and the caller
 * waits as before. 1 when taken, -1 never (a failure here falls back).
 * Caller holds cat->lock. */
static int durable_view_locked(rl_txn *t)
{
    rl_catalog *cat = t->cat;
    CAT_ASSERT_LOCKED(cat);
    if (kv_written_seq(cat->kv) == kv_durable_seq(cat->kv))
        return 0; /* nothing in flight: the latest state is durable */
    uint64_t d = 0;
    kv_error ke;
    kv_snapshot *snap = kv_snapshot_durable(cat->kv, &d, &ke);
    if (!snap)
        return 0;
    uint64_t s = cat->written_seq;
    for (; s > 0; s--) {
        const commit_log_entry *e = &cat->log[s % COMMIT_LOG_SIZE];
        if (e->seq != s || cat->written_seq - s >= COMMIT_LOG_MAX_SCAN) {
            kv_snapshot_free(snap);
            return 0;
        }
        if (e->kv_seq <= d)
            break; /* commit s and every earlier one are in the view */
        if (e->shape) {
            kv_snapshot_free(snap);
            return 0;
        }
    }
    t->snap = snap;
    t->snap_seq = s;
    t->snap_write = d;
    t->name_gen = cat->name_gen;
    t->unique_gen = cat->unique_gen;
    t->fmt = cat->fmt;
    return 1;
}

/* Take the transaction's read snapshot now (begin, and READ COMMITTED's
 * refresh): on a follower a pinned view of the store and the format it
 * holds; on the writer the state after the last commit, once durable. On
 * failure t->snap is NULL. */
static int take_snapshot(rl_txn *t, bool begin, rl_error *err)
{
    rl_catalog *cat = t->cat;
    kv_error ke;
    if (cat->read_only) {
        /* A follower's snapshot is a pinned view of the store (kv.h): the
         * whole transaction reads the state the store had at its first
         * statement, as on the writer, and learns of the writer's format
         * migration from that state. */
        t->snap = kv_snapshot_new(cat->kv, &ke);
        if (!t->snap)
            return cat_kv_fail(err, &ke, "taking a read snapshot");
        if (cat_load_format(cat, t->snap, &t->fmt, err) < 0) {
            kv_snapshot_free(t->snap);
            t->snap = NULL;
            return -1;
        }
        return 0;
    }
    /* under the commit lock, so the snapshot holds exactly the commits
     * numbered up to snap_seq and the names of generation name_gen
     * (commits reach the memtable under this lock) */
    pthread_mutex_lock(&cat->lock);
    if (begin && durable_view_locked(t) == 1) {
        pthread_mutex_unlock(&cat->lock);
        return 0;
    }
    if (begin) /* where commit validation starts; a refresh keeps it */
        t->snap_seq = cat->written_seq;
    t->snap_write = kv_written_seq(cat->kv);
    t->name_gen = cat->name_gen;
    t->unique_gen = cat->unique_gen;
    if (!t->fmt_changed)
        t->fmt = cat->fmt; /* set with the commit that wrote it, under this lock */
    t->snap = kv_snapshot_new(cat->kv, &ke);
    pthread_mutex_unlock(&cat->lock);
    if (!t->snap)
        return cat_kv_fail(err, &ke, "taking a read snapshot");
    /* A commit is in the memtable (so in this snapshot) before it is
     * durable. Reading it now could show a client a commit that a
     * power loss then takes back, so wait for the flush that covers
     * it, as PostgreSQL only shows a commit once its WAL is flushed.
     * Nothing is waited for when no commit is in flight. */
    bool waits = kv_durable_seq(cat->kv) < t->snap_write;
    uint64_t w0 = waits ? rl_monotonic_ns() : 0;
    if (cat_wait_durable(cat, t->snap_write, "waiting for an earlier commit to become durable",
                         err) < 0) {
        kv_snapshot_free(t->snap);
        t->snap = NULL;
        return -1;
    }
    if (waits) {
        atomic_fetch_add(&cat->snapshot_waits, 1);
        atomic_fetch_add(&cat->snapshot_wait_ns, rl_monotonic_ns() - w0);
    }
    return 0;
}

rl_txn *rl_txn_begin(rl_catalog *cat, rl_error *err)
{
    /* A failed object store's writer serves nothing (its memory holds a
     * commit the store may never have taken). A local store's failed
     * journal refuses commits only, as before it healed: reads go on from
     * memory until the lake is reopened (a failed commit they may show is
     * one the journal's replay would likely bring back, in doubt either
     * way), and a lake whose files left their path stays readable for the
     * operator who must look at it. */
    if (cat->object_store && rl_catalog_failed(cat)) {
        cat_store_failed_error(cat, err);
        return NULL;
    }
    rl_txn *t = calloc(1, sizeof *t);
    if (!t) {
        oom(err);
        return NULL;
    }
    t->cat = cat;
    cat_relations_changed(t);
    rl_buf_init(&t->get_key, 0);
    rl_buf_init(&t->get_arena, 0);
    if (!cat->read_only)
        t->seq = cat->sequence_commits;
    if (take_snapshot(t, true, err) < 0) {
        free(t);
        return NULL;
    }
    return t;
}

int rl_txn_refresh(rl_txn *t, rl_error *err)
{
    assert(!t->done && !t->snap_borrowed);
    if (t->cat->object_store && rl_catalog_failed(t->cat)) /* as rl_txn_begin */
        return cat_store_failed_error(t->cat, err), -1;
    /* nothing written or expected yet: as good as a transaction begun now */
    bool fresh = t->nov + t->ndv == 0 && t->nex == 0;
    kv_snapshot *old = t->snap;
    t->snap = NULL;
    if (take_snapshot(t, fresh, err) < 0) {
        t->snap = old;
        return -1;
    }
    kv_snapshot_free(old);
    cat_relations_changed(t);
    /* its statements read different views, so no one view is the base a
     * rebase could replay its writes from: validated only (rl_txn_commit) */
    t->seq_foreign = true;
    return 0;
}

uint64_t rl_txn_snapshot_seq(const rl_txn *t) { return t->snap_write; }

void rl_txn_free(rl_txn *t)
{
    if (!t)
        return;
    cat_free_buffered_writes(t);
    free(t->ov);
    free(t->dv);
    free(t->ex);
    free(t->tc);
    free(t->fwd);
    free(t->get_val);
    rl_buf_free(&t->get_key);
    rl_buf_free(&t->get_arena);
    if (!t->snap_borrowed)
        kv_snapshot_free(t->snap);
    free(t->seqw);
    free(t->uniq);
    free(t->fk);
    free(t->fkmode);
    txn_fkey_deferred_drop(t, false);
    for (int k = 0; k < CAT_EXPR_KINDS; k++) { /* checks.c's registries */
        cat_expr_registry *r = &t->exprs[k];
        cat_expr_registry_clear(r);
        free(r->ent);
        free(r->tag);
        free(r->dyn);
        memset(r, 0, sizeof *r);
    }
    rl_arena_free(&t->seq_arena);
    free(t);
}

/* ------------------------------------------------------------ savepoints */

/* A savepoint holds a copy of everything a transaction buffered up to it:
 * its writes (the overlay), what its commit will check (expectations,
 * counters) and the flags they set. Logical writes for sequencing are only
 * ever appended, so their count is enough. */
struct rl_txn_savepoint {
    pending *ov;
    size_t nov;
    expectation *ex;
    size_t nex;
    touched_counter *tc;
    size_t ntc;
    size_t nseqw;
    bool wrote_names, inserted_snapshot, seq_foreign, fmt_changed, unique_changed;
    uint64_t max_snapshot_inserted, lagging;
    rl_format fmt, lag_fmt;
    /* SET CONSTRAINTS' settings (fkeys.c): a rollback to here undoes them */
    uint8_t fk_all_mode;
    fkey_mode *fkmode;
    size_t nfkmode;
};

void rl_txn_savepoint_free(rl_txn_savepoint *sp)
{
    if (!sp)
        return;
    for (size_t i = 0; i < sp->nov; i++) {
        free(sp->ov[i].key);
        free(sp->ov[i].val);
    }
    for (size_t i = 0; i < sp->nex; i++) {
        free(sp->ex[i].key);
        free(sp->ex[i].val);
    }
    free(sp->ov);
    free(sp->ex);
    free(sp->tc);
    free(sp->fkmode);
    free(sp);
}

/* Copies of n pending writes / expectations (their bytes too); false when
 * out of memory (what was copied is freed by the caller's free). */
static bool copy_pending(pending *to, const pending *from, size_t n, size_t *done)
{
    for (*done = 0; *done < n; ++*done) {
        const pending *p = &from[*done];
        pending c = {dup_bytes(p->key, p->klen), p->klen, NULL, p->vlen};
        if (c.key && p->val)
            c.val = dup_bytes(p->val, p->vlen);
        if (!c.key || (p->val && !c.val)) {
            free(c.key);
            return false;
        }
        to[*done] = c;
    }
    return true;
}

static bool copy_expectations(expectation *to, const expectation *from, size_t n, size_t *done)
{
    for (*done = 0; *done < n; ++*done) {
        expectation c = from[*done];
        c.key = dup_bytes(from[*done].key, from[*done].klen);
        c.val = from[*done].val ? dup_bytes(from[*done].val, from[*done].vlen) : NULL;
        if (!c.key || (from[*done].val && !c.val)) {
            free(c.key);
            free(c.val);
            return false;
        }
        to[*done] = c;
    }
    return true;
}

rl_txn_savepoint *rl_txn_save(rl_txn *t, rl_error *err)
{
    cat_ov_settle(t); /* the copy is of t->ov alone */
    rl_txn_savepoint *sp = calloc(1, sizeof *sp);
    if (!sp)
        return oom(err), NULL;
    sp->ov = calloc(t->nov + 1, sizeof *sp->ov);
    sp->ex = calloc(t->nex + 1, sizeof *sp->ex);
    sp->tc = calloc(t->ntc + 1, sizeof *sp->tc);
    sp->fkmode = calloc(t->nfkmode + 1, sizeof *sp->fkmode);
    bool ok = sp->ov && sp->ex && sp->tc && sp->fkmode &&
              copy_pending(sp->ov, t->ov, t->nov, &sp->nov) &&
              copy_expectations(sp->ex, t->ex, t->nex, &sp->nex);
    if (!ok) {
        rl_txn_savepoint_free(sp);
        return oom(err), NULL;
    }
    if (t->ntc) /* t->tc may be NULL when there are none */
        memcpy(sp->tc, t->tc, t->ntc * sizeof *sp->tc);
    sp->ntc = t->ntc;
    if (t->nfkmode)
        memcpy(sp->fkmode, t->fkmode, t->nfkmode * sizeof *sp->fkmode);
    sp->nfkmode = t->nfkmode;
    sp->fk_all_mode = t->fk_all_mode;
    sp->nseqw = t->nseqw;
    sp->wrote_names = t->wrote_names;
    sp->inserted_snapshot = t->inserted_snapshot;
    sp->seq_foreign = t->seq_foreign;
    sp->fmt_changed = t->fmt_changed;
    sp->unique_changed = t->unique_changed;
    sp->max_snapshot_inserted = t->max_snapshot_inserted;
    sp->lagging = t->lagging;
    sp->fmt = t->fmt;
    sp->lag_fmt = t->lag_fmt;
    return sp;
}

int rl_txn_restore(rl_txn *t, const rl_txn_savepoint *sp, rl_error *err)
{
    assert(!t->done);
    assert(sp->nseqw <= t->nseqw); /* logical writes are only appended */
    pending *ov = calloc(sp->nov + 1, sizeof *ov);
    expectation *ex = calloc(sp->nex + 1, sizeof *ex);
    touched_counter *tc = calloc(sp->ntc + 1, sizeof *tc);
    fkey_mode *fkmode = calloc(sp->nfkmode + 1, sizeof *fkmode);
    size_t nov = 0, nex = 0;
    if (!fkmode) {
        free(ov), free(ex), free(tc);
        return oom(err);
    }
    if (!ov || !ex || !tc || !copy_pending(ov, sp->ov, sp->nov, &nov) ||
        !copy_expectations(ex, sp->ex, sp->nex, &nex)) {
        for (size_t i = 0; ov && i < nov; i++)
            free(ov[i].key), free(ov[i].val);
        for (size_t i = 0; ex && i < nex; i++)
            free(ex[i].key), free(ex[i].val);
        free(ov), free(ex), free(tc), free(fkmode);
        return oom(err);
    }
    if (sp->ntc)
        memcpy(tc, sp->tc, sp->ntc * sizeof *tc);
    if (sp->nfkmode)
        memcpy(fkmode, sp->fkmode, sp->nfkmode * sizeof *fkmode);
    free(t->fkmode);
    t->fkmode = fkmode, t->nfkmode = sp->nfkmode, t->capfkmode = sp->nfkmode + 1;
    t->fk_all_mode = sp->fk_all_mode;
    cat_free_buffered_writes(t);
    free(t->ov);
    free(t->ex);
    free(t->tc);
    t->ov = ov, t->nov = sp->nov, t->capov = sp->nov + 1;
    t->ex = ex, t->nex = sp->nex, t->capex = sp->nex + 1;
    t->tc = tc, t->ntc = sp->ntc, t->captc = sp->ntc + 1;
    t->nseqw = sp->nseqw;
    t->wrote_names = sp->wrote_names;
    t->inserted_snapshot = sp->inserted_snapshot;
    t->seq_foreign = sp->seq_foreign;
    t->fmt_changed = sp->fmt_changed;
    t->unique_changed = sp->unique_changed;
    t->uniq_built = t->fk_built = false; /* uniques.c, fkeys.c, checks.c rebuild: */
    cat_exprs_stale(t);                  /* definitions may be gone */
    cat_relations_changed(t); /* tables, columns, names may be as before DDL undone */
    txn_fkey_deferred_drop(t, true);
    t->max_snapshot_inserted = sp->max_snapshot_inserted;
    t->lagging = sp->lagging;
    t->fmt = sp->fmt;
    t->lag_fmt = sp->lag_fmt;
    t->vc_desc = NULL; /* the decoded-columns cache may describe the later format */
    return 0;
}

void rl_txn_set_audit(rl_txn *t, const char *user, const char *application,
                      const char *client_addr)
{
    rl_str_copy(t->user, sizeof t->user, user ? user : "");
    rl_str_copy(t->app, sizeof t->app, application ? application : "");
    rl_str_copy(t->client, sizeof t->client, client_addr ? client_addr : "");
}

void rl_txn_count_statement(rl_txn *t) { t->statements++; }
size_t rl_txn_pending(const rl_txn *t) { return t->nov + t->ndv; }

/* Read a key in the transaction's view. 1 found (value malloc'd into *val

 * when val != NULL), 0 absent, -1 error. */
int cat_view_get(rl_txn *t, const uint8_t *k, size_t kl, uint8_t **val, size_t *vlen,
                    rl_error *err)
{
    pending *p = cat_ov_find(t, k, kl);
    if (p) {
        if (!p->val)
            return 0;
        if (val) {
            if (!(*val = dup_bytes(p->val, p->vlen)))
                return oom(err);
            *vlen = p->vlen;
        }
        return 1;
    }
    kv_error ke;
    int rc = kv_get(t->cat->kv, t->snap, k, kl, val, vlen, &ke);
    return rc < 0 ? cat_kv_fail(err, &ke, "reading") : rc;
}

int cat_serialization_failure(rl_error *err, const char *why)
{
    rl_error_set(err, RL_SQLSTATE_SERIALIZATION_FAILURE, "could not serialize access due to %s",
                 why);
    rl_error_hint(err, "retry the transaction");
    return -1;
}

bool cat_is_write_allowed(rl_txn *t, rl_error *err)
{
    if (t->cat->read_only) {
        rl_error_set(err, RL_SQLSTATE_READ_ONLY_TRANSACTION,
                     "cannot write through a read-only RockLake follower");
        rl_error_hint(err, "send writes to the writer server of this store");
        return false;
    }
    if (t->done) {
        rl_error_set(err, RL_SQLSTATE_INTERNAL, "transaction already finished");
        return false;
    }
    return true;
}

/* Drop the overlay, the expectations and the counters touched (their
 * arrays stay for reuse). */
void cat_free_buffered_writes(rl_txn *t)
{
    cat_ov_settle(t);
    for (size_t i = 0; i < t->nov; i++) {
        free(t->ov[i].key);
        free(t->ov[i].val);
    }
    t->nov = 0;
    for (size_t i = 0; i < t->nex; i++) {
        free(t->ex[i].key);
        free(t->ex[i].val);
    }
    t->nex = 0;
    t->ntc = 0;
    for (size_t i = 0; i < t->nfwd; i++) {
        free(t->fwd[i].key);
        free(t->fwd[i].val);
    }
    t->nfwd = 0;
    t->inserted_snapshot = false;
    t->max_snapshot_inserted = 0;
}
