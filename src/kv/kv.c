/*
 * kv.c — kv.h over SlateDB (slate.h), with the writer's reads served from
 * memory (kvmirror.h).
 *
 * Owns: the kv_db / kv_snapshot / kv_iter handles, the choice between the
 * mirror and SlateDB for each read, the order in which a writer's batches
 * reach SlateDB's memtable and the mirror, the read counters of mirrored
 * reads, and the store's integrity digest (kv.h, kv_digest): written into
 * each batch under write_lock from the old values the mirror holds, and
 * checked against every key at the mirror's load.
 *
 * Why a mirror: SlateDB answers every read (even a point read) by merging
 * iterators over its memtable, L0 tables and sorted runs, about a
 * microsecond per entry; a DuckLake catalog is small (tens of MB for ten
 * thousand tables) and has exactly one writer, which sees every change. So
 * the writer loads the keyspace into a multi-version skiplist at open and
 * applies each batch to it right after SlateDB's memtable, under one lock,
 * so both see the same batches in the same order. Reads then never enter
 * SlateDB; SlateDB still makes every write durable, and is what the next
 * open (and every follower) reads.
 *
 * Invariants:
 *  - A writer's snapshot is a pinned mirror sequence: it sees exactly the
 *    batches applied before it was taken, as a SlateDB snapshot would.
 *    Reads without a snapshot pin the latest sequence for their duration.
 *  - A mirror that could not hold a batch (out of memory), or that grew
 *    past mirror_max_bytes after a batch, is abandoned: new reads go to
 *    SlateDB; reads already pinned finish on the mirror, whose versions up
 *    to their sequence are intact.
 *  - Readers (followers) and writers opened with mirror_max_bytes < 0, or
 *    whose copy would have taken more than mirror_max_bytes at open, read
 *    SlateDB.
 *  - The durable view (kv_snapshot_durable) is a mirror pin on the state
 *    holding exactly the writes numbered <= durable_seq; it moves with
 *    durable_seq, in the same step under durable_mu, and only forward.
 *    Locks, outermost first: write_lock, view_mu; durable_mu is never held
 *    while taking either.
 *
 * Why a journal: on a local store a writer makes commits durable by
 * appending them to its journal (journal.h) instead of waiting for
 * SlateDB's WAL object; SlateDB writes its WAL in the background. Each
 * batch carries the journal position (the key JOURNAL_POS_KEY) into
 * SlateDB in the same atomic write, so an open knows which journal records
 * SlateDB lacks and replays them before anything else reads the store.
 *  - Recovery runs on every writer open of a local store whose position
 *    names a journal file, even with the journal turned off, so that no
 *    acknowledged commit is skipped.
 *  - Under write_lock, a batch goes to the journal first, then to SlateDB's
 *    memtable, then to the mirror; if SlateDB refuses it, an ABORT record
 *    follows so that recovery never applies it.
 * Asserted: write_lock is held where the functions below say "under
 * write_lock" (ASSERT_WRITE_LOCKED: some thread holds it, a cheap check
 * that catches a path that took none).
 */
#include "kv/kv.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <endian.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kv/batchcodec.h"
#include "base/buf.h"
#include "base/crashpoint.h"
#include "kv/journal.h"
#include "kv/kvmirror.h"
#include "kv/slate.h"

#define DEFAULT_MIRROR_MAX_BYTES (4ull << 30)
/* Journal bytes after which SlateDB is flushed and the journal's space
 * given back (one WAL flush per this much committed data). */
#define JOURNAL_RELEASE_BYTES (8u << 20)

/* The system key (tag 0xFF + ASCII name, docs/key-layout.md) holding the
 * journal position; the value is rl_journal_pos_encode's 24 bytes. */
static const uint8_t JOURNAL_POS_KEY[] = "\xff" "kv-journal";
#define JOURNAL_POS_KEY_LEN (sizeof JOURNAL_POS_KEY - 1)

/* The journal position is the kv layer's own: reads above kv.h never see
 * it, and the mirror does not hold it. */
static bool is_journal_pos_key(const uint8_t *k, size_t kl)
{
    return kl == JOURNAL_POS_KEY_LEN && memcmp(k, JOURNAL_POS_KEY, kl) == 0;
}

/* The integrity digest's keys (kv.h, kv_digest): 0xFF "kv-digest:" + the
 * key group's byte as two hex digits; the value is count, key_sum and
 * pair_sum as BE u64. Like the journal position, the kv layer's own. */
static const uint8_t DIGEST_PREFIX[] = "\xff" "kv-digest:";
#define DIGEST_PREFIX_LEN (sizeof DIGEST_PREFIX - 1)
#define DIGEST_KEY_LEN (DIGEST_PREFIX_LEN + 2)
#define DIGEST_VAL_LEN 24

static bool is_digest_key(const uint8_t *k, size_t kl)
{
    return kl >= DIGEST_PREFIX_LEN && memcmp(k, DIGEST_PREFIX, DIGEST_PREFIX_LEN) == 0;
}

/* Keys of the kv layer itself: hidden from reads, not in the mirror, not
 * digested. */
static bool is_own_key(const uint8_t *k, size_t kl)
{
    return kl && k[0] == 0xFF && (is_journal_pos_key(k, kl) || is_digest_key(k, kl));
}

struct kv_db {
    slate_db *slate;
    /* NULL: every read goes to SlateDB. Set once: at open, or by the
     * background load's switch (under write_lock and view_mu); atomic so
     * that readers without a lock see it whole. */
    _Atomic(kv_mirror *) mirror;
    uint64_t mirror_limit; /* bytes past which the mirror is given up */
    /* Orders the journal append, SlateDB's memtable apply and the mirror
     * apply of each batch. */
    pthread_mutex_t write_lock;
    rl_journal *journal; /* NULL: SlateDB's WAL makes writes durable */
    pthread_mutex_t release_lock; /* one journal release at a time */
    _Atomic uint64_t released;    /* journal offset given back; written under release_lock */
    char *local_dir;              /* a local store's directory (malloc'd), or NULL */
    char *url;                    /* as opened (malloc'd), for messages */
    /* The integrity digest of every key group, as the last batch applied
     * left it (under write_lock); maintained once digest_on. */
    kv_digest digest[256];
    bool digest_on;
    bool salvaged; /* opened with journal_salvage: refuses writes */
    /* Group commit (kv_wait_durable): one numbering of writes, one leader.
     * With a journal a write's number is its journal record's; without
     * one, written_seq counts writes. The waiter that finds no flush
     * running becomes the leader: one journal sync (one fdatasync) or one
     * SlateDB WAL flush (one object write) covers every write numbered
     * before it started. */
    _Atomic uint64_t written_seq; /* the last write numbered; stored under write_lock */
    pthread_mutex_t durable_mu;
    pthread_cond_t durable_cv;
    uint64_t durable_seq; /* under durable_mu: every write <= this is durable */
    bool flushing;        /* under durable_mu: a leader's flush is running */
    _Atomic uint64_t group_flushes; /* flushes led by kv_wait_durable's leaders */
    /* Group sizes (kv_group_sizes): writes numbered so far (under
     * write_lock), those the flushes so far covered (under durable_mu),
     * and how many flushes covered how many writes. */
    uint64_t written_count; /* under view_mu */
    uint64_t durable_count;
    _Atomic uint64_t group_sizes[KV_GROUP_BUCKETS];
    _Atomic uint64_t gather_ns, flush_ns; /* kv_group_times_get */
    /* The durable view (kv_snapshot_durable): a mirror pin, taken by the
     * leader under view_mu as it read its target, on the state right
     * after the last write a flush made durable. Under durable_mu.
     * view_mu (inside write_lock) covers a write's numbering and its
     * mirror apply, not SlateDB's apply, which may wait for room in the
     * WAL: so a leader never waits behind a write that waits for it. */
    pthread_mutex_t view_mu;
    bool durable_pinned;
    uint64_t durable_mseq;
    /* The leader's gather (gather_group): the size of the last group and
     * the time its flush took (under durable_mu, read by the next leader),
     * and arrive_cv, signalled under view_mu as each write is numbered
     * while a leader gathers (leader_gathering, under view_mu). */
    uint64_t last_group;
    uint64_t last_flush_ns;
    pthread_cond_t arrive_cv;
    bool leader_gathering;
    /* Merge tries the gather skips after one that failed (under view_mu,
     * touched by the one leader only). */
    unsigned merge_skip;
    kv_open_timing timing; /* kv_open_writer's; the load's fields under load_mu */
    /* The background load (kv_options.load_background, "Background load"
     * below). load_bg is set before the handle is shared and never
     * changes; load_snap is the loader's until it ends. */
    bool load_bg;              /* a background load: pending, running or over */
    bool loader_started;       /* load_start ran (kv_load_start, or at open) */
    bool loader_thread;        /* ... and started the thread, joined by kv_close */
    pthread_mutex_t start_mu;  /* over both; outermost (before write_lock) */
    pthread_t loader;
    slate_snapshot *load_snap;
    kv_options load_opts;      /* load_parts only: no callbacks into the opener's stack */
    void (*loaded)(void *ctx, const char *url, const kv_open_timing *timing,
                   const kv_error *refusal);
    void *loaded_ctx;
    pthread_mutex_t load_mu;
    pthread_cond_t load_cv;    /* load_state left 1 */
    uint32_t load_state;       /* under load_mu: kv_open_timing.background */
    kv_error refusal;          /* under load_mu; written before `refused` is set */
    _Atomic bool refused;      /* the digest check refused the store: every call fails */
    _Atomic bool load_stop;    /* kv_close, or the log grew too big: give up */
    _Atomic bool closing;      /* kv_close: the load's end is not reported */
    /* Under view_mu: while load_logging, each batch SlateDB took is also
     * appended to load_log (u32 length + rl_batch_encode), for the switch
     * to apply to the copy; load_log_lost once it was given up. */
    bool load_logging;
    bool load_log_lost;
    rl_buf load_log;
    uint64_t load_logged;
    /* The first write numbered by kv_write_begin (not kv_write) while the
     * load ran, 0 none: kv_write_wait / kv_wait_durable of it or a later
     * number wait for the load's digest check. Stored under view_mu. */
    _Atomic uint64_t gate_from;
};

struct kv_pending {
    kv_db *db;
    bool gated;           /* a commit (kv_write_begin): its ack waits for a running load */
    slate_pending *slate;
    uint64_t seq;         /* the write's number (kv_pending_seq) */
    uint64_t own_bytes;   /* digest key + value bytes this write added */
};

struct kv_snapshot {
    kv_db *db;
    slate_snapshot *slate; /* NULL when the snapshot is a mirror pin */
    uint64_t seq;
};

struct kv_iter {
    slate_iter *slate; /* NULL when the scan reads the mirror */
    kv_db *db;
    uint64_t seq;
    bool pinned;              /* this iterator holds a pin on seq */
    const kvm_node *pos;      /* next node to look at; NULL at the end */
    const kvm_node *last;     /* last node returned, NULL before the first */
    uint8_t *start, *end;     /* owned copies; end NULL = unbounded */
    size_t slen, elen;
};

/* Reads served by mirrors, added to SlateDB's counters; the load at open is
 * subtracted so that only the caller's reads count. */
static _Atomic uint64_t mirror_gets, mirror_scans, mirror_keys;
static _Atomic uint64_t load_scans, load_keys;
/* The kv layer's own reads and writes (old values read from SlateDB for
 * the digest when there is no mirror; digest bytes written), subtracted
 * from SlateDB's counters the same way. */
static _Atomic uint64_t own_gets, own_keys, own_bytes_written;

static void set_err(kv_error *err, kv_error_kind kind, const char *msg)
{
    if (!err) return;
    err->kind = kind;
    snprintf(err->message, sizeof err->message, "%s", msg);
}

static void count(_Atomic uint64_t *c, uint64_t n)
{
    atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

/* The mirror to read from, or NULL for SlateDB. */
static kv_mirror *usable_mirror(const kv_db *db)
{
    return db->mirror && !kvm_broken(db->mirror) ? db->mirror : NULL;
}

/* ------------------------------------------------------------ integrity digest */

static inline uint64_t rotl64(uint64_t x, int r) { return x << r | x >> (64 - r); }

/* The digest's hash of n bytes from `seed`: 8 bytes at a time (read
 * little-endian), each word multiplied in and rotated, the tail and the
 * length folded in, then a final avalanche. Its sums are stored, so it
 * must never change. */
static uint64_t digest_hash(uint64_t seed, const uint8_t *p, size_t n)
{
    const uint64_t m1 = 0x87c37b91114253d5ULL, m2 = 0x4cf5ad432745937fULL;
    uint64_t h = seed ^ ((uint64_t)n * 0x9e3779b97f4a7c15ULL);
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = rotl64(h ^ (le64toh(w) * m1), 29) * m2;
    }
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++) t |= (uint64_t)p[i] << (8 * i);
    h = rotl64(h ^ (t * m1), 29) * m2;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 33);
}

#define DIGEST_SEED 0x526f636b4c616b65ULL /* "RockLake" */

/* Add (sign > 0) or take away one pair. The pair's hash is seeded with the
 * key's, whose length is in it, so no two splits of the same bytes into
 * key and value collide by construction. */
static void digest_pair(kv_digest *d, const uint8_t *k, size_t kl, const uint8_t *v, size_t vl,
                        int sign)
{
    uint64_t hk = digest_hash(DIGEST_SEED, k, kl);
    uint64_t hp = digest_hash(hk, v, vl);
    if (sign > 0) {
        d->count++;
        d->key_sum += hk;
        d->pair_sum += hp;
    } else {
        d->count--;
        d->key_sum -= hk;
        d->pair_sum -= hp;
    }
}

static void digest_add(kv_digest *a, const kv_digest *b)
{
    a->count += b->count;
    a->key_sum += b->key_sum;
    a->pair_sum += b->pair_sum;
}

static bool digest_eq(const kv_digest *a, const kv_digest *b)
{
    return a->count == b->count && a->key_sum == b->key_sum && a->pair_sum == b->pair_sum;
}

static void digest_key(uint8_t out[DIGEST_KEY_LEN], int tag)
{
    static const char hex[] = "0123456789abcdef";
    memcpy(out, DIGEST_PREFIX, DIGEST_PREFIX_LEN);
    out[DIGEST_PREFIX_LEN] = (uint8_t)hex[tag >> 4];
    out[DIGEST_PREFIX_LEN + 1] = (uint8_t)hex[tag & 15];
}

static void digest_value(uint8_t out[DIGEST_VAL_LEN], const kv_digest *d)
{
    rl_store_be64(out, d->count);
    rl_store_be64(out + 8, d->key_sum);
    rl_store_be64(out + 16, d->pair_sum);
}

/* One pair of a scan of the whole store into *r. */
static void verify_pair(kv_verify_report *r, const uint8_t *k, size_t kl, const uint8_t *v,
                        size_t vl)
{
    if (is_journal_pos_key(k, kl)) return;
    if (is_digest_key(k, kl)) {
        int hi, lo;
        r->has_digest = 1;
        if (kl == DIGEST_KEY_LEN && vl == DIGEST_VAL_LEN &&
            (hi = rl_hex_value((char)k[DIGEST_PREFIX_LEN])) >= 0 &&
            (lo = rl_hex_value((char)k[DIGEST_PREFIX_LEN + 1])) >= 0) {
            kv_digest *e = &r->expected[hi << 4 | lo];
            e->count = rl_load_be64(v);
            e->key_sum = rl_load_be64(v + 8);
            e->pair_sum = rl_load_be64(v + 16);
        } else {
            r->malformed++;
        }
        return;
    }
    r->keys++;
    digest_pair(&r->found[k[0]], k, kl, v, vl, 1);
}

int kv_verify_mismatches(const kv_verify_report *r)
{
    if (!r->has_digest) return 0;
    int n = 0;
    for (int t = 0; t < 256; t++) n += !digest_eq(&r->found[t], &r->expected[t]);
    return n;
}

void kv_verify_describe(const kv_verify_report *r, int tag, char *buf, size_t n)
{
    const kv_digest *f = &r->found[tag], *e = &r->expected[tag];
    if (f->count < e->count)
        snprintf(buf, n, "%" PRIu64 " keys found, the integrity digest expects %" PRIu64
                 ": %" PRIu64 " keys were lost", f->count, e->count, e->count - f->count);
    else if (f->count > e->count)
        snprintf(buf, n, "%" PRIu64 " keys found, the integrity digest expects %" PRIu64
                 ": keys that were deleted came back, or keys were written behind RockLake's "
                 "back", f->count, e->count);
    else if (f->key_sum != e->key_sum)
        snprintf(buf, n, "%" PRIu64 " keys found as the integrity digest expects, but not the "
                 "same keys: some were lost and others came back", f->count);
    else
        snprintf(buf, n, "the %" PRIu64 " keys the integrity digest expects are there, but "
                 "some values differ from what was committed (older versions, or changed "
                 "bytes)", f->count);
}

/* Scan SlateDB from `start` (every key, or the digest keys only) into *r;
 * the pairs read in *pairs. 0 or -1. */
static int verify_scan(kv_db *db, bool digest_only, kv_verify_report *r, uint64_t *pairs,
                       kv_error *err)
{
    static const uint8_t lowest[1] = {0};
    slate_iter *it = digest_only
                         ? slate_scan(db->slate, NULL, DIGEST_PREFIX, DIGEST_PREFIX_LEN, NULL, 0, err)
                         : slate_scan(db->slate, NULL, lowest, 0, NULL, 0, err);
    if (!it) return -1;
    const uint8_t *k, *v;
    size_t kl, vl;
    int rc;
    *pairs = 0;
    while ((rc = slate_iter_next(it, &k, &kl, &v, &vl, err)) == 1) {
        ++*pairs;
        if (digest_only && !is_digest_key(k, kl)) break;
        verify_pair(r, k, kl, v, vl);
    }
    slate_iter_free(it);
    if (rc >= 0) set_err(err, KV_OK, "");
    return rc < 0 ? -1 : 0;
}

int kv_verify(kv_db *db, kv_verify_report *out, kv_error *err)
{
    memset(out, 0, sizeof *out);
    if (!db) {
        set_err(err, KV_ERR_INVALID, "kv_db handle is NULL");
        return -1;
    }
    uint64_t pairs;
    return verify_scan(db, false, out, &pairs, err);
}

void kv_verify_add(kv_verify_report *r, const uint8_t *key, size_t klen, const uint8_t *val,
                   size_t vlen)
{
    if (klen) verify_pair(r, key, klen, val, vlen);
}

int kv_verify_expected(kv_db *db, kv_snapshot *snap, kv_verify_report *r, kv_error *err)
{
    if (!db) {
        set_err(err, KV_ERR_INVALID, "kv_db handle is NULL");
        return -1;
    }
    slate_iter *it = slate_scan(db->slate, snap ? snap->slate : NULL, DIGEST_PREFIX,
                                DIGEST_PREFIX_LEN, NULL, 0, err);
    if (!it) return -1;
    const uint8_t *k, *v;
    size_t kl, vl;
    int rc;
    uint64_t keys = r->keys;
    kv_digest found[256];
    memcpy(found, r->found, sizeof found);
    while ((rc = slate_iter_next(it, &k, &kl, &v, &vl, err)) == 1 && is_digest_key(k, kl))
        verify_pair(r, k, kl, v, vl);
    slate_iter_free(it);
    r->keys = keys;
    memcpy(r->found, found, sizeof found);
    if (rc >= 0) set_err(err, KV_OK, "");
    return rc < 0 ? -1 : 0;
}

/* The message of a store whose keys do not add up to its digest. */
static void digest_refusal(const kv_db *db, const kv_verify_report *r, kv_error *err)
{
    int first = -1, n = kv_verify_mismatches(r);
    for (int t = 0; t < 256 && first < 0; t++)
        if (!digest_eq(&r->found[t], &r->expected[t])) first = t;
    char what[220];
    kv_verify_describe(r, first, what, sizeof what);
    char more[64] = "";
    if (n > 1) snprintf(more, sizeof more, " (and %d more key groups differ)", n - 1);
    if (err) {
        err->kind = KV_ERR_CORRUPT;
        snprintf(err->message, sizeof err->message,
                 "store \"%.100s\" does not hold what was committed: keys with first byte "
                 "0x%02x: %.120s%.40s. Part of the store (a manifest or table file) is damaged "
                 "or missing: restore it from a backup or checkpoint (docs/operations.md), or "
                 "accept what remains with --rebuild-digest",
                 db->url ? db->url : "", first, what, more);
    }
}

static void notice(const kv_options *opts, const char *msg)
{
    if (opts && opts->notice) opts->notice(opts->notice_ctx, msg);
    else fprintf(stderr, "rocklake: %s\n", msg);
}

/* Write the digest of every group whose value differs from `stored`
 * (all of them when the store holds none), through kv_write before
 * digest_on is set (so the write itself is not digested). */
static int digest_write_all(kv_db *db, const kv_verify_report *r, kv_error *err)
{
    kv_batch *b = kv_batch_new();
    if (!b) {
        set_err(err, KV_ERR_INTERNAL, "out of memory");
        return -1;
    }
    for (int t = 0; t < 256; t++) {
        if (r->has_digest ? digest_eq(&r->found[t], &r->expected[t]) : r->found[t].count == 0)
            continue;
        uint8_t k[DIGEST_KEY_LEN], v[DIGEST_VAL_LEN];
        digest_key(k, t);
        digest_value(v, &r->found[t]);
        kv_batch_put(b, k, sizeof k, v, sizeof v);
    }
    int rc = kv_batch_count(b) ? kv_write(db, b, err) : 0;
    kv_batch_free(b);
    return rc;
}

/* At a writer's open: check the digest against the keys when they were
 * all read (`r` complete), write it for the first time when the store has
 * none, and start maintaining it. */
static int digest_open(kv_db *db, kv_verify_report *r, bool complete, const kv_options *opts,
                       kv_error *err)
{
    char msg[600];
    if (!complete) {
        /* The keys were not all read (no in-memory copy): take the stored
         * digest as it is; `rocklake check` verifies it. */
        uint64_t pairs;
        memset(r, 0, sizeof *r);
        if (verify_scan(db, true, r, &pairs, err) < 0) return -1;
        count(&load_scans, 1);
        count(&load_keys, pairs);
        if (r->has_digest && !r->malformed) {
            for (int t = 0; t < 256; t++) db->digest[t] = r->expected[t];
            db->digest_on = true;
            return 0;
        }
        /* none yet: read everything once to compute it */
        memset(r, 0, sizeof *r);
        if (verify_scan(db, false, r, &pairs, err) < 0) return -1;
        count(&load_scans, 1);
        count(&load_keys, pairs);
    }
    int bad = kv_verify_mismatches(r);
    if (r->malformed && !(opts && opts->digest_rebuild)) {
        set_err(err, KV_ERR_CORRUPT, "the store's integrity digest keys (0xFF kv-digest:) are "
                                     "malformed: restore the store from a backup, or open it "
                                     "with --rebuild-digest");
        return -1;
    }
    if (bad && !(opts && opts->digest_rebuild)) {
        digest_refusal(db, r, err);
        return -1;
    }
    if (!r->has_digest || bad || r->malformed) {
        if (digest_write_all(db, r, err) < 0) return -1;
        if (!r->has_digest && r->keys) {
            snprintf(msg, sizeof msg, "store \"%.300s\": computed its integrity digest for the "
                     "first time (%" PRIu64 " keys); from now on every open checks it",
                     db->url ? db->url : "", r->keys);
            notice(opts, msg);
        } else if (bad || r->malformed) {
            int first = -1;
            for (int t = 0; t < 256 && first < 0; t++)
                if (!digest_eq(&r->found[t], &r->expected[t])) first = t;
            char what[220] = "malformed digest keys";
            if (first >= 0) kv_verify_describe(r, first, what, sizeof what);
            snprintf(msg, sizeof msg, "store \"%.200s\": rebuilt its integrity digest from the "
                     "%" PRIu64 " keys it holds (%d key groups differed; first byte 0x%02x: %s)",
                     db->url ? db->url : "", r->keys, bad, first < 0 ? 0 : first, what);
            notice(opts, msg);
        }
    }
    for (int t = 0; t < 256; t++) db->digest[t] = r->found[t];
    db->digest_on = true;
    return 0;
}

/* ------------------------------------------------------------ open/close */

/* A handle around an open SlateDB; closes it when out of memory. */
static kv_db *wrap(slate_db *s, kv_error *err)
{
    kv_db *db = calloc(1, sizeof *db);
    if (!db) {
        slate_close(s, NULL);
        set_err(err, KV_ERR_INTERNAL, "out of memory opening the store");
        return NULL;
    }
    db->slate = s;
    pthread_mutex_init(&db->write_lock, NULL);
    pthread_mutex_init(&db->view_mu, NULL);
    pthread_mutex_init(&db->release_lock, NULL);
    pthread_mutex_init(&db->durable_mu, NULL);
    pthread_cond_init(&db->durable_cv, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&db->arrive_cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&db->load_mu, NULL);
    pthread_cond_init(&db->load_cv, NULL);
    pthread_mutex_init(&db->start_mu, NULL);
    return db;
}

/* The mirror's load at open: one scan of the whole keyspace, or (a large
 * store, a machine with more than one core) scans of disjoint key ranges
 * on threads of their own, each building its own mirror and digest sums,
 * joined in key order at the end. SlateDB's iterator is what the load
 * costs (its merge of the tables, a few microseconds a key): the parts
 * divide that by the cores. */
#define LOAD_MAX_PARTS 4
#define LOAD_SPLIT_MIN_BYTES (8u << 20)

typedef struct load_part load_part;

/* What the parts of one load share. */
typedef struct load_shared {
    slate_db *s;
    slate_snapshot *snap;     /* the state loaded (background load), NULL the latest */
    _Atomic bool *cancel;     /* NULL, or set by the handle's close: give up */
    uint64_t limit;           /* the mirror's byte limit, for all parts together */
    load_part *parts;
    size_t nparts;
    _Atomic bool stop;        /* a part failed or went over the limit */
} load_shared;

struct load_part {
    load_shared *sh;
    const uint8_t *lo, *hi;   /* [lo, hi); hi NULL: to the end */
    size_t lolen, hilen;
    kv_mirror *m;
    kv_verify_report r;
    uint64_t pairs;
    int failed;               /* 1 SlateDB failed (err), 2 too big or out of memory */
    kv_error err;
    _Atomic uint64_t keys, bytes; /* progress, published every LOAD_PUBLISH keys */
    pthread_t thread;
    bool threaded;
};

#define LOAD_PUBLISH 1024

/* The other parts' published bytes. */
static uint64_t others_bytes(const load_part *p)
{
    uint64_t n = 0;
    for (size_t i = 0; i < p->sh->nparts; i++)
        if (&p->sh->parts[i] != p)
            n += atomic_load_explicit(&p->sh->parts[i].bytes, memory_order_relaxed);
    return n;
}

/* Progress of all parts together, from the opening thread. */
static void load_report(load_shared *sh, const kv_options *opts)
{
    uint64_t keys = 0, bytes = 0;
    for (size_t i = 0; i < sh->nparts; i++) {
        keys += atomic_load_explicit(&sh->parts[i].keys, memory_order_relaxed);
        bytes += atomic_load_explicit(&sh->parts[i].bytes, memory_order_relaxed);
    }
    opts->load_progress(opts->load_progress_ctx, keys, bytes);
}

/* Scan one part into its own mirror; `opts` non-NULL on the opening
 * thread only (the progress callback). */
static void load_part_run(load_part *p, const kv_options *opts)
{
    load_shared *sh = p->sh;
    p->m = kvm_new();
    if (!p->m) {
        p->failed = 2;
        atomic_store(&sh->stop, true);
        return;
    }
    kvm_load_seed(p->m, 0x9E3779B97F4A7C15ull * (uint64_t)(p - sh->parts + 1));
    slate_iter *it = slate_scan(sh->s, sh->snap, p->lo, p->lolen, p->hi, p->hilen, &p->err);
    if (!it) {
        p->failed = 1;
        atomic_store(&sh->stop, true);
        return;
    }
    const uint8_t *k, *v;
    size_t kl, vl;
    int rc;
    kvm_stats st;
    uint64_t n = 0, others = 0;
    uint64_t last = rl_monotonic_ns();
    uint64_t every = (opts && opts->load_progress_ms ? opts->load_progress_ms : 1000) * 1000000ull;
    while ((rc = slate_iter_next(it, &k, &kl, &v, &vl, &p->err)) == 1) {
        ++p->pairs;
        verify_pair(&p->r, k, kl, v, vl); /* the digest check, on the way */
        if (is_own_key(k, kl)) continue;
        kvm_stats_get(p->m, &st);
        if ((++n % LOAD_PUBLISH) == 0) {
            atomic_store_explicit(&p->keys, n, memory_order_relaxed);
            atomic_store_explicit(&p->bytes, st.bytes, memory_order_relaxed);
            if (atomic_load_explicit(&sh->stop, memory_order_relaxed)) break;
            if (sh->cancel && atomic_load(sh->cancel)) {
                p->failed = 2; /* given up: no copy */
                break;
            }
            if (sh->nparts > 1) others = others_bytes(p);
        }
        if ((n & 0xFFFF) == 0 && opts && opts->load_progress &&
            rl_monotonic_ns() - last >= every) {
            load_report(sh, opts);
            last = rl_monotonic_ns();
        }
        if (st.bytes + others > sh->limit || kvm_load(p->m, k, kl, v, vl) < 0) {
            /* Too big for memory: drain nothing more, read SlateDB. */
            p->failed = 2;
            break;
        }
    }
    slate_iter_free(it);
    count(&load_scans, 1);
    count(&load_keys, p->pairs);
    if (rc < 0) p->failed = 1;
    if (p->failed) atomic_store(&sh->stop, true);
    kvm_stats_get(p->m, &st);
    atomic_store_explicit(&p->keys, n, memory_order_relaxed);
    atomic_store_explicit(&p->bytes, st.bytes, memory_order_relaxed);
}

static void *load_part_thread(void *arg)
{
    load_part_run(arg, NULL);
    return NULL;
}

/* How many parts a load of `s` runs as, and their split keys (a malloc'd
 * buffer of slate_load_splits' entries, in *buf; NULL for one part). */
static size_t load_plan(slate_db *s, const kv_options *opts, uint8_t **buf, size_t *buflen)
{
    *buf = NULL;
    *buflen = 0;
    uint32_t want = opts ? opts->load_parts : 0;
    uint64_t min_bytes = want ? 0 : LOAD_SPLIT_MIN_BYTES;
    if (!want) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        want = cores < 1 ? 1 : cores > LOAD_MAX_PARTS ? LOAD_MAX_PARTS : (uint32_t)cores;
    }
    if (want > LOAD_MAX_PARTS) want = LOAD_MAX_PARTS;
    if (want < 2) return 1;
    size_t count = 0;
    kv_error ignored;
    /* no split points (or no way to read them): one scan, which reports
     * any trouble reading the store itself */
    if (slate_load_splits(s, want, min_bytes, buf, buflen, &count, &ignored) < 0) {
        *buf = NULL;
        return 1;
    }
    return count + 1;
}

/* Copy the whole keyspace into a new mirror, adding every pair to *r (the
 * digest check). Returns the mirror, or NULL when the copy would take more
 * than `limit` bytes or memory runs out (the writer then reads SlateDB; *r
 * is incomplete), or when SlateDB fails (1 in *failed, error in *err). */
static kv_mirror *load_mirror(slate_db *s, slate_snapshot *snap, _Atomic bool *cancel,
                              uint64_t limit, const kv_options *opts, kv_verify_report *r,
                              uint64_t *pairs, uint32_t *nparts, int *failed, kv_error *err)
{
    *failed = 0;
    *pairs = 0;
    uint8_t *splits;
    size_t splitlen;
    size_t n = load_plan(s, opts, &splits, &splitlen);
    *nparts = (uint32_t)n;
    load_shared sh = {.s = s, .snap = snap, .cancel = cancel, .limit = limit, .nparts = n};
    sh.parts = calloc(n, sizeof *sh.parts);
    if (!sh.parts) {
        free(splits);
        return NULL;
    }
    static const uint8_t lowest[1] = {0};
    const uint8_t *at = splits;
    for (size_t i = 0; i < n; i++) {
        load_part *p = &sh.parts[i];
        p->sh = &sh;
        if (i == 0) {
            p->lo = lowest;
            p->lolen = 0;
        } else {
            p->lo = sh.parts[i - 1].hi;
            p->lolen = sh.parts[i - 1].hilen;
        }
        if (i + 1 < n) { /* the next split key ends this part */
            uint32_t len = (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 |
                           (uint32_t)at[3] << 24;
            p->hi = at + 4;
            p->hilen = len;
            at += 4 + len;
            assert((size_t)(at - splits) <= splitlen);
            assert(p->hilen > 0 && (i == 0 || rl_bytes_cmp(p->lo, p->lolen, p->hi, p->hilen) < 0));
        }
    }
    for (size_t i = 1; i < n; i++)
        sh.parts[i].threaded = pthread_create(&sh.parts[i].thread, NULL, load_part_thread,
                                              &sh.parts[i]) == 0;
    load_part_run(&sh.parts[0], opts);
    for (size_t i = 1; i < n; i++) {
        if (sh.parts[i].threaded)
            pthread_join(sh.parts[i].thread, NULL);
        else if (!atomic_load(&sh.stop))
            load_part_run(&sh.parts[i], opts); /* no thread for it: here, after the others */
        else
            sh.parts[i].failed = 2; /* not run: the load stops anyway */
    }
    /* One SlateDB failure fails the open; otherwise a part over the limit
     * (or out of memory) means no mirror. Else join the parts in key order
     * and add up their digest sums. */
    kv_mirror *m = NULL;
    int worst = 0;
    for (size_t i = 0; i < n; i++) {
        load_part *p = &sh.parts[i];
        *pairs += p->pairs;
        if (p->failed == 1 && worst != 1) {
            worst = 1;
            *err = p->err;
        } else if (p->failed == 2 && !worst) {
            worst = 2;
        }
    }
    if (!worst) {
        m = sh.parts[0].m;
        sh.parts[0].m = NULL;
        for (size_t i = 1; i < n; i++) {
            kvm_load_append(m, sh.parts[i].m);
            sh.parts[i].m = NULL;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const kv_verify_report *pr = &sh.parts[i].r;
        r->has_digest |= pr->has_digest;
        r->keys += pr->keys;
        r->malformed += pr->malformed;
        for (int t = 0; t < 256; t++) {
            digest_add(&r->found[t], &pr->found[t]);
            /* each digest key is in one part; zero elsewhere */
            digest_add(&r->expected[t], &pr->expected[t]);
        }
        kvm_free(sh.parts[i].m);
    }
    free(sh.parts);
    free(splits);
    if (worst == 1) *failed = 1;
    else if (worst == 2) set_err(err, KV_OK, "");
    return m;
}

/* ------------------------------------------------------------ journal */

/* The path of a file:// URL after "file://" with %XX decoded, as the Rust
 * side's url::Url::to_file_path reads it (rust/src/lib.rs). */
static char *file_url_path(const char *rest)
{
    char *out = malloc(strlen(rest) + 1), *o = out;
    if (!out) return NULL;
    for (const char *p = rest; *p; p++) {
        int hi, lo;
        if (*p == '%' && (hi = rl_hex_value(p[1])) >= 0 && (lo = rl_hex_value(p[2])) >= 0) {
            *o++ = (char)(hi << 4 | lo);
            p += 2;
        } else {
            *o++ = *p;
        }
    }
    *o = 0;
    return out;
}

char *kv_local_dir(const char *url)
{
    if (strncmp(url, "file://", 7) == 0) return file_url_path(url + 7);
    if (strstr(url, "://")) return NULL;
    if (url[0] == '/') return strdup(url);
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) return NULL;
    size_t n = strlen(cwd) + strlen(url) + 2;
    char *abs = malloc(n);
    if (abs) snprintf(abs, n, "%s/%s", cwd, url);
    return abs;
}

static char *journal_dir(const char *store_dir)
{
    size_t n = strlen(store_dir) + sizeof "/journal";
    char *d = malloc(n);
    if (d) snprintf(d, n, "%s/journal", store_dir);
    return d;
}

/* Apply `b` to SlateDB's memtable with the journal position `pos` in the
 * same batch. */
static int slate_apply(kv_db *db, const kv_batch *b, const rl_journal_pos *pos,
                       slate_pending **out, kv_error *err)
{
    uint8_t pv[RL_JOURNAL_POS_LEN];
    if (!pos) return slate_write_begin(db->slate, b, NULL, 0, NULL, 0, out, err);
    rl_journal_pos_encode(pos, pv);
    return slate_write_begin(db->slate, b, JOURNAL_POS_KEY, JOURNAL_POS_KEY_LEN, pv, sizeof pv,
                             out, err);
}

typedef struct replay_ctx {
    kv_db *db;
    uint64_t file_id;
} replay_ctx;

static int replay_record(void *ctx, const uint8_t *payload, size_t len, uint64_t seq,
                         uint64_t end, kv_error *err)
{
    replay_ctx *rc = ctx;
    kv_batch *b = rl_batch_decode(payload, len);
    if (!b) {
        char msg[480];
        snprintf(msg, sizeof msg,
                      "record %" PRIu64 " of journal-%016" PRIx64 ".log passes its checksum but "
                      "holds a malformed batch: the file was written by another RockLake "
                      "version (open the store with that one) or damaged; copy the journal "
                      "directory aside and restore the file from a backup (docs/operations.md, "
                      "\"Integrity: journal ... is damaged\")",
                      seq, rc->file_id);
        set_err(err, KV_ERR_CORRUPT, msg);
        return -1;
    }
    rl_journal_pos pos = {rc->file_id, seq, end};
    slate_pending *p = NULL;
    int r = slate_apply(rc->db, b, &pos, &p, err);
    kv_batch_free(b);
    if (r < 0) return -1;
    slate_write_release(p); /* durable with the position written after it */
    return 0;
}

/* Write the position alone and wait until SlateDB holds it, and every
 * batch replayed before it, durably. Called before the journal and the
 * mirror are attached to `db`, so kv_write goes straight to SlateDB. */
static int put_position_durable(kv_db *db, const rl_journal_pos *pos, kv_error *err)
{
    uint8_t pv[RL_JOURNAL_POS_LEN];
    rl_journal_pos_encode(pos, pv);
    kv_batch *b = kv_batch_new();
    if (!b) {
        set_err(err, KV_ERR_INTERNAL, "out of memory");
        return -1;
    }
    kv_batch_put(b, JOURNAL_POS_KEY, JOURNAL_POS_KEY_LEN, pv, sizeof pv);
    int rc = kv_write(db, b, err);
    kv_batch_free(b);
    return rc;
}

/* Replay what the last writer's journal holds beyond SlateDB, then (with
 * `use_journal`) start this writer's own journal. Before the mirror loads,
 * so the mirror sees the replayed state. */
static int journal_open(kv_db *db, const char *store_dir, bool use_journal,
                        const kv_options *opts, kv_error *err)
{
    bool salvage = opts && opts->journal_salvage;
    uint8_t *v = NULL;
    size_t vl = 0;
    int found = slate_get(db->slate, NULL, JOURNAL_POS_KEY, JOURNAL_POS_KEY_LEN, &v, &vl, err);
    if (found < 0) return -1;
    rl_journal_pos prev = {0, 0, 0};
    if (found && rl_journal_pos_decode(v, vl, &prev) < 0) {
        free(v);
        set_err(err, KV_ERR_CORRUPT, "the store's journal position (key 0xFF kv-journal) is "
                                     "not 24 bytes");
        return -1;
    }
    free(v);
    if (!use_journal && prev.file_id == 0) return 0;
    char *dir = journal_dir(store_dir);
    if (!dir) {
        set_err(err, KV_ERR_INTERNAL, "out of memory");
        return -1;
    }
    replay_ctx rc = {db, prev.file_id};
    uint64_t last = prev.seq;
    rl_journal *j = NULL;
    rl_journal_damage damage;
    int r = rl_journal_recover_ex(dir, &prev, salvage, replay_record, &rc, &last, &damage, err);
    if (r == 0 && use_journal && !(j = rl_journal_create(dir, last, err))) r = -1;
    if (r == 0) {
        rl_journal_pos mine = {j ? rl_journal_file_id(j) : 0, last, 0};
        r = put_position_durable(db, &mine, err);
    }
    if (r < 0) {
        rl_journal_discard(j);
    } else if (damage.whole_file) {
        /* salvaged: none of the file could be read; the store no longer names it */
        char aside[4200] = "", msg[600];
        if (!damage.missing) rl_journal_set_aside(dir, prev.file_id, aside, sizeof aside);
        snprintf(msg, sizeof msg,
                 "journal salvage: journal-%016" PRIx64 ".log %s, so the commits it held are "
                 "given up%s%.200s; serving read-only until restarted without "
                 "--journal-salvage",
                 prev.file_id, damage.missing ? "is missing" : "does not start with a journal "
                 "header", damage.missing ? "" : "; the file is kept as ", aside);
        notice(opts, msg);
    } else if (damage.bad != UINT64_MAX) {
        /* salvaged: the store no longer names the file; keep it aside */
        char aside[4200] = "", msg[600];
        rl_journal_set_aside(dir, prev.file_id, aside, sizeof aside);
        snprintf(msg, sizeof msg,
                 "journal salvage: replayed the %zu commit records before the damaged record "
                 "at offset %" PRIu64 " of journal-%016" PRIx64 ".log (the next valid record "
                 "was at offset %" PRIu64 "); the commits from there on are given up; the file "
                 "is kept as %.200s; serving read-only until restarted without "
                 "--journal-salvage",
                 damage.records_before, damage.bad, prev.file_id, damage.next_valid, aside);
        notice(opts, msg);
    } else {
        if (prev.file_id) rl_journal_remove_file(dir, prev.file_id);
        /* From here writes take the journal's numbers. The writes made so
         * far (the position, through kv_write) were durable when they
         * returned and no handle holds their numbers, so numbering starts
         * again at the journal's last record, which is durable too. */
        if (j) {
            atomic_store(&db->written_seq, last);
            db->durable_seq = last; /* no other thread has the handle yet */
            /* a durable view pinned before the renumbering names no
             * write of the new numbering: the next flush pins one */
            if (db->durable_pinned) kvm_unpin(db->mirror, db->durable_mseq);
            db->durable_pinned = false;
            db->durable_count = db->written_count;
        }
        db->journal = j;
        if (salvage)
            notice(opts, "journal salvage: the journal holds no damaged record; serving "
                         "read-only until restarted without --journal-salvage");
    }
    free(dir);
    return r;
}

/* The part of kv_options the Rust side reads (slate.h). */
static slate_options slate_options_of(const kv_options *o)
{
    slate_options so = {0};
    if (o) {
        so.flush_interval_ms = o->flush_interval_ms;
        so.block_cache_bytes = o->block_cache_bytes;
        so.reader_poll_interval_ms = o->reader_poll_interval_ms;
        so.scan_read_ahead_bytes = o->scan_read_ahead_bytes;
        so.scan_fetch_tasks = o->scan_fetch_tasks;
        so.store_timeout_ms = o->store_timeout_ms;
        so.follower_poll_max_ms = o->follower_poll_max_ms;
        so.quiet_key = o->follower_quiet_key;
        so.quiet_key_len = o->follower_quiet_key ? o->follower_quiet_key_len : 0;
    }
    /* the digest keys come with every batch, news or not */
    so.quiet_prefix = DIGEST_PREFIX;
    so.quiet_prefix_len = DIGEST_PREFIX_LEN;
    return so;
}

/* SlateDB's own WAL flush interval for a writer of an object store when
 * the caller left it at 0. Every write there is made durable by the group
 * commit's explicit flush (kv_wait_durable), so SlateDB's timer adds no
 * durability; at 10 ms it started a WAL object write of its own while a
 * leader gathered its group, and the leader's flush then waited for it and
 * wrote a second object: two object writes per group, each a round trip
 * to the store (docs/design/group-commit.md). */
#define OBJECT_STORE_WAL_FLUSH_MS 1000

void kv_open_timing_get(kv_db *db, kv_open_timing *out)
{
    memset(out, 0, sizeof *out);
    if (!db) return;
    pthread_mutex_lock(&db->load_mu); /* a background load writes its fields */
    *out = db->timing;
    pthread_mutex_unlock(&db->load_mu);
}

static int load_background_start(kv_db *db, const kv_options *opts, kv_verify_report *r,
                                 kv_error *err);

/* At the end of a writer's open, start writing the memtable to an L0 table
 * in the background. SlateDB's open replays every WAL object since the
 * last memtable flush into the memtable, and only a memtable flush moves
 * that point: the catalog flushes every MEMTABLE_FLUSH_EVERY commits of one
 * open, so a writer killed (or promoted away from) before that many left
 * the next open the WAL it replayed plus its own, and every open after it
 * replayed all of them again, one GET each on an object store. Under kill
 * -9 / promote rounds of ~100 commits each a follower's open went from
 * 0.8 s to 22 s in 16 rounds at 25 ms per request. Flushing what was
 * replayed bounds the WAL an open reads to what one writer wrote.
 * Best effort: a failure leaves the WAL for the next flush. */
static void flush_replayed(kv_db *db)
{
    if (db->salvaged) return; /* opened to read what a broken journal left */
    kv_error ignored;
    slate_flush_memtable_async(db->slate, &ignored);
}

kv_db *kv_open_writer(const char *url, const kv_options *opts, kv_error *err)
{
    uint64_t t0 = rl_monotonic_ns();
    slate_options so = slate_options_of(opts);
    /* an object store: a URL with a scheme that is neither file:// nor
     * memory:// (kv_local_dir's rule) */
    if (so.flush_interval_ms == 0 && url && strstr(url, "://") &&
        strncmp(url, "file://", 7) != 0 && strncmp(url, "memory://", 9) != 0)
        so.flush_interval_ms = OBJECT_STORE_WAL_FLUSH_MS;
    const kv_db *from = opts ? opts->promote_from : NULL;
    slate_db *s = slate_open_writer(url, &so, from ? from->slate : NULL, err);
    kv_db *db = s ? wrap(s, err) : NULL;
    if (!db) return NULL;
    uint64_t t1 = rl_monotonic_ns();
    db->timing.slate_ns = t1 - t0;
    db->url = strdup(url);
    db->local_dir = kv_local_dir(url);
    bool salvage = db->local_dir && opts && opts->journal_salvage;
    if (db->local_dir) {
        bool use = (!opts || opts->journal >= 0) && !salvage;
        int r = journal_open(db, db->local_dir, use, opts, err);
        if (r < 0) {
            kv_error ignored;
            kv_close(db, &ignored);
            return NULL;
        }
    }
    uint64_t t2 = rl_monotonic_ns();
    db->timing.journal_ns = t2 - t1;
    int64_t max = opts ? opts->mirror_max_bytes : 0;
    kv_verify_report *r = calloc(1, sizeof *r);
    kv_mirror *m = NULL;
    if (!r) {
        set_err(err, KV_ERR_INTERNAL, "out of memory opening the store");
        goto fail;
    }
    if (max >= 0 && opts && opts->load_background && !opts->digest_rebuild) {
        db->mirror_limit = max ? (uint64_t)max : DEFAULT_MIRROR_MAX_BYTES;
        int started = load_background_start(db, opts, r, err);
        if (started < 0) goto fail;
        if (started) {
            db->timing.digest_ns = rl_monotonic_ns() - t2; /* the stored digest's read */
            assert(!db->journal || !salvage);
            db->salvaged = salvage;
            free(r);
            flush_replayed(db);
            return db;
        }
    }
    if (max >= 0) {
        int failed;
        db->mirror_limit = max ? (uint64_t)max : DEFAULT_MIRROR_MAX_BYTES;
        m = load_mirror(s, NULL, NULL, db->mirror_limit, opts, r, &db->timing.load_keys,
                        &db->timing.load_parts, &failed, err);
        if (failed) goto fail;
    }
    uint64_t t3 = rl_monotonic_ns();
    db->timing.load_ns = t3 - t2;
    /* The digest is written (first open, rebuild) before the mirror is
     * attached: the mirror never holds the kv layer's own keys. After a
     * salvage it is checked, and rebuilt, against the store as the
     * salvaged records left it. */
    if (digest_open(db, r, m != NULL, opts, err) < 0) goto fail;
    db->timing.digest_ns = rl_monotonic_ns() - t3;
    /* Only now: journal_open (the position, naming no file any more) and
     * digest_open write through kv_write, which a salvaged store refuses. */
    assert(!db->journal || !salvage);
    db->salvaged = salvage;
    free(r);
    db->mirror = m;
    flush_replayed(db);
    return db;
fail:
    free(r);
    kvm_free(m);
    kv_error ignored;
    kv_close(db, &ignored);
    return NULL;
}

/* ------------------------------------------------------------ background load */

/* kv_options.load_background (docs/design/background-load.md): the open
 * returns once SlateDB is open and the stored digest read; reads go to
 * SlateDB (db->mirror NULL) while a thread loads the copy at load_snap, the
 * SlateDB snapshot taken at open before the handle was shared.
 *  - Every batch SlateDB takes from then on is also appended to load_log
 *    (under view_mu, in the order of write_lock), so the log holds exactly
 *    the batches after load_snap.
 *  - The switch runs under write_lock and view_mu: the log's batches are
 *    applied to the copy in order, logging stops, and db->mirror is set.
 *    No batch is between SlateDB and the copy then, so the copy's latest
 *    state is SlateDB's latest state. A snapshot taken before the switch is
 *    a SlateDB snapshot and keeps reading SlateDB; one taken after pins the
 *    copy; reads without a snapshot see the latest state either way.
 *  - The digest check compares the keys at load_snap with the digest keys
 *    at load_snap (both in the one scan). Until it passed, no commit is
 *    acknowledged (kv_write_wait, kv_wait_durable: gate_from), so no client
 *    is told a commit is safe on a store that is then refused; a refused
 *    store fails every later call with the digest's message (refused).
 *  - Given up (too big, out of memory, SlateDB failed, the log too big):
 *    reads stay on SlateDB as without a copy, the digest is taken as
 *    stored (as for a writer without a copy), and the gate opens.
 *  - kv_close stops the loader (load_stop) and joins it before closing;
 *    a load that ends because of the close is not reported (`loaded`). */

static void mirror_apply(kv_mirror *m, const kv_batch *b);

/* Under view_mu, while logging: append b (SlateDB took it) to the log. */
static void load_log_batch(kv_db *db, const kv_batch *b)
{
    if (db->load_log_lost) return;
    size_t at = db->load_log.len;
    rl_buf_put_be64(&db->load_log, 0);
    if (rl_batch_encode(b, &db->load_log) < 0 || db->load_log.failed) {
        /* past its limit (the copy's) or out of memory: the copy cannot
         * catch up; the load gives up, reads stay on SlateDB */
        db->load_log_lost = true;
        rl_buf_free(&db->load_log);
        atomic_store(&db->load_stop, true);
        return;
    }
    rl_store_be64(db->load_log.data + at, db->load_log.len - at - 8);
    db->load_logged++;
}

/* Under write_lock and view_mu: apply the log to m, in order. 0, or -1
 * (a batch that does not decode, or m broken: out of memory). */
static int load_log_replay(kv_db *db, kv_mirror *m)
{
    size_t at = 0;
    while (at < db->load_log.len) {
        assert(db->load_log.len - at >= 8);
        uint64_t n = rl_load_be64(db->load_log.data + at);
        kv_batch *b = rl_batch_decode(db->load_log.data + at + 8, n);
        if (!b) return -1;
        mirror_apply(m, b);
        kv_batch_free(b);
        if (kvm_broken(m)) return -1;
        at += 8 + n;
    }
    return 0;
}

static void *load_thread(void *arg)
{
    kv_db *db = arg;
    uint64_t t0 = rl_monotonic_ns();
    kv_verify_report *r = calloc(1, sizeof *r);
    kv_error err;
    set_err(&err, KV_OK, "");
    int failed = 1;
    uint64_t pairs = 0;
    uint32_t nparts = 0;
    kv_mirror *m = r ? load_mirror(db->slate, db->load_snap, &db->load_stop, db->mirror_limit,
                                   &db->load_opts, r, &pairs, &nparts, &failed, &err)
                     : NULL;
    uint32_t state = m ? 2 : 3;
    if (m && (r->malformed || kv_verify_mismatches(r))) {
        digest_refusal(db, r, &err);
        kvm_free(m);
        m = NULL;
        state = 4;
    }
    uint64_t replayed;
    pthread_mutex_lock(&db->write_lock);
    pthread_mutex_lock(&db->view_mu);
    replayed = db->load_logged;
    if (m && (db->load_log_lost || load_log_replay(db, m) < 0)) {
        kvm_free(m);
        m = NULL;
        state = 3;
    }
    db->load_logging = false;
    rl_buf_free(&db->load_log);
    if (m) {
        kvm_stats st;
        kvm_stats_get(m, &st);
        if (st.bytes > db->mirror_limit) kvm_abandon(m); /* as a batch past it would */
        db->mirror = m;
    }
    if (state == 4) {
        pthread_mutex_lock(&db->load_mu);
        db->refusal = err;
        pthread_mutex_unlock(&db->load_mu);
        atomic_store(&db->refused, true); /* before any later write takes write_lock */
    }
    pthread_mutex_unlock(&db->view_mu);
    pthread_mutex_unlock(&db->write_lock);
    slate_snapshot_free(db->load_snap);
    db->load_snap = NULL;
    pthread_mutex_lock(&db->load_mu);
    db->timing.load_ns = rl_monotonic_ns() - t0;
    db->timing.load_keys += pairs;
    db->timing.load_parts = nparts;
    db->timing.replayed = replayed;
    db->timing.background = state;
    db->load_state = state;
    kv_open_timing t = db->timing;
    pthread_cond_broadcast(&db->load_cv);
    pthread_mutex_unlock(&db->load_mu);
    free(r);
    if (db->loaded && !atomic_load(&db->closing))
        db->loaded(db->loaded_ctx, db->url, &t, state == 4 ? &err : NULL);
    return NULL;
}

/* At open, before the handle is shared: read the stored digest and start
 * the load on its own thread. 1 started, 0 not (no digest to trust yet, or
 * no thread: the caller loads in the open), -1 failed (err). */
static void load_start(kv_db *db);

static int load_background_start(kv_db *db, const kv_options *opts, kv_verify_report *r,
                                 kv_error *err)
{
    uint64_t pairs;
    memset(r, 0, sizeof *r);
    if (verify_scan(db, true, r, &pairs, err) < 0) return -1;
    count(&load_scans, 1);
    count(&load_keys, pairs);
    if (!r->has_digest || r->malformed) return 0;
    db->load_snap = slate_snapshot_new(db->slate, err);
    if (!db->load_snap) return -1;
    for (int t = 0; t < 256; t++) db->digest[t] = r->expected[t];
    db->digest_on = true;
    db->load_opts = (kv_options){.load_parts = opts->load_parts};
    db->loaded = opts->loaded;
    db->loaded_ctx = opts->loaded_ctx;
    rl_buf_init(&db->load_log, db->mirror_limit);
    db->load_logging = true;
    db->load_state = 1;
    db->timing.background = 1;
    db->load_bg = true;
    if (opts->load_background == 2) return 1; /* kv_load_start starts it */
    load_start(db);
    return 1;
}

/* Start the background load's thread (once). Without a thread the load
 * is given up: reads stay on SlateDB, the gate opens. */
static void load_start(kv_db *db)
{
    if (!db->load_bg) return;
    pthread_mutex_lock(&db->start_mu);
    bool run = !db->loader_started;
    db->loader_started = true;
    if (run) db->loader_thread = pthread_create(&db->loader, NULL, load_thread, db) == 0;
    bool failed = run && !db->loader_thread;
    pthread_mutex_unlock(&db->start_mu);
    if (!failed) return;
    /* no thread: given up */
    pthread_mutex_lock(&db->write_lock);
    pthread_mutex_lock(&db->view_mu);
    db->load_logging = false;
    rl_buf_free(&db->load_log);
    pthread_mutex_unlock(&db->view_mu);
    pthread_mutex_unlock(&db->write_lock);
    slate_snapshot_free(db->load_snap);
    db->load_snap = NULL;
    pthread_mutex_lock(&db->load_mu);
    db->load_state = db->timing.background = 3;
    pthread_cond_broadcast(&db->load_cv);
    pthread_mutex_unlock(&db->load_mu);
}

void kv_load_start(kv_db *db)
{
    if (db) load_start(db);
}

/* Fails the call when the load refused the store. */
static bool refused(kv_db *db, kv_error *err)
{
    if (!atomic_load(&db->refused)) return false;
    if (err) *err = db->refusal; /* written before `refused`, never again */
    return true;
}

/* A commit's acknowledgement (write `seq` durable): wait for a running
 * load's digest check when seq is at or past the first commit made while
 * it ran. 0, or -1 with the refusal. */
static int load_gate(kv_db *db, uint64_t seq, kv_error *err)
{
    if (!db->load_bg) return 0;
    uint64_t from = atomic_load(&db->gate_from);
    if (from == 0 || seq < from) return 0;
    load_start(db); /* a commit waits for the load: it must run */
    pthread_mutex_lock(&db->load_mu);
    while (db->load_state == 1) pthread_cond_wait(&db->load_cv, &db->load_mu);
    int rc = db->load_state == 4 ? -1 : 0;
    if (rc < 0 && err) *err = db->refusal;
    pthread_mutex_unlock(&db->load_mu);
    return rc;
}

int kv_load_wait(kv_db *db, uint32_t timeout_ms, kv_error *err)
{
    set_err(err, KV_OK, "");
    if (!db || !db->load_bg) return 0;
    load_start(db);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&db->load_mu);
    while (db->load_state == 1) {
        if (!timeout_ms) pthread_cond_wait(&db->load_cv, &db->load_mu);
        else if (pthread_cond_timedwait(&db->load_cv, &db->load_mu, &until) == ETIMEDOUT) break;
    }
    int rc = db->load_state == 1 ? 1 : db->load_state == 4 ? -1 : 0;
    if (rc < 0 && err) *err = db->refusal;
    pthread_mutex_unlock(&db->load_mu);
    return rc;
}

int kv_load_refused(kv_db *db, char *why, size_t n)
{
    if (why && n) why[0] = 0;
    if (!db || !atomic_load(&db->refused)) return 0;
    if (why && n) snprintf(why, n, "%s", db->refusal.message);
    return 1;
}

int kv_error_is_no_store(const kv_error *err)
{
    /* rust/src/lib.rs reports a missing manifest or local directory with
     * its own kind (SlateDB itself would call it a data error) */
    return err && err->kind == KV_ERR_NO_STORE;
}

kv_db *kv_open_reader(const char *url, const kv_options *opts, kv_error *err)
{
    slate_options so = slate_options_of(opts);
    slate_db *s = slate_open_reader(url, &so, opts ? opts->reader_no_writes : 0, err);
    kv_db *db = s ? wrap(s, err) : NULL;
    if (db) {
        db->local_dir = kv_local_dir(url);
        db->url = strdup(url);
    }
    return db;
}

int kv_is_reader(const kv_db *db)
{
    return db ? slate_is_reader(db->slate) : 0;
}

int kv_follower_backoff(const kv_db *db, uint64_t *poll_ms, int *idle)
{
    return db ? slate_follower_backoff(db->slate, poll_ms, idle) : 0;
}

int kv_close(kv_db *db, kv_error *err)
{
    set_err(err, KV_OK, "");
    if (!db) return 0;
    if (db->loader_thread) { /* no other thread uses the handle now: stop the load */
        atomic_store(&db->closing, true);
        atomic_store(&db->load_stop, true);
        pthread_join(db->loader, NULL);
    }
    slate_snapshot_free(db->load_snap); /* a load never started (NULL once it ran) */
    kv_error local;
    kv_error *e = err ? err : &local;
    int rc = slate_close(db->slate, e);
    /* A fenced writer's close loses nothing acknowledged: every write it
     * acknowledged is durable in SlateDB or was replayed from its journal
     * by the writer that fenced it. Only unacknowledged writes go. A
     * fenced writer's background tasks may find the fence first and close
     * the engine themselves; close then says "db is closed", which means
     * the same thing. */
    if (rc < 0 && (e->kind == KV_ERR_FENCED || e->kind == KV_ERR_CLOSED)) {
        set_err(e, KV_OK, "");
        rc = 0;
    }
    rl_journal_close(db->journal);
    /* the durable view's pin is the handle's own: no reader may be left */
    if (db->durable_pinned) kvm_unpin(db->mirror, db->durable_mseq);
    kvm_free(db->mirror);
    pthread_mutex_destroy(&db->write_lock);
    pthread_mutex_destroy(&db->view_mu);
    pthread_mutex_destroy(&db->release_lock);
    pthread_mutex_destroy(&db->durable_mu);
    pthread_cond_destroy(&db->durable_cv);
    pthread_cond_destroy(&db->arrive_cv);
    pthread_mutex_destroy(&db->load_mu);
    pthread_cond_destroy(&db->load_cv);
    pthread_mutex_destroy(&db->start_mu);
    rl_buf_free(&db->load_log);
    free(db->local_dir);
    free(db->url);
    free(db);
    return rc;
}

int kv_shutdown(kv_db *db, kv_error *err)
{
    set_err(err, KV_OK, "");
    if (!db) return 0;
    return slate_shutdown(db->slate, err);
}

int kv_write_failed(kv_db *db, char *why, size_t n)
{
    if (why && n) why[0] = 0;
    /* db->journal is set once at open, before the handle is shared */
    return db && db->journal ? rl_journal_failed(db->journal, why, n) : 0;
}

/* Apparent sizes of the regular files below `dir` (symlinks not followed). */
static uint64_t dir_bytes(const char *dir, int depth)
{
    DIR *d = depth < 16 ? opendir(dir) : NULL;
    if (!d) return 0;
    uint64_t total = 0;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        struct stat st;
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) continue;
        if (lstat(path, &st) != 0) continue; /* removed meanwhile (compaction) */
        if (S_ISDIR(st.st_mode))
            total += dir_bytes(path, depth + 1);
        else if (S_ISREG(st.st_mode))
            total += (uint64_t)st.st_size;
    }
    closedir(d);
    return total;
}

uint64_t kv_size_bytes(kv_db *db)
{
    if (!db) return 0;
    if (db->local_dir) return dir_bytes(db->local_dir, 0);
    kv_mirror_info mi;
    return kv_mirror_stats(db, &mi) ? mi.bytes : 0;
}

int kv_mirror_stats(kv_db *db, kv_mirror_info *out)
{
    memset(out, 0, sizeof *out);
    if (!db || !db->mirror) return 0;
    kvm_stats st;
    kvm_stats_get(db->mirror, &st);
    out->keys = st.nodes;
    out->versions = st.versions;
    out->bytes = st.bytes;
    out->broken = kvm_broken(db->mirror);
    return 1;
}

/* ------------------------------------------------------------ snapshots */

kv_snapshot *kv_snapshot_new(kv_db *db, kv_error *err)
{
    if (!db) {
        set_err(err, KV_ERR_INVALID, "kv_db handle is NULL");
        return NULL;
    }
    if (refused(db, err)) return NULL;
    kv_snapshot *snap = calloc(1, sizeof *snap);
    if (!snap) {
        set_err(err, KV_ERR_INTERNAL, "out of memory taking a snapshot");
        return NULL;
    }
    snap->db = db;
    kv_mirror *m = usable_mirror(db);
    if (m) {
        if (kvm_pin(m, &snap->seq) == 0) {
            set_err(err, KV_OK, "");
            return snap;
        }
        free(snap);
        set_err(err, KV_ERR_INTERNAL, "out of memory taking a snapshot");
        return NULL;
    }
    snap->slate = slate_snapshot_new(db->slate, err);
    if (!snap->slate) {
        free(snap);
        return NULL;
    }
    return snap;
}

void kv_snapshot_free(kv_snapshot *snap)
{
    if (!snap) return;
    if (snap->slate) slate_snapshot_free(snap->slate);
    else kvm_unpin(snap->db->mirror, snap->seq);
    free(snap);
}

/* The journal position `snap` holds ({0, 0, 0} when none). 0 or -1. */
static int snapshot_journal_pos(kv_db *db, kv_snapshot *snap, rl_journal_pos *pos, kv_error *err)
{
    uint8_t *v = NULL;
    size_t vl = 0;
    memset(pos, 0, sizeof *pos);
    int rc = slate_get(db->slate, snap->slate, JOURNAL_POS_KEY, JOURNAL_POS_KEY_LEN, &v, &vl, err);
    if (rc < 0) return -1;
    if (rc == 1 && rl_journal_pos_decode(v, vl, pos) < 0) {
        free(v);
        set_err(err, KV_ERR_CORRUPT, "the store's journal position (key 0xFF kv-journal) is "
                                     "malformed");
        return -1;
    }
    free(v);
    return 0;
}

static uint64_t now_ms(void) { return rl_monotonic_ns() / 1000000; }

kv_snapshot *kv_snapshot_acknowledged(kv_db *db, uint32_t timeout_ms, kv_error *err)
{
    if (!db || !slate_is_reader(db->slate)) {
        set_err(err, KV_ERR_INVALID, "kv_snapshot_acknowledged needs a reader");
        return NULL;
    }
    kv_snapshot *snap = kv_snapshot_new(db, err);
    rl_journal_pos first;
    if (!snap || snapshot_journal_pos(db, snap, &first, err) < 0) goto fail;
    if (first.file_id == 0 || !db->local_dir) return snap; /* no journal */
    char *dir = journal_dir(db->local_dir);
    if (!dir) {
        set_err(err, KV_ERR_INTERNAL, "out of memory reading the journal");
        goto fail;
    }
    uint64_t tip;
    int found = rl_journal_peek(dir, &first, &tip, err);
    free(dir);
    if (found < 0) goto fail;
    uint64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        rl_journal_pos pos;
        if (snapshot_journal_pos(db, snap, &pos, err) < 0) goto fail;
        /* a newer writer's file: that writer replayed the older file whole
         * before writing a position naming its own */
        if (pos.file_id != first.file_id || pos.seq >= tip) return snap;
        if (now_ms() >= deadline) {
            char msg[300];
            snprintf(msg, sizeof msg, "the writer's journal holds commits up to record %" PRIu64
                     " that SlateDB's durable state (record %" PRIu64 ") did not reach within "
                     "%" PRIu32 " ms", tip, pos.seq, timeout_ms);
            set_err(err, KV_ERR_IO, msg);
            goto fail;
        }
        kv_snapshot_free(snap);
        struct timespec ts = {0, 10 * 1000000};
        nanosleep(&ts, NULL);
        if (!(snap = kv_snapshot_new(db, err))) goto fail;
    }
fail:
    kv_snapshot_free(snap);
    return NULL;
}

int kv_journal_unapplied(const char *url, uint64_t *records, kv_error *err)
{
    *records = 0;
    char *local = kv_local_dir(url);
    if (!local) return 0; /* a journal is local only */
    kv_options ko = {.reader_no_writes = 1, .mirror_max_bytes = -1};
    kv_error oe;
    kv_db *db = kv_open_reader(url, &ko, &oe);
    if (!db) {
        free(local);
        if (kv_error_is_no_store(&oe)) return 0;
        if (err) *err = oe;
        return -1;
    }
    int rc = -1;
    rl_journal_pos pos;
    kv_snapshot *snap = kv_snapshot_new(db, err);
    char *dir = journal_dir(local);
    if (!dir) {
        set_err(err, KV_ERR_INTERNAL, "out of memory reading the journal");
    } else if (snap && snapshot_journal_pos(db, snap, &pos, err) == 0) {
        uint64_t tip = pos.seq;
        if (rl_journal_peek(dir, &pos, &tip, err) >= 0) {
            *records = tip > pos.seq ? tip - pos.seq : 0;
            rc = 0;
        }
    }
    free(dir);
    kv_snapshot_free(snap);
    kv_close(db, NULL);
    free(local);
    return rc;
}

/* ------------------------------------------------------------ point reads */

/* A malloc'd copy (1 byte for an empty one, so NULL means out of memory). */
static uint8_t *copy_bytes(const uint8_t *p, size_t n)
{
    uint8_t *c = malloc(n ? n : 1);
    if (c && n) memcpy(c, p, n);
    return c;
}

static int mirror_get(kv_mirror *m, uint64_t seq, const uint8_t *key, size_t klen,
                      uint8_t **val, size_t *vlen, kv_error *err)
{
    const uint8_t *v;
    size_t vl;
    count(&mirror_gets, 1);
    if (!kvm_get(m, seq, key, klen, &v, &vl)) return 0;
    count(&mirror_keys, 1);
    if (val && !(*val = copy_bytes(v, vl))) {
        set_err(err, KV_ERR_INTERNAL, "out of memory reading a value");
        return -1;
    }
    if (vlen) *vlen = vl;
    return 1;
}

int kv_get(kv_db *db, kv_snapshot *snap, const uint8_t *key, size_t klen, uint8_t **val,
           size_t *vlen, kv_error *err)
{
    if (!db) {
        set_err(err, KV_ERR_INVALID, "kv_db handle is NULL");
        return -1;
    }
    if (refused(db, err)) return -1;
    if (key && is_own_key(key, klen)) {
        set_err(err, KV_OK, "");
        return 0;
    }
    if (snap && snap->slate) return slate_get(db->slate, snap->slate, key, klen, val, vlen, err);
    kv_mirror *m = snap ? db->mirror : usable_mirror(db);
    if (!m) return slate_get(db->slate, NULL, key, klen, val, vlen, err);
    if (!key || klen == 0) {
        set_err(err, KV_ERR_INVALID, "empty key");
        return -1;
    }
    set_err(err, KV_OK, "");
    if (snap) return mirror_get(m, snap->seq, key, klen, val, vlen, err);
    uint64_t seq;
    if (kvm_pin(m, &seq) < 0) {
        set_err(err, KV_ERR_INTERNAL, "out of memory reading");
        return -1;
    }
    int rc = mirror_get(m, seq, key, klen, val, vlen, err);
    kvm_unpin(m, seq);
    return rc;
}

/* ------------------------------------------------------------ scans */

/* A mirror scan of [start, end) (end NULL = unbounded) at the snapshot's
 * sequence, or at a pin of its own. */
static kv_iter *mirror_scan(kv_db *db, kv_mirror *m, kv_snapshot *snap, const uint8_t *start,
                            size_t slen, const uint8_t *end, size_t elen, kv_error *err)
{
    kv_iter *it = calloc(1, sizeof *it);
    if (!it) goto oom;
    it->db = db;
    it->start = copy_bytes(start, slen);
    it->slen = slen;
    if (end) {
        it->end = copy_bytes(end, elen);
        it->elen = elen;
    }
    if (!it->start || (end && !it->end)) goto oom;
    /* The iterator holds a pin of its own, so it may outlive its snapshot
     * as a SlateDB iterator can. */
    if (snap) {
        it->seq = snap->seq;
        if (kvm_pin_again(m, it->seq) < 0) goto oom;
    } else if (kvm_pin(m, &it->seq) < 0) {
        goto oom;
    }
    it->pinned = true;
    if (!end || rl_bytes_cmp(start, slen, end, elen) < 0) it->pos = kvm_seek(m, start, slen);
    count(&mirror_scans, 1);
    set_err(err, KV_OK, "");
    return it;
oom:
    kv_iter_free(it);
    set_err(err, KV_ERR_INTERNAL, "out of memory starting a scan");
    return NULL;
}

kv_iter *kv_scan(kv_db *db, kv_snapshot *snap, const uint8_t *start, size_t slen,
                 const uint8_t *end, size_t elen, kv_error *err)
{
    if (!db) {
        set_err(err, KV_ERR_INVALID, "kv_db handle is NULL");
        return NULL;
    }
    if (refused(db, err)) return NULL;
    kv_mirror *m = snap ? (snap->slate ? NULL : db->mirror) : usable_mirror(db);
    if (m) return mirror_scan(db, m, snap, start, slen, end, elen, err);
    slate_iter *s = slate_scan(db->slate, snap ? snap->slate : NULL, start, slen, end, elen, err);
    if (!s) return NULL;
    kv_iter *it = calloc(1, sizeof *it);
    if (!it) {
        slate_iter_free(s);
        set_err(err, KV_ERR_INTERNAL, "out of memory starting a scan");
        return NULL;
    }
    it->slate = s;
    return it;
}

kv_iter *kv_scan_prefix(kv_db *db, kv_snapshot *snap, const uint8_t *prefix, size_t plen,
                        kv_error *err)
{
    if (!prefix || plen == 0) {
        set_err(err, KV_ERR_INVALID, "kv_scan_prefix needs a non-empty prefix");
        return NULL;
    }
    uint8_t small[256];
    uint8_t *end = plen <= sizeof small ? small : malloc(plen);
    if (!end) {
        set_err(err, KV_ERR_INTERNAL, "out of memory starting a scan");
        return NULL;
    }
    size_t elen = rl_bytes_prefix_end(prefix, plen, end);
    kv_iter *it = kv_scan(db, snap, prefix, plen, elen ? end : NULL, elen, err);
    if (end != small) free(end);
    return it;
}

int kv_iter_next(kv_iter *it, const uint8_t **key, size_t *klen, const uint8_t **val,
                 size_t *vlen, kv_error *err)
{
    if (!it) {
        set_err(err, KV_ERR_INVALID, "kv_iter handle is NULL");
        return -1;
    }
    if (it->slate) {
        const uint8_t *k;
        size_t kl;
        int rc;
        while ((rc = slate_iter_next(it->slate, &k, &kl, val, vlen, err)) == 1 &&
               is_own_key(k, kl)) {
        }
        if (rc == 1) {
            if (key) *key = k;
            if (klen) *klen = kl;
        }
        return rc;
    }
    set_err(err, KV_OK, "");
    while (it->pos) {
        const kvm_node *n = it->pos;
        const uint8_t *k, *v;
        size_t kl, vl;
        kvm_node_key(n, &k, &kl);
        if (it->end && rl_bytes_cmp(k, kl, it->end, it->elen) >= 0) {
            it->pos = NULL;
            break;
        }
        it->pos = kvm_node_next(n);
        kvm_prefetch_ahead(it->pos);
        if (!kvm_node_value(n, it->seq, &v, &vl)) continue; /* deleted or newer */
        it->last = n;
        count(&mirror_keys, 1);
        if (key) *key = k;
        if (klen) *klen = kl;
        if (val) *val = v;
        if (vlen) *vlen = vl;
        return 1;
    }
    return 0;
}

/* The same seek semantics as SlateDB iterators (kv.h): forward only,
 * clamped to the scan's range. */
int kv_iter_seek(kv_iter *it, const uint8_t *key, size_t klen, kv_error *err)
{
    if (!it) {
        set_err(err, KV_ERR_INVALID, "kv_iter handle is NULL");
        return -1;
    }
    if (it->slate) return slate_iter_seek(it->slate, key, klen, err);
    set_err(err, KV_OK, "");
    if (it->last) {
        const uint8_t *lk;
        size_t lkl;
        kvm_node_key(it->last, &lk, &lkl);
        int c = rl_bytes_cmp(key, klen, lk, lkl);
        if (c < 0) {
            set_err(err, KV_ERR_INVALID, "kv_iter_seek: cannot seek backwards");
            return -1;
        }
        if (c == 0) return 0;
    } else if (rl_bytes_cmp(key, klen, it->start, it->slen) <= 0) {
        return 0;
    }
    if (!it->pos) return 0; /* exhausted: stays so */
    if (it->end && rl_bytes_cmp(key, klen, it->end, it->elen) >= 0) {
        it->pos = NULL;
        return 0;
    }
    it->pos = kvm_seek(it->db->mirror, key, klen);
    return 0;
}

void kv_iter_free(kv_iter *it)
{
    if (!it) return;
    if (it->slate) slate_iter_free(it->slate);
    if (it->pinned) kvm_unpin(it->db->mirror, it->seq);
    free(it->start);
    free(it->end);
    free(it);
}

/* ------------------------------------------------------------ writes */

/* write_lock is held (by some thread; trylock on a locked mutex is EBUSY
 * even for its owner). */
#define ASSERT_WRITE_LOCKED(db) assert(pthread_mutex_trylock(&(db)->write_lock) == EBUSY)

/* Apply the batch SlateDB just accepted to the mirror, in batch order. Out
 * of memory abandons the mirror (see the invariants above). */
static void mirror_apply(kv_mirror *m, const kv_batch *b)
{
    if (kvm_broken(m)) return;
    kvm_apply_begin(m);
    const uint8_t *k, *v;
    size_t kl, vl;
    int kind;
    for (size_t i = 0; (kind = slate_batch_op(b, i, &k, &kl, &v, &vl)) >= 0; i++) {
        if (is_own_key(k, kl)) continue;
        int rc = kind ? kvm_apply_put(m, k, kl, v, vl) : kvm_apply_delete(m, k, kl);
        if (rc < 0) return; /* broken: never published */
    }
    kvm_apply_end(m);
}

static int write_ordered(kv_db *db, const kv_batch *b, const rl_buf *payload, kv_pending *p,
                         kv_error *err);

/* Ops of one batch in key order (ties in batch order), to find earlier
 * ops on the same key in a batch that is not strictly ascending. */
typedef struct op_ref {
    const uint8_t *k;
    size_t kl;
    size_t i;
} op_ref;

static int op_ref_cmp(const void *a, const void *b)
{
    const op_ref *x = a, *y = b;
    int c = rl_bytes_cmp(x->k, x->kl, y->k, y->kl);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* For each op of b, the index of the previous op on the same key in b, or
 * SIZE_MAX. NULL when out of memory. Only for batches that are not
 * strictly ascending (a catalog commit is). */
static size_t *earlier_ops(const kv_batch *b, size_t n)
{
    op_ref *refs = malloc(n * sizeof *refs);
    size_t *prev = malloc(n * sizeof *prev);
    if (!refs || !prev) {
        free(refs);
        free(prev);
        return NULL;
    }
    const uint8_t *v;
    size_t vl;
    for (size_t i = 0; i < n; i++) {
        slate_batch_op(b, i, &refs[i].k, &refs[i].kl, &v, &vl);
        refs[i].i = i;
        prev[i] = SIZE_MAX;
    }
    qsort(refs, n, sizeof *refs, op_ref_cmp);
    for (size_t j = 1; j < n; j++)
        if (rl_bytes_cmp(refs[j - 1].k, refs[j - 1].kl, refs[j].k, refs[j].kl) == 0)
            prev[refs[j].i] = refs[j - 1].i;
    free(refs);
    return prev;
}

/* The digest groups batch b changes, as they are after it: work->d[t] for
 * each t flagged in work->touched. The old value of a key comes from an
 * earlier op of the batch, else from the mirror's latest state (nothing
 * else writes it: write_lock is held), else, without a usable mirror, from
 * SlateDB. 0 or -1. */
typedef struct digest_work {
    uint64_t touched[4];
    kv_digest d[256];
} digest_work;

static int digest_batch(kv_db *db, const kv_batch *b, digest_work *work, kv_error *err)
{
    memset(work->touched, 0, sizeof work->touched);
    size_t n = kv_batch_count(b);
    kv_mirror *m = usable_mirror(db);
    kvm_stats st = {0};
    if (m) kvm_stats_get(m, &st);
    const uint8_t *k, *v, *pk = NULL;
    size_t kl, vl, pkl = 0;
    size_t *prev = NULL;
    for (size_t i = 0; i < n; i++) { /* strictly ascending? then no key repeats */
        slate_batch_op(b, i, &k, &kl, &v, &vl);
        if (i && rl_bytes_cmp(pk, pkl, k, kl) >= 0) {
            if (!(prev = earlier_ops(b, n))) {
                set_err(err, KV_ERR_INTERNAL, "out of memory writing a batch");
                return -1;
            }
            break;
        }
        pk = k;
        pkl = kl;
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        int kind = slate_batch_op(b, i, &k, &kl, &v, &vl);
        if (kl == 0 || is_own_key(k, kl)) continue; /* SlateDB refuses an empty key */
        int t = k[0];
        if (!(work->touched[t >> 6] >> (t & 63) & 1)) {
            work->touched[t >> 6] |= 1ull << (t & 63);
            work->d[t] = db->digest[t];
        }
        const uint8_t *ov = NULL, *ek;
        size_t ovl = 0, ekl;
        uint8_t *owned = NULL;
        int had;
        if (prev && prev[i] != SIZE_MAX) {
            had = slate_batch_op(b, prev[i], &ek, &ekl, &ov, &ovl); /* 1 put, 0 delete */
        } else if (m) {
            had = kvm_get(m, st.seq, k, kl, &ov, &ovl);
        } else {
            had = slate_get(db->slate, NULL, k, kl, &owned, &ovl, err);
            count(&own_gets, 1);
            if (had < 0) {
                rc = -1;
                break;
            }
            if (had) count(&own_keys, 1);
            ov = owned;
        }
        if (had) digest_pair(&work->d[t], k, kl, ov, ovl, -1);
        if (kind) digest_pair(&work->d[t], k, kl, v, vl, 1);
        free(owned);
    }
    free(prev);
    return rc;
}

/* Append the digest keys of the touched groups to b (and, with a journal,
 * to its record's payload). Returns the bytes added, or -1. */
static int64_t digest_append(kv_batch *b, const digest_work *work, rl_buf *payload)
{
    kv_batch *extra = payload ? kv_batch_new() : NULL;
    if (payload && !extra) return -1;
    int64_t bytes = 0;
    for (int t = 0; t < 256; t++) {
        if (!(work->touched[t >> 6] >> (t & 63) & 1)) continue;
        uint8_t k[DIGEST_KEY_LEN], v[DIGEST_VAL_LEN];
        digest_key(k, t);
        digest_value(v, &work->d[t]);
        kv_batch_put(b, k, sizeof k, v, sizeof v);
        if (extra) kv_batch_put(extra, k, sizeof k, v, sizeof v);
        bytes += DIGEST_KEY_LEN + DIGEST_VAL_LEN;
    }
    /* the codec is one op after another: appending encodes b + extra */
    int rc = extra ? rl_batch_encode(extra, payload) : 0;
    kv_batch_free(extra);
    return rc < 0 ? -1 : bytes;
}

/* Under write_lock: the digest keys into the batch, then journal record,
 * then SlateDB, then mirror. */
static int write_locked(kv_db *db, kv_batch *b, rl_buf *payload, kv_pending *p, kv_error *err)
{
    ASSERT_WRITE_LOCKED(db);
    digest_work *work = NULL;
    if (db->digest_on) {
        /* on the heap: 6 KiB is much of a small thread stack */
        if (!(work = malloc(sizeof *work))) {
            set_err(err, KV_ERR_INTERNAL, "out of memory writing a batch");
            return -1;
        }
        int64_t added;
        if (digest_batch(db, b, work, err) < 0 ||
            (added = digest_append(b, work, db->journal ? payload : NULL)) < 0) {
            if (err && err->kind == KV_OK) set_err(err, KV_ERR_INTERNAL, "out of memory");
            free(work);
            return -1;
        }
        p->own_bytes = (uint64_t)added;
    }
    int rc = write_ordered(db, b, payload, p, err);
    if (rc == 0 && work)
        for (int t = 0; t < 256; t++)
            if (work->touched[t >> 6] >> (t & 63) & 1) db->digest[t] = work->d[t];
    free(work);
    return rc;
}

/* Under write_lock: journal record, then SlateDB, then mirror. */
static int write_ordered(kv_db *db, const kv_batch *b, const rl_buf *payload, kv_pending *p,
                         kv_error *err)
{
    ASSERT_WRITE_LOCKED(db);
    rl_journal_pos pos = {0, 0, 0}, *posp = NULL;
    if (db->journal) {
        if (rl_journal_append(db->journal, payload->data, payload->len, &pos.seq, &pos.offset,
                              err) < 0)
            return -1;
        pos.file_id = rl_journal_file_id(db->journal);
        posp = &pos;
    }
    rl_crash_point(RL_CRASH_KV_BEFORE_STORE_WRITE);
    if (slate_apply(db, b, posp, &p->slate, err) < 0) {
        kv_error abort_err;
        if (posp && rl_journal_abort(db->journal, pos.seq, &abort_err) < 0) {
            /* The record stays valid on disk (a newer writer may have
             * fenced the journal right after it): the next writer may
             * replay it, so this commit's outcome is not known. */
            char why[160];
            snprintf(why, sizeof why, "%.159s", err ? err->message : "");
            if (err) {
                err->kind = KV_ERR_IO;
                snprintf(err->message, sizeof err->message,
                         "the store refused this write (%s) after it reached the journal, "
                         "and the journal could not record that (%.160s): the next writer may "
                         "still apply it; check before retrying",
                         why, abort_err.message);
            }
        }
        return -1;
    }
    rl_crash_point(RL_CRASH_KV_AFTER_STORE_WRITE);
    /* one numbering: the journal record's, or the next of our own */
    pthread_mutex_lock(&db->view_mu);
    p->seq = posp ? pos.seq : atomic_load(&db->written_seq) + 1;
    assert(p->seq > atomic_load(&db->written_seq));
    atomic_store(&db->written_seq, p->seq);
    db->written_count++;
    if (db->leader_gathering) pthread_cond_signal(&db->arrive_cv);
    if (db->load_logging) {
        load_log_batch(db, b);
        if (p->gated && atomic_load(&db->gate_from) == 0) atomic_store(&db->gate_from, p->seq);
    }
    if (db->mirror) {
        mirror_apply(db->mirror, b);
        kvm_stats st;
        kvm_stats_get(db->mirror, &st);
        /* Past its limit the copy stops growing: the limit bounds the
         * memory an operator gave it (--mirror-mb), not only the load. */
        if (st.bytes > db->mirror_limit) kvm_abandon(db->mirror);
    }
    pthread_mutex_unlock(&db->view_mu);
    return 0;
}

/* kv_write_begin; `gated`: a commit, whose acknowledgement waits for a
 * running background load's digest check (load_gate). */
static int write_begin(kv_db *db, const kv_batch *b, bool gated, kv_pending **out,
                       kv_error *err)
{
    if (out) *out = NULL;
    if (!db || !out) {
        set_err(err, KV_ERR_INVALID, db ? "out is NULL" : "kv_db handle is NULL");
        return -1;
    }
    if (refused(db, err)) return -1;
    if (!b) {
        set_err(err, KV_ERR_INVALID, "kv_batch is NULL");
        return -1;
    }
    if (db->salvaged && kv_batch_count(b) > 0) {
        set_err(err, KV_ERR_INVALID, "this store was opened to salvage its journal and is "
                                     "read-only until it is opened again without "
                                     "--journal-salvage");
        return -1;
    }
    if (kv_batch_count(b) == 0 || slate_is_reader(db->slate)) {
        /* nothing to write, or a reader's refusal: SlateDB says which */
        slate_pending *none = NULL;
        int rc = slate_write_begin(db->slate, b, NULL, 0, NULL, 0, &none, err);
        slate_write_release(none);
        return rc < 0 ? -1 : 0;
    }
    kv_pending *p = calloc(1, sizeof *p);
    rl_buf payload;
    rl_buf_init(&payload, 0);
    if (!p || (db->journal && rl_batch_encode(b, &payload) < 0)) {
        free(p);
        rl_buf_free(&payload);
        set_err(err, KV_ERR_INTERNAL, "out of memory writing a batch");
        return -1;
    }
    p->db = db;
    p->gated = gated;
    pthread_mutex_lock(&db->write_lock);
    /* b gains the digest keys (kv.h); the caller only frees it after */
    int rc = write_locked(db, (kv_batch *)b, &payload, p, err);
    pthread_mutex_unlock(&db->write_lock);
    rl_buf_free(&payload);
    if (rc < 0) {
        free(p);
        return -1;
    }
    *out = p;
    return 0;
}

int kv_write_begin(kv_db *db, const kv_batch *b, kv_pending **out, kv_error *err)
{
    return write_begin(db, b, true, out, err);
}

/* Every JOURNAL_RELEASE_BYTES of journal: flush SlateDB's WAL so that it
 * holds every record so far durably, then give that journal space back.
 * One caller does it; the others go on. */
static void maybe_release_journal(kv_db *db)
{
    uint64_t seq, end;
    rl_journal_written(db->journal, &seq, &end);
    if (end - atomic_load(&db->released) < JOURNAL_RELEASE_BYTES) return; /* a hint only */
    if (pthread_mutex_trylock(&db->release_lock) != 0) return;
    /* The batch that carried `end` is in SlateDB's memtable once it is
     * the journal's written position (both happen under write_lock). */
    pthread_mutex_lock(&db->write_lock);
    rl_journal_written(db->journal, &seq, &end);
    pthread_mutex_unlock(&db->write_lock);
    kv_error ignored;
    if (end - atomic_load(&db->released) >= JOURNAL_RELEASE_BYTES &&
        slate_flush(db->slate, &ignored) == 0) {
        rl_journal_release(db->journal, end);
        atomic_store(&db->released, end);
    }
    pthread_mutex_unlock(&db->release_lock);
}

static int wait_durable(kv_db *db, uint64_t seq, bool crash_points, kv_error *err);

/* Consume p once its wait returned rc: release SlateDB's handle (with a
 * journal, or after a failure) or take its own wait, which returns at once
 * after the group's flush and still reports a failure of this write. */
static int pending_finish(kv_pending *p, int rc, kv_error *err)
{
    if (p->db->journal) {
        slate_write_release(p->slate); /* counts the bytes either way */
        count(&own_bytes_written, p->own_bytes);
        if (rc == 0) maybe_release_journal(p->db);
    } else {
        if (rc == 0) rc = slate_write_wait(p->slate, err);
        else slate_write_release(p->slate);
        if (rc == 0) count(&own_bytes_written, p->own_bytes);
    }
    free(p);
    return rc;
}

int kv_write_wait(kv_pending *p, kv_error *err)
{
    if (!p) return 0;
    int rc = wait_durable(p->db, p->seq, true, err);
    if (rc == 0) rc = load_gate(p->db, p->seq, err);
    return pending_finish(p, rc, err);
}

uint64_t kv_pending_seq(const kv_pending *p) { return p ? p->seq : 0; }

uint64_t kv_written_seq(kv_db *db) { return atomic_load(&db->written_seq); }

/* Count one flush that made n writes durable together (kv_group_sizes). */
static void count_group(kv_db *db, uint64_t n)
{
    size_t i = 0;
    while (i + 1 < KV_GROUP_BUCKETS && n > (1ull << i))
        i++;
    atomic_fetch_add(&db->group_sizes[i], 1);
}


/* The most a leader waits for its group to gather, and the share of the
 * last flush's time it may spend on that: for the group the last flush
 * held, or for two cohorts to merge (gather_group). */
#define GATHER_MAX_NS (20u * 1000000u)
#define GATHER_SHARE 2     /* half a flush */
#define GATHER_MERGE_SHARE 4 /* a quarter of a flush to merge two cohorts */
#define MERGE_BACKOFF 8    /* after a merge that did not come together, skip 8 */

static struct timespec abs_time(uint64_t ns)
{
    return (struct timespec){.tv_sec = (time_t)(ns / 1000000000u),
                             .tv_nsec = (long)(ns % 1000000000u)};
}

/* Under view_mu, before the leader reads its target: when the last group
 * held more than one write, wait until as many writes are waiting as that
 * group held (or half the last flush's time, at most GATHER_MAX_NS).
 * Writers that were all acknowledged by one flush come back together, but
 * not at once: without this the first of them leads a flush of its own and
 * the rest wait for the next, so groups alternate between one write and
 * all the others and every commit waits for two flushes (PostgreSQL's
 * commit_delay / commit_siblings, sized from what the last group was). A
 * lone writer (last group 1) never waits.
 *
 * Writes already waiting when the leader starts (two or more, its own
 * included: they came while the last flush was in flight, so they are not
 * the group it just acknowledged) are a second cohort. Flushes are one at
 * a time, so two cohorts that keep alternating make every commit wait for
 * the flush in flight and then its own: two flushes, with the store
 * carrying half the writers each time. The leader then also waits for the
 * group just acknowledged to come back (last group + waiting), for at most
 * a quarter of a flush. Clients that come back quickly (a commit of a few
 * round trips) merge into one cohort, every commit waiting for one flush;
 * slow ones cost the leader that quarter of a flush, and a merge that did
 * not come together is not tried again for the next MERGE_BACKOFF chances:
 * clients whose own work between commits takes longer (DuckDB's thirteen
 * round trips on a loaded machine) stay in two cohorts, whose client work
 * then overlaps the other cohort's flush. */
static void gather_group(kv_db *db, uint64_t durable_count, uint64_t expect, uint64_t flush_ns)
{
    uint64_t have = db->written_count - durable_count;
    bool merge = have >= 2 && expect >= 1;
    if (merge && db->merge_skip > 0) {
        db->merge_skip--;
        merge = false;
    }
    if ((expect < 2 && !merge) || flush_ns == 0) return;
    uint64_t want = merge ? expect + have : expect;
    uint64_t wait = flush_ns / (merge ? GATHER_MERGE_SHARE : GATHER_SHARE);
    if (wait > GATHER_MAX_NS) wait = GATHER_MAX_NS;
    struct timespec ts = abs_time(rl_monotonic_ns() + wait);
    db->leader_gathering = true;
    while (db->written_count - durable_count < want &&
           pthread_cond_timedwait(&db->arrive_cv, &db->view_mu, &ts) != ETIMEDOUT) {
    }
    if (merge && db->written_count - durable_count < want) db->merge_skip = MERGE_BACKOFF;
    db->leader_gathering = false;
}

/* The group commit's leader: the waiter that finds no flush running makes
 * every write numbered so far durable (all of them are in the memtable and,
 * with a journal, in the journal: numbered under write_lock after both) by
 * one journal sync or one SlateDB WAL flush; the others wait for it and are
 * done when it covered them, or lead the next one. The crash points fire in
 * the leader around its flush, before any waiter is released, so a kill at
 * kv-after-flush leaves the group durable and none of it acknowledged.
 *
 * The leader reads its target under view_mu and pins the in-memory
 * copy's state there (the state holding exactly the writes <= target);
 * once the flush succeeded that pin becomes the durable view
 * (kv_snapshot_durable) in the same step as durable_seq, so the view never
 * holds a write that is not durable. A failed flush drops its pin. */
static int wait_flushed(kv_db *db, uint64_t seq, bool crash_points, kv_error *err)
{
    int rc = 0;
    pthread_mutex_lock(&db->durable_mu);
    while (rc == 0 && db->durable_seq < seq) {
        if (db->flushing) {
            pthread_cond_wait(&db->durable_cv, &db->durable_mu);
            continue;
        }
        db->flushing = true;
        uint64_t durable_count = db->durable_count, expect = db->last_group,
                 flush_ns = db->last_flush_ns;
        pthread_mutex_unlock(&db->durable_mu);
        uint64_t g0 = rl_monotonic_ns();
        pthread_mutex_lock(&db->view_mu);
        gather_group(db, durable_count, expect, flush_ns);
        uint64_t target = atomic_load(&db->written_seq);
        uint64_t count = db->written_count;
        kv_mirror *m = usable_mirror(db);
        uint64_t mseq = 0;
        bool pinned = m && kvm_pin(m, &mseq) == 0;
        pthread_mutex_unlock(&db->view_mu);
        atomic_fetch_add(&db->group_flushes, 1);
        if (crash_points) rl_crash_point(RL_CRASH_KV_BEFORE_FLUSH);
        uint64_t t0 = rl_monotonic_ns();
        atomic_fetch_add(&db->gather_ns, t0 - g0);
        rc = db->journal ? rl_journal_sync(db->journal, target, err) : slate_flush(db->slate, err);
        uint64_t took = rl_monotonic_ns() - t0;
        atomic_fetch_add(&db->flush_ns, took);
        if (rc == 0 && crash_points) rl_crash_point(RL_CRASH_KV_AFTER_FLUSH);
        pthread_mutex_lock(&db->durable_mu);
        if (rc == 0 && target > db->durable_seq) {
            db->durable_seq = target;
            db->last_flush_ns = took;
            db->last_group = count - db->durable_count;
            if (count > db->durable_count) count_group(db, count - db->durable_count);
            db->durable_count = count;
            if (db->durable_pinned) kvm_unpin(db->mirror, db->durable_mseq);
            db->durable_pinned = pinned;
            db->durable_mseq = mseq;
            pinned = false; /* handed over */
        }
        if (pinned) kvm_unpin(m, mseq);
        db->flushing = false;
        pthread_cond_broadcast(&db->durable_cv);
    }
    pthread_mutex_unlock(&db->durable_mu);
    return rc < 0 ? -1 : 0;
}

uint64_t kv_group_flushes(kv_db *db) { return atomic_load(&db->group_flushes); }

void kv_group_sizes(kv_db *db, uint64_t out[KV_GROUP_BUCKETS])
{
    for (size_t i = 0; i < KV_GROUP_BUCKETS; i++)
        out[i] = db ? atomic_load(&db->group_sizes[i]) : 0;
}

void kv_group_times_get(kv_db *db, kv_group_times *out)
{
    out->gather_ns = db ? atomic_load(&db->gather_ns) : 0;
    out->flush_ns = db ? atomic_load(&db->flush_ns) : 0;
}

kv_snapshot *kv_snapshot_durable(kv_db *db, uint64_t *seq, kv_error *err)
{
    set_err(err, KV_OK, "");
    if (!db) {
        set_err(err, KV_ERR_INVALID, "kv_db handle is NULL");
        return NULL;
    }
    pthread_mutex_lock(&db->durable_mu);
    bool ok = db->durable_pinned && usable_mirror(db) &&
              kvm_pin_again(db->mirror, db->durable_mseq) == 0;
    uint64_t mseq = db->durable_mseq, d = db->durable_seq;
    pthread_mutex_unlock(&db->durable_mu);
    if (!ok) return NULL; /* no view to give: KV_OK */
    kv_snapshot *snap = calloc(1, sizeof *snap);
    if (!snap) {
        kvm_unpin(db->mirror, mseq);
        set_err(err, KV_ERR_INTERNAL, "out of memory taking a snapshot");
        return NULL;
    }
    snap->db = db;
    snap->seq = mseq;
    if (seq) *seq = d;
    return snap;
}

uint64_t kv_durable_seq(kv_db *db)
{
    pthread_mutex_lock(&db->durable_mu);
    uint64_t d = db->durable_seq;
    pthread_mutex_unlock(&db->durable_mu);
    return d;
}

/* The crash points mark the durability waits of commits (kv_write_wait,
 * kv_wait_durable), not those of kv_write's rare writes (the open's, the
 * lease's), so that a test's <nth> counts commits' flushes only. */
static int wait_durable(kv_db *db, uint64_t seq, bool crash_points, kv_error *err)
{
    assert(seq <= atomic_load(&db->written_seq)); /* only writes numbered so far */
    if (seq == 0) return 0;
    return wait_flushed(db, seq, crash_points, err);
}

int kv_wait_durable(kv_db *db, uint64_t seq, kv_error *err)
{
    if (!db) {
        set_err(err, KV_ERR_INVALID, "kv_db handle is NULL");
        return -1;
    }
    if (wait_durable(db, seq, true, err) < 0) return -1;
    return load_gate(db, seq, err);
}

int kv_write(kv_db *db, const kv_batch *b, kv_error *err)
{
    kv_pending *p = NULL;
    if (write_begin(db, b, false, &p, err) < 0) return -1;
    if (!p) return 0;
    /* Durable by the group commit (the journal's sync, or the WAL flush);
     * with a journal, SlateDB's WAL is flushed now too rather than on its
     * timer: kv.h promises this write is in the object store (followers
     * see it at once), not only in the journal. */
    int rc = wait_durable(db, p->seq, false, err);
    if (rc == 0 && db->journal) rc = slate_flush(db->slate, err);
    return pending_finish(p, rc, err);
}

int kv_flush(kv_db *db, kv_error *err)
{
    if (!db) {
        set_err(err, KV_ERR_INVALID, "kv_db handle is NULL");
        return -1;
    }
    uint64_t seq = atomic_load(&db->written_seq);
    if (seq > 0)
        return kv_wait_durable(db, seq, err);
    /* nothing numbered yet (no commit since open): SlateDB's WAL as is */
    return db->journal ? 0 : slate_flush(db->slate, err);
}

int kv_flush_memtable_async(kv_db *db, kv_error *err)
{
    if (!db) {
        set_err(err, KV_ERR_INVALID, "kv_db handle is NULL");
        return -1;
    }
    return slate_flush_memtable_async(db->slate, err);
}

int kv_checkpoint_create(kv_db *db, uint64_t lifetime_ms, kv_checkpoint *out, kv_error *err)
{
    if (!db) {
        set_err(err, KV_ERR_INVALID, "kv_db handle is NULL");
        return -1;
    }
    /* A checkpoint covers what SlateDB holds durably; with a journal that
     * may lag the last commits, so flush them into SlateDB first. */
    if (db->journal && slate_flush(db->slate, err) < 0) return -1;
    return slate_checkpoint_create(db->slate, lifetime_ms, out, err);
}

void kv_counters_get(kv_counters *out)
{
    if (!out) return;
    slate_counters_get(out);
    out->gets += atomic_load(&mirror_gets);
    out->gets -= atomic_load(&own_gets);
    out->scans += atomic_load(&mirror_scans) - atomic_load(&load_scans);
    out->keys_read += atomic_load(&mirror_keys) - atomic_load(&load_keys);
    out->keys_read -= atomic_load(&own_keys);
    out->bytes_written -= atomic_load(&own_bytes_written);
}
