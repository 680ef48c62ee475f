/*
 * catalog.c — catalog open/create, transactions, rows, counters, audit (see
 * catalog.h for the contract).
 *
 * How a transaction works: reads go to a kv snapshot taken at begin, overlaid
 * with the transaction's own buffered writes (a sorted array of key -> value
 * or tombstone). Every write also records an "expectation" about the latest
 * committed state (this key is still absent / still has the value I read).
 * Commit takes the catalog lock, checks every expectation against the latest
 * state, then turns the overlay plus counters plus one audit row into a
 * single kv_write. The lock makes check-then-write atomic with respect to
 * other commits of this process; kv fencing covers other processes.
 *
 * Tables without a PostgreSQL PRIMARY KEY keep duplicate rows: an INSERT
 * whose natural key is taken writes at key | discriminator, and one at a
 * free natural key records EXPECT_SLOT_FREE, which at commit, if another
 * commit took the key meanwhile, moves the row there instead of failing
 * (keys.h, docs/key-layout.md decision (i)).
 *
 * Validation is mostly in memory: the catalog keeps the keys written by
 * its last COMMIT_LOG_SIZE commits, each under its write number. A
 * transaction remembers the last write number before its snapshot, so an
 * expectation on a key that no later commit wrote holds without a store
 * read; only keys some later commit did write (or a gap in the log) are
 * checked against the store. That keeps the lock short: the commit lock is
 * what every committer queues on.
 *
 * Counters live in memory once loaded (one writer per store, so memory is the
 * truth); a commit writes the counters it touched, in the same batch as the
 * rows they number.
 */
#include "catalog/catalog.h"

#include <assert.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/crashpoint.h"
#include "keys/keys.h"
#include "catalog/lease.h"
#include "pgtype/pgtype.h"
#include "catalog/sequence.h"
#include "keys/tags.h"

/* ---------------------------------------------------------------- catalog */

typedef struct counter {
    char name[64];
    uint64_t value;
} counter;

/* Keys one commit wrote: `blob` holds, per key, a u32 length (host order)
 * then the bytes. */
typedef struct commit_log_entry {
    uint64_t seq; /* write number; 0 = empty slot */
    uint8_t *blob;
    size_t len;
} commit_log_entry;

#define COMMIT_LOG_SIZE 256

/* Every this many commits the memtable goes to an L0 table in the
 * background. SlateDB flushes it on its own only at 64 MiB, tens of
 * thousands of commits, and until then keeps every WAL object since the
 * last flush: an open after a crash replays them all (one GET each on S3)
 * and the WAL directory grows by one file per group commit. A writer that
 * reads SlateDB (no in-memory mirror, see kv.c) gains twice: DuckLake
 * rewrites some rows on every commit (table stats, changed column stats),
 * the memtable keeps each version and every scan of the table steps over
 * all of them (~1 us per commit without this); the flush keeps one version
 * per key. More often made scans slower in trials (more L0 tables per scan,
 * more compaction). */
#define MEMTABLE_FLUSH_EVERY 256

/* Table-name lookups (index 80 03) cached across transactions. Every
 * statement resolves its relation by name, and that was a store read per
 * statement. An entry is filled from a snapshot taken at name generation G
 * (the count of commits that changed any name) and serves exactly the
 * transactions whose snapshots are at G: they see the same names. */
#define NAME_CACHE_SIZE 256
typedef struct name_cache_entry {
    uint64_t gen;  /* 0 = empty */
    uint64_t hash;
    char schema[64], name[128];
    int rc;        /* name_lookup's result: 1 found, 0 absent */
    uint8_t tag;
    uint64_t dyn_id;
} name_cache_entry;
/* Past this many commits since a snapshot the log scan stops paying off. */
#define COMMIT_LOG_MAX_SCAN 128

typedef struct dyn_entry {
    rl_table_desc *desc;
    char schema[128];
} dyn_entry;

struct rl_catalog {
    kv_db *kv;
    rl_lease *lease; /* writers: the heartbeat of the writer lease */
    bool read_only;
    rl_format fmt;
    uint64_t epoch;
    pthread_mutex_t lock; /* counters, dynamic cache, commit serialization */
    /* Group commit: writes are numbered as they reach the memtable; one
     * committer at a time flushes the WAL for everything written so far,
     * and the others wait for a flush that covers their number. */
    pthread_mutex_t flush_lock;
    pthread_cond_t flush_done;
    bool flushing;
    uint64_t written_seq; /* last write numbered (under `lock`) */
    uint64_t durable_seq; /* every write <= this is durable (under flush_lock) */
    commit_log_entry log[COMMIT_LOG_SIZE]; /* by seq % size (under `lock`) */
    uint64_t name_gen;    /* 1 + commits that wrote a name index key (under `lock`) */
    pthread_mutex_t name_lock;
    name_cache_entry names[NAME_CACHE_SIZE]; /* under name_lock */
    counter *counters;
    size_t ncounters, capcounters;
    dyn_entry *dyns;
    size_t ndyns, capdyns;
    uint32_t *dyn_slots;  /* dyn_id -> index + 1 of dyns, open addressing */
    size_t dyn_nslots;    /* 0, or a power of two >= 2 * ndyns */
    /* Writers of an object store: a write or a wait for durability failed
     * with an I/O error (the store failing, refusing or too slow, see
     * kv_options.store_timeout_ms). SlateDB's writer is unusable after a
     * failed WAL write, and the memtable (and in-memory copy) hold a
     * commit that was reported as failed, so nothing is served from this
     * handle any more: every transaction fails with 58030 until the owner
     * reopens the store (rl_catalog_failed). `failed_why` is written once,
     * by whoever wins `failed_claim`, before `failed` is set. */
    bool object_store;
    atomic_flag failed_claim;
    atomic_bool failed;
    char failed_why[sizeof(((kv_error *)0)->message)];
    /* Commit sequencing (sequence.h): on for this writer, and its metrics. */
    bool sequence_commits;
    _Atomic uint64_t seq_rebased, seq_distance, seq_ns;
    _Atomic uint64_t seq_fallbacks[RL_SEQ_NREASONS];
};

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

static int kv_fail(rl_error *err, const kv_error *ke, const char *what)
{
    if (ke->kind == KV_ERR_FENCED) {
        rl_error_set(err, RL_SQLSTATE_READ_ONLY_TRANSACTION,
                     "this RockLake writer was fenced by a newer writer of the same "
                     "store (%s); nothing was written — reconnect to the current writer",
                     ke->message);
        if (err)
            err->cause = RL_CAUSE_WRITER_FENCED; /* the server logs writer_fenced on it */
        return -1;
    }
    const char *state = ke->kind == KV_ERR_CORRUPT ? RL_SQLSTATE_DATA_CORRUPTED
                        : ke->kind == KV_ERR_IO    ? RL_SQLSTATE_IO
                                                   : RL_SQLSTATE_INTERNAL;
    return rl_error_set(err, state, "%s: %s (%s)", what, ke->message,
                        kv_error_kind_name(ke->kind));
}

/* A writer's write path saw `ke`: on an object store an I/O error leaves
 * the handle unusable (see rl_catalog.failed). */
static void note_store_failure(rl_catalog *cat, const kv_error *ke)
{
    if (cat->read_only || !cat->object_store || ke->kind != KV_ERR_IO)
        return;
    if (atomic_flag_test_and_set(&cat->failed_claim))
        return;
    memcpy(cat->failed_why, ke->message, sizeof cat->failed_why);
    cat->failed_why[sizeof cat->failed_why - 1] = 0;
    atomic_store(&cat->failed, true);
}

static int store_failed_error(rl_catalog *cat, rl_error *err)
{
    rl_error_set(err, RL_SQLSTATE_IO,
                 "this lake is unavailable: a write to its object store failed (%s); the "
                 "commits that were not acknowledged may or may not be in the store",
                 cat->failed_why);
    rl_error_hint(err, "Reconnect once the object store is reachable again: the server reopens "
                       "the lake from the store on the next connection.");
    return -1;
}

bool rl_catalog_failed(rl_catalog *cat) { return cat && atomic_load(&cat->failed); }

int rl_catalog_shutdown(rl_catalog *cat, rl_error *err)
{
    /* the heartbeat writes through kv: stop it first (nothing deleted:
     * the writer that reopens the store takes the lease over) */
    pthread_mutex_lock(&cat->lock);
    rl_lease *l = cat->lease;
    cat->lease = NULL;
    pthread_mutex_unlock(&cat->lock);
    rl_lease_stop(l, false);
    kv_error ke;
    if (kv_shutdown(cat->kv, &ke) < 0)
        return rl_error_set(err, RL_SQLSTATE_IO, "the object store is still unavailable (%s)",
                            ke.message);
    return 0;
}

/* Key k's value (k freed here) in the store as it is now (snap NULL) or at
 * snapshot snap, malloc'd into *v: 1 present, 0 absent, -1 with err set
 * (kv_fail's words after `what`). */
static int store_get(kv_db *kv, kv_snapshot *snap, rl_buf *k, uint8_t **v, size_t *vlen,
                     const char *what, rl_error *err)
{
    kv_error ke;
    int rc = kv_get(kv, snap, k->data, k->len, v, vlen, &ke);
    rl_buf_free(k);
    return rc < 0 ? kv_fail(err, &ke, what) : rc;
}

/* System key `name`'s value (malloc'd into *v): 1 present, 0 absent, -1. */
static int get_system(kv_db *kv, const char *name, uint8_t **v, size_t *vlen, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_system(&k, name);
    char what[96];
    snprintf(what, sizeof what, "reading system key %s", name);
    return store_get(kv, NULL, &k, v, vlen, what, err);
}

static int get_system_u64(kv_db *kv, const char *name, uint64_t *out, bool *found, rl_error *err)
{
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = get_system(kv, name, &v, &vlen, err);
    if (rc < 0)
        return -1;
    *found = rc == 1;
    if (rc == 1) {
        if (vlen != 8) {
            free(v);
            return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                                "system key \"%s\" has a %zu-byte value, expected 8", name, vlen);
        }
        *out = rl_load_be64(v);
    }
    free(v);
    return 0;
}

/* Put (value not NULL) or delete system key `name` in b. */
static void batch_set_system(kv_batch *b, const char *name, const void *value, size_t len)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_system(&k, name);
    if (value)
        kv_batch_put(b, k.data, k.len, value, len);
    else
        kv_batch_delete(b, k.data, k.len);
    rl_buf_free(&k);
}

static void batch_put_system_u64(kv_batch *b, const char *name, uint64_t v)
{
    uint8_t val[8];
    rl_store_be64(val, v);
    batch_set_system(b, name, val, 8);
}

static int64_t now_pg_micros(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    /* PostgreSQL's epoch is 2000-01-01, 946684800 s after the Unix epoch. */
    return ((int64_t)ts.tv_sec - 946684800LL) * 1000000LL + ts.tv_nsec / 1000;
}

static int create_catalog(rl_catalog *cat, rl_format fmt, const char *copy_marker,
                          rl_error *err)
{
    kv_batch *b = kv_batch_new();
    if (copy_marker)
        batch_set_system(b, RL_SYS_COPY_INCOMPLETE, copy_marker, strlen(copy_marker));
    batch_put_system_u64(b, RL_SYS_FORMAT_VERSION, RL_STORAGE_FORMAT_VERSION);
    batch_put_system_u64(b, RL_SYS_RETAIN_FROM, 0);
    batch_put_system_u64(b, RL_SYS_CREATED_AT, (uint64_t)now_pg_micros());
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_system(&k, RL_SYS_DUCKLAKE_FORMAT);
    const char *f = rl_format_name(fmt);
    kv_batch_put(b, k.data, k.len, (const uint8_t *)f, strlen(f));
    rl_buf_free(&k);
    kv_error ke;
    int rc = kv_write(cat->kv, b, &ke);
    kv_batch_free(b);
    if (rc < 0)
        return kv_fail(err, &ke, "creating catalog");
    rl_crash_point(RL_CRASH_CATALOG_CREATED);
    return 0;
}

/* The ducklake-format system key as the store holds it now (snap NULL) or
 * at snapshot `snap`. */
static int load_format(rl_catalog *cat, kv_snapshot *snap, rl_format *out, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_system(&k, RL_SYS_DUCKLAKE_FORMAT);
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = store_get(cat->kv, snap, &k, &v, &vlen, "reading ducklake-format", err);
    if (rc < 0)
        return -1;
    char name[16] = "1.0";
    if (rc == 1)
        snprintf(name, sizeof name, "%.*s", (int)(vlen < 15 ? vlen : 15), (const char *)v);
    free(v);
    *out = rl_format_parse(name);
    if (!*out)
        return rl_error_set(err, RL_SQLSTATE_OBJECT_STATE,
                            "catalog uses DuckLake format \"%s\", which this RockLake does not know",
                            name);
    return 0;
}

static int read_format(rl_catalog *cat, rl_error *err) { return load_format(cat, NULL, &cat->fmt, err); }

/* Check the layout version, creating the catalog if allowed. */
static int check_or_create(rl_catalog *cat, const rl_catalog_options *o, const char *url,
                           rl_error *err)
{
    uint64_t ver = 0;
    bool found = false;
    if (get_system_u64(cat->kv, RL_SYS_FORMAT_VERSION, &ver, &found, err) < 0)
        return -1;
    if (!found) {
        if (!o->create_if_missing || o->read_only || o->kv.journal_salvage) {
            rl_error_set(err, RL_SQLSTATE_OBJECT_STATE, "no RockLake catalog in store \"%s\"", url);
            if (err)
                err->cause = RL_CAUSE_NO_CATALOG; /* the server may create it (auto-create) */
            rl_error_hint(err, "create one with `rocklake create %s` or open it as a writer "
                               "with creation enabled", url);
            return -1;
        }
        rl_format fmt = o->format ? o->format : RL_FMT_1_0;
        if (create_catalog(cat, fmt, o->create_copy_marker, err) < 0)
            return -1;
        cat->fmt = fmt;
        return 0;
    }
    if (ver > RL_STORAGE_FORMAT_VERSION) {
        rl_error_set(err, RL_SQLSTATE_OBJECT_STATE,
                     "catalog in \"%s\" has catalog-format-version %" PRIu64
                     ", newer than this RockLake supports (%d)",
                     url, ver, RL_STORAGE_FORMAT_VERSION);
        rl_error_hint(err, "upgrade RockLake to a release that reads format %" PRIu64, ver);
        return -1;
    }
    if (ver < RL_STORAGE_FORMAT_VERSION) {
        /* format 1 (development builds before 0.1) framed every value with
         * two more bytes; nothing reads it any more */
        rl_error_set(err, RL_SQLSTATE_OBJECT_STATE,
                     "catalog in \"%s\" has catalog-format-version %" PRIu64
                     ", written by a development build; this RockLake reads format %d",
                     url, ver, RL_STORAGE_FORMAT_VERSION);
        rl_error_hint(err, "re-create the catalog (DuckLake's metadata can be copied over with "
                           "COPY through the wire protocol)");
        return -1;
    }
    return read_format(cat, err);
}

/* The marker's text at `kv`, as rl_catalog_copy_marker_get. */
static int copy_marker_read(kv_db *kv, char *out, size_t cap, rl_error *err)
{
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = get_system(kv, RL_SYS_COPY_INCOMPLETE, &v, &vlen, err);
    if (rc == 1 && cap)
        snprintf(out, cap, "%.*s", (int)(vlen < cap ? vlen : cap - 1), (const char *)v);
    free(v);
    return rc;
}

/* A store holding the marker is a copy that did not finish: serving or
 * writing it would pass off part of a lake as the whole. */
static int refuse_incomplete_copy(rl_catalog *cat, const char *url, rl_error *err)
{
    char text[512] = "";
    int rc = copy_marker_read(cat->kv, text, sizeof text, err);
    if (rc <= 0)
        return rc;
    /* the text names the copy: "an unfinished import from postgres ..." */
    rl_error_set(err, RL_SQLSTATE_OBJECT_STATE, "store \"%s\" holds an unfinished %s", url, text);
    rl_error_hint(err, "the copy stopped before its last write, so this lake is incomplete: "
                       "delete it (`rocklake db drop ROOT NAME`, or remove the store) and run "
                       "that `rocklake import`, `backup` or `restore` again");
    return -1;
}

int rl_catalog_copy_marker_get(rl_catalog *cat, char *out, size_t cap, rl_error *err)
{
    return copy_marker_read(cat->kv, out, cap, err);
}

static int copy_marker_write(rl_catalog *cat, const char *text, rl_error *err)
{
    if (cat->read_only)
        return rl_error_set(err, RL_SQLSTATE_READ_ONLY_TRANSACTION, "the copy marker needs a writer");
    kv_batch *b = kv_batch_new();
    batch_set_system(b, RL_SYS_COPY_INCOMPLETE, text, text ? strlen(text) : 0);
    kv_error ke;
    int rc = kv_write(cat->kv, b, &ke);
    kv_batch_free(b);
    return rc < 0 ? kv_fail(err, &ke, "writing copy-incomplete") : 0;
}

int rl_catalog_copy_marker_set(rl_catalog *cat, const char *text, rl_error *err)
{
    return copy_marker_write(cat, text, err);
}

int rl_catalog_copy_marker_clear(rl_catalog *cat, rl_error *err)
{
    return copy_marker_write(cat, NULL, err);
}

int rl_catalog_exists(const char *url, uint32_t store_timeout_ms, rl_error *err)
{
    kv_error ke;
    kv_options ko = {.reader_no_writes = 1, .mirror_max_bytes = -1,
                     .store_timeout_ms = store_timeout_ms};
    kv_db *kv = kv_open_reader(url, &ko, &ke);
    if (!kv)
        return kv_error_is_no_store(&ke) ? 0 : kv_fail(err, &ke, "looking for a catalog");
    bool found = false;
    uint64_t ver = 0;
    int rc = get_system_u64(kv, RL_SYS_FORMAT_VERSION, &ver, &found, err);
    kv_close(kv, NULL);
    return rc < 0 ? -1 : found ? 1 : 0;
}

static int bump_writer_epoch(rl_catalog *cat, rl_error *err)
{
    uint64_t epoch = 0;
    bool found = false;
    if (get_system_u64(cat->kv, RL_SYS_WRITER_EPOCH, &epoch, &found, err) < 0)
        return -1;
    cat->epoch = epoch + 1;
    kv_batch *b = kv_batch_new();
    batch_put_system_u64(b, RL_SYS_WRITER_EPOCH, cat->epoch);
    kv_error ke;
    int rc = kv_write(cat->kv, b, &ke);
    kv_batch_free(b);
    return rc < 0 ? kv_fail(err, &ke, "recording writer epoch") : 0;
}

rl_catalog *rl_catalog_open(const char *url, const rl_catalog_options *opts, rl_error *err)
{
    rl_catalog_options defaults = {0};
    const rl_catalog_options *o = opts ? opts : &defaults;
    rl_catalog *cat = calloc(1, sizeof *cat);
    if (!cat) {
        rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&cat->lock, NULL);
    pthread_mutex_init(&cat->name_lock, NULL);
    cat->name_gen = 1;
    pthread_mutex_init(&cat->flush_lock, NULL);
    pthread_cond_init(&cat->flush_done, NULL);
    atomic_flag_clear(&cat->failed_claim);
    atomic_init(&cat->failed, false);
    char *local = kv_local_dir(url);
    cat->object_store = !local;
    free(local);
    /* a writer open that salvaged a journal serves what it recovered, read-only */
    cat->read_only = o->read_only || o->kv.journal_salvage;
    cat->sequence_commits = o->sequence_commits && !cat->read_only;
    kv_error ke;
    if (!o->read_only && !o->takeover) {
        /* before opening as writer, which would fence a running one */
        rl_lease_owner held;
        int rc = rl_lease_read(url, &o->kv, &held, err);
        if (rc < 0)
            goto fail;
        int64_t age;
        if (rc == 1 && rl_lease_live(&held, rl_lease_now_ms(), &age)) {
            rl_lease_refuse(err, url, &held, age);
            goto fail;
        }
    }
    cat->kv = o->read_only ? kv_open_reader(url, &o->kv, &ke) : kv_open_writer(url, &o->kv, &ke);
    if (!cat->kv) {
        kv_fail(err, &ke, "opening store");
        rl_error_hint(err, "check the store URL (file:///path, a plain path, memory://name or "
                           "s3://bucket/prefix) and, for S3, the AWS_* environment variables");
        goto fail;
    }
    if (check_or_create(cat, o, url, err) < 0)
        goto fail;
    if (!o->allow_incomplete_copy && refuse_incomplete_copy(cat, url, err) < 0)
        goto fail;
    if (!cat->read_only && bump_writer_epoch(cat, err) < 0)
        goto fail;
    if (!cat->read_only) {
        rl_lease_owner me = {.epoch = cat->epoch, .pid = (int64_t)getpid(),
                             .started_ms = rl_lease_now_ms(), .lease_ms = o->lease_ms};
        if (gethostname(me.host, sizeof me.host) != 0 || !me.host[0])
            snprintf(me.host, sizeof me.host, "-");
        me.host[sizeof me.host - 1] = 0;
        rl_str_copy(me.listen, sizeof me.listen, o->lease_listen ? o->lease_listen : "-");
        if (!(cat->lease = rl_lease_start(cat->kv, &me, err)))
            goto fail;
    }
    if (cat->read_only) {
        uint64_t e = 0;
        bool found;
        if (get_system_u64(cat->kv, RL_SYS_WRITER_EPOCH, &e, &found, err) < 0)
            goto fail;
        cat->epoch = e;
    }
    return cat;
fail:
    rl_catalog_close(cat, NULL);
    return NULL;
}

int rl_catalog_close(rl_catalog *cat, rl_error *err)
{
    if (!cat)
        return 0;
    int rc = 0;
    rl_lease_stop(cat->lease, true);
    if (cat->kv) {
        kv_error ke;
        if (kv_close(cat->kv, &ke) < 0)
            rc = kv_fail(err, &ke, "closing store");
    }
    for (size_t i = 0; i < cat->ndyns; i++)
        rl_dynamic_desc_free(cat->dyns[i].desc);
    free(cat->dyns);
    free(cat->dyn_slots);
    free(cat->counters);
    for (size_t i = 0; i < COMMIT_LOG_SIZE; i++)
        free(cat->log[i].blob);
    pthread_mutex_destroy(&cat->lock);
    pthread_mutex_destroy(&cat->name_lock);
    pthread_mutex_destroy(&cat->flush_lock);
    pthread_cond_destroy(&cat->flush_done);
    free(cat);
    return rc;
}

rl_format rl_catalog_format(const rl_catalog *cat) { return cat->fmt; }
uint64_t rl_catalog_writer_epoch(const rl_catalog *cat) { return cat->epoch; }
bool rl_catalog_read_only(const rl_catalog *cat) { return cat->read_only; }
kv_db *rl_catalog_kv(rl_catalog *cat) { return cat->kv; }
uint64_t rl_catalog_size_bytes(rl_catalog *cat) { return kv_size_bytes(cat->kv); }

/* Find or load a counter; caller holds cat->lock. NULL on store error. */
static counter *counter_locked(rl_catalog *cat, const char *name, rl_error *err)
{
    for (size_t i = 0; i < cat->ncounters; i++)
        if (strcmp(cat->counters[i].name, name) == 0)
            return &cat->counters[i];
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_counter(&k, name);
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = store_get(cat->kv, NULL, &k, &v, &vlen, "reading counter", err);
    if (rc < 0)
        return NULL;
    uint64_t value = rc == 1 && vlen == 8 ? rl_load_be64(v) : 0;
    free(v);
    counter *grown = rl_array_reserve(cat->counters, cat->ncounters, &cat->capcounters,
                                      sizeof *grown, 16);
    if (!grown) {
        rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
        return NULL;
    }
    cat->counters = grown;
    counter *c = &cat->counters[cat->ncounters++];
    rl_str_copy(c->name, sizeof c->name, name);
    c->value = value;
    return c;
}

uint64_t rl_catalog_counter(rl_catalog *cat, const char *name)
{
    if (cat->read_only) {
        /* the writer moves a follower's counters: never cache them */
        rl_buf k;
        rl_buf_init(&k, 0);
        rl_key_counter(&k, name);
        uint8_t *v = NULL;
        size_t vlen = 0;
        int rc = kv_get(cat->kv, NULL, k.data, k.len, &v, &vlen, NULL);
        rl_buf_free(&k);
        uint64_t value = rc == 1 && vlen == 8 ? rl_load_be64(v) : 0;
        free(v);
        return value;
    }
    pthread_mutex_lock(&cat->lock);
    counter *c = counter_locked(cat, name, NULL);
    uint64_t v = c ? c->value : 0;
    pthread_mutex_unlock(&cat->lock);
    return v;
}

uint64_t rl_catalog_next_snapshot_id(rl_catalog *cat)
{
    return rl_catalog_counter(cat, RL_COUNTER_NEXT_SNAPSHOT_ID);
}

/* Take the next number from counter `name`; caller holds cat->lock. */
static int alloc_seq_locked(rl_catalog *cat, const char *name, uint64_t *out, rl_error *err)
{
    counter *c = counter_locked(cat, name, err);
    if (c)
        *out = c->value++;
    return c ? 0 : -1;
}

/* Take the next row sequence number from counter `name`. */
static int alloc_seq(rl_catalog *cat, const char *name, uint64_t *out, rl_error *err)
{
    pthread_mutex_lock(&cat->lock);
    int rc = alloc_seq_locked(cat, name, out, err);
    pthread_mutex_unlock(&cat->lock);
    return rc;
}

/* forward: struct rl_txn is defined below */
static int txn_alloc_seq(rl_txn *t, const char *name, uint64_t *out, rl_error *err);

/* ---------------------------------------------------------------- overlay */

typedef struct pending {
    uint8_t *key;
    size_t klen;
    uint8_t *val; /* NULL = tombstone */
    size_t vlen;
} pending;

typedef enum expect_kind {
    EXPECT_KEY_ABSENT,    /* nobody committed this key since our snapshot */
    EXPECT_PREFIX_ABSENT, /* nobody committed any key with this prefix */
    EXPECT_VALUE,         /* the key still holds what we read (or is still absent) */
    EXPECT_SLOT_FREE      /* a row placed at its natural key in a table that keeps
                           * duplicates: if a commit took the key since, the row
                           * moves to key | dup at commit (no error) */
} expect_kind;

typedef struct expectation {
    expect_kind kind;
    uint8_t *key;
    size_t klen;
    uint8_t *val; /* EXPECT_VALUE: what we read; NULL = absent */
    size_t vlen;
    char constraint[128]; /* for 23505 text */
    char detail[256];
} expectation;

typedef struct touched_counter {
    char name[64];
    uint64_t at_least; /* the counter must be >= this after commit */
} touched_counter;

struct rl_txn {
    rl_catalog *cat;
    kv_snapshot *snap;
    uint64_t snap_seq; /* cat->written_seq when the snapshot was taken (under the lock) */
    uint64_t name_gen; /* cat->name_gen then */
    bool wrote_names;  /* the overlay has a name index key: bypass the name cache */
    pending *ov;
    size_t nov, capov;
    expectation *ex;
    size_t nex, capex;
    touched_counter *tc;
    size_t ntc, captc;
    char user[64], app[64], client[64];
    uint64_t statements;
    uint64_t max_snapshot_inserted;
    bool inserted_snapshot;
    bool done;
    /* Commit sequencing (sequence.h). With it on, every row write is also
     * kept as a logical write (seqw, strings in seq_arena), so that a
     * commit that lost the race for its snapshot id can be replayed onto
     * the latest state. A write that is none of insert/update/delete of a
     * row (DDL, a dynamic table, a format change) makes the transaction
     * `seq_foreign`: never rebased. */
    bool seq;
    int seq_depth;      /* inside rl_txn_insert/update/delete */
    bool seq_foreign;
    rl_seq_write *seqw;
    size_t nseqw, capseqw;
    rl_arena seq_arena;
    bool locked;        /* the replay runs under cat->lock: take counters without it */
    bool snap_borrowed; /* a reader sharing another transaction's snapshot */
    uint64_t rel_version; /* rl_txn_relations_version: unique in the process */
    bool rebased;       /* for the audit: what the rebase moved */
    uint64_t claimed_sid, base_sid;
    char id_map[512];
    /* The value columns of the descriptor decoded last: scans decode row
     * after row of one table, and working them out walks the key fields. */
    rl_format fmt;     /* table shapes this transaction sees (rl_txn_set_format) */
    bool fmt_changed;  /* ... written by this transaction: the catalog's at commit */
    uint64_t lagging;  /* tags (bit) still in lag_fmt's shape: a migration in progress */
    rl_format lag_fmt;
    const rl_table_desc *vc_desc;
    size_t vc_n;
    rl_type vc_types[RL_MAX_COLUMNS];
    int vc_cols[RL_MAX_COLUMNS];
    /* storage for rl_txn_get results */
    rl_row get_row;
    uint8_t *get_val;
    rl_buf get_key, get_arena;
};

static int oom(rl_error *err) { return rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory"); }

static int txn_alloc_seq(rl_txn *t, const char *name, uint64_t *out, rl_error *err)
{
    return t->locked ? alloc_seq_locked(t->cat, name, out, err)
                     : alloc_seq(t->cat, name, out, err);
}

/* Index of the first overlay entry with key >= k. */
static size_t ov_lower_bound(const rl_txn *t, const uint8_t *k, size_t kl)
{
    size_t lo = 0, hi = t->nov;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rl_bytes_cmp(t->ov[mid].key, t->ov[mid].klen, k, kl) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static pending *ov_find(rl_txn *t, const uint8_t *k, size_t kl)
{
    size_t i = ov_lower_bound(t, k, kl);
    if (i < t->nov && rl_bytes_cmp(t->ov[i].key, t->ov[i].klen, k, kl) == 0)
        return &t->ov[i];
    return NULL;
}

static uint8_t *dup_bytes(const uint8_t *p, size_t n)
{
    uint8_t *d = malloc(n ? n : 1);
    if (d && n)
        memcpy(d, p, n);
    return d;
}

/* Put (val != NULL) or tombstone (val == NULL) in the overlay. */
static int ov_set(rl_txn *t, const uint8_t *k, size_t kl, const uint8_t *val, size_t vlen,
                  rl_error *err)
{
    uint8_t *v = NULL;
    if (val && !(v = dup_bytes(val, vlen)))
        return oom(err);
    if (kl >= 2 && k[0] == RL_TAG_INDEX && k[1] == RL_INDEX_DYNAMIC_NAME)
        t->wrote_names = true;
    if (t->seq && t->seq_depth == 0)
        t->seq_foreign = true; /* not a row write sequencing can replay */
    size_t i = ov_lower_bound(t, k, kl);
    if (i < t->nov && rl_bytes_cmp(t->ov[i].key, t->ov[i].klen, k, kl) == 0) {
        free(t->ov[i].val);
        t->ov[i].val = v;
        t->ov[i].vlen = vlen;
        return 0;
    }
    pending *grown = rl_array_reserve(t->ov, t->nov, &t->capov, sizeof *grown, 64);
    if (!grown) {
        free(v);
        return oom(err);
    }
    t->ov = grown;
    uint8_t *kd = dup_bytes(k, kl);
    if (!kd) {
        free(v);
        return oom(err);
    }
    memmove(&t->ov[i + 1], &t->ov[i], (t->nov - i) * sizeof *t->ov);
    t->ov[i] = (pending){kd, kl, v, vlen};
    t->nov++;
    return 0;
}

/* Take entry i out of the overlay; its bytes are the caller's to free. */
static pending ov_take(rl_txn *t, size_t i)
{
    pending p = t->ov[i];
    memmove(&t->ov[i], &t->ov[i + 1], (t->nov - i - 1) * sizeof *t->ov);
    t->nov--;
    return p;
}

static int add_expectation(rl_txn *t, expect_kind kind, const uint8_t *k, size_t kl,
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

static int touch_counter(rl_txn *t, const char *name, uint64_t at_least, rl_error *err)
{
    for (size_t i = 0; i < t->ntc; i++) {
        if (strcmp(t->tc[i].name, name) == 0) {
            if (at_least > t->tc[i].at_least)
                t->tc[i].at_least = at_least;
            return 0;
        }
    }
    touched_counter *grown = rl_array_reserve(t->tc, t->ntc, &t->captc, sizeof *grown, 8);
    if (!grown)
        return oom(err);
    t->tc = grown;
    rl_str_copy(t->tc[t->ntc].name, sizeof t->tc[t->ntc].name, name);
    t->tc[t->ntc].at_least = at_least;
    t->ntc++;
    return 0;
}

/* -------------------------------------------------------- transaction core */

static int group_flush(rl_catalog *cat, uint64_t seq, const char *doing, rl_error *err);

/* A new relations version for t (see rl_txn_relations_version): drawn from
 * one counter for the whole process, so no two transactions, and no two
 * states of one, ever share a value. */
static atomic_uint_fast64_t relations_versions;

static void relations_changed(rl_txn *t)
{
    t->rel_version = atomic_fetch_add(&relations_versions, 1) + 1;
}

uint64_t rl_txn_relations_version(const rl_txn *t) { return t->rel_version; }

rl_txn *rl_txn_begin(rl_catalog *cat, rl_error *err)
{
    if (atomic_load(&cat->failed)) {
        store_failed_error(cat, err);
        return NULL;
    }
    rl_txn *t = calloc(1, sizeof *t);
    if (!t) {
        oom(err);
        return NULL;
    }
    t->cat = cat;
    relations_changed(t);
    rl_buf_init(&t->get_key, 0);
    rl_buf_init(&t->get_arena, 0);
    if (cat->read_only) {
        /* A follower's snapshot is a pinned view of the store (kv.h): the
         * whole transaction reads the state the store had at its first
         * statement, as on the writer, and learns of the writer's format
         * migration from that state. */
        kv_error ke;
        t->snap = kv_snapshot_new(cat->kv, &ke);
        if (!t->snap) {
            kv_fail(err, &ke, "taking a read snapshot");
            free(t);
            return NULL;
        }
        if (load_format(cat, t->snap, &t->fmt, err) < 0) {
            kv_snapshot_free(t->snap);
            free(t);
            return NULL;
        }
    } else {
        /* under the commit lock, so the snapshot holds exactly the commits
         * numbered up to snap_seq and the names of generation name_gen
         * (commits reach the memtable under this lock) */
        kv_error ke;
        pthread_mutex_lock(&cat->lock);
        t->snap_seq = cat->written_seq;
        t->name_gen = cat->name_gen;
        t->fmt = cat->fmt; /* set with the commit that wrote it, under this lock */
        t->snap = kv_snapshot_new(cat->kv, &ke);
        pthread_mutex_unlock(&cat->lock);
        if (!t->snap) {
            kv_fail(err, &ke, "taking a read snapshot");
            free(t);
            return NULL;
        }
        t->seq = cat->sequence_commits;
        /* A commit is in the memtable (so in this snapshot) before it is
         * durable. Reading it now could show a client a commit that a
         * power loss then takes back, so wait for the flush that covers
         * it, as PostgreSQL only shows a commit once its WAL is flushed.
         * Nothing is waited for when no commit is in flight. */
        if (group_flush(cat, t->snap_seq, "waiting for an earlier commit to become durable",
                        err) < 0) {
            kv_snapshot_free(t->snap);
            free(t);
            return NULL;
        }
    }
    return t;
}

uint64_t rl_txn_snapshot_seq(const rl_txn *t) { return t->snap_seq; }

uint64_t rl_catalog_durable_seq(rl_catalog *cat)
{
    pthread_mutex_lock(&cat->flush_lock);
    uint64_t d = cat->durable_seq;
    pthread_mutex_unlock(&cat->flush_lock);
    return d;
}

static void free_buffered_writes(rl_txn *t);

void rl_txn_free(rl_txn *t)
{
    if (!t)
        return;
    free_buffered_writes(t);
    free(t->ov);
    free(t->ex);
    free(t->tc);
    free(t->get_val);
    rl_buf_free(&t->get_key);
    rl_buf_free(&t->get_arena);
    if (!t->snap_borrowed)
        kv_snapshot_free(t->snap);
    free(t->seqw);
    rl_arena_free(&t->seq_arena);
    free(t);
}

void rl_txn_set_audit(rl_txn *t, const char *user, const char *application,
                      const char *client_addr)
{
    rl_str_copy(t->user, sizeof t->user, user ? user : "");
    rl_str_copy(t->app, sizeof t->app, application ? application : "");
    rl_str_copy(t->client, sizeof t->client, client_addr ? client_addr : "");
}

void rl_txn_count_statement(rl_txn *t) { t->statements++; }
size_t rl_txn_pending(const rl_txn *t) { return t->nov; }

/* Read a key in the transaction's view. 1 found (value malloc'd into *val
 * when val != NULL), 0 absent, -1 error. */
static int view_get(rl_txn *t, const uint8_t *k, size_t kl, uint8_t **val, size_t *vlen,
                    rl_error *err)
{
    pending *p = ov_find(t, k, kl);
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
    return rc < 0 ? kv_fail(err, &ke, "reading") : rc;
}

/* Does the key exist for a uniqueness check: our overlay decides if it has
 * the key; otherwise the snapshot or anything committed since counts.
 * With commit sequencing on, only the transaction's own view counts: a key
 * a concurrent commit took is decided at COMMIT, where a DuckLake append
 * that lost the race is rebased instead of failed (sequence.h; the
 * expectation each probe is followed by still fails any other such race
 * there with the same 23505). */
static int unique_key_taken(rl_txn *t, const uint8_t *k, size_t kl, rl_error *err)
{
    pending *p = ov_find(t, k, kl);
    if (p)
        return p->val != NULL;
    kv_error ke;
    int rc = kv_get(t->cat->kv, t->snap, k, kl, NULL, NULL, &ke);
    if (rc == 0 && t->snap && !t->seq)
        rc = kv_get(t->cat->kv, NULL, k, kl, NULL, NULL, &ke);
    return rc < 0 ? kv_fail(err, &ke, "checking uniqueness") : rc;
}

/* Same for "any key under this prefix", against overlay + latest state. */
static int unique_prefix_taken(rl_txn *t, const uint8_t *prefix, size_t plen, rl_error *err)
{
    for (size_t i = ov_lower_bound(t, prefix, plen); i < t->nov; i++) {
        if (t->ov[i].klen < plen || memcmp(t->ov[i].key, prefix, plen) != 0)
            break;
        if (t->ov[i].val)
            return 1;
    }
    kv_error ke;
    kv_iter *it = kv_scan_prefix(t->cat->kv, t->seq ? t->snap : NULL, prefix, plen, &ke);
    if (!it)
        return kv_fail(err, &ke, "checking uniqueness");
    int found = 0;
    const uint8_t *k, *v;
    size_t kl, vl;
    int rc;
    while ((rc = kv_iter_next(it, &k, &kl, &v, &vl, &ke)) == 1) {
        pending *p = ov_find(t, k, kl);
        if (!p || p->val) {
            found = 1;
            break;
        }
    }
    kv_iter_free(it);
    if (rc < 0)
        return kv_fail(err, &ke, "checking uniqueness");
    return found;
}

static bool is_write_allowed(rl_txn *t, rl_error *err)
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

/* "(snapshot_id)=(5)" text of the PK or key columns, as PostgreSQL's detail. */
static void key_detail(const rl_table_desc *d, const rl_datum *row, char *out, size_t n)
{
    rl_buf names, vals;
    rl_buf_init(&names, 0);
    rl_buf_init(&vals, 0);
    bool first = true;
    for (int i = 0; i < d->nkey; i++) {
        int col = d->key[i];
        if (d->pk_col >= 0)
            col = i == 0 ? d->pk_col : -2;
        if (col < 0)
            continue;
        rl_buf_printf(&names, "%s%s", first ? "" : ", ", d->cols[col].name);
        if (!first)
            rl_buf_put_str(&vals, ", ");
        rl_datum_to_text(&vals, d->cols[col].type, &row[col]);
        first = false;
    }
    snprintf(out, n, "Key (%.*s)=(%.*s) already exists.", (int)names.len,
             names.data ? (const char *)names.data : "", (int)vals.len,
             vals.data ? (const char *)vals.data : "");
    rl_buf_free(&names);
    rl_buf_free(&vals);
}

static int duplicate_error(const rl_table_desc *d, const rl_datum *row, rl_error *err)
{
    char cname[160], detail[256];
    rl_desc_constraint_name(d, cname, sizeof cname);
    key_detail(d, row, detail, sizeof detail);
    rl_error_set(err, RL_SQLSTATE_UNIQUE_VIOLATION,
                 "duplicate key value violates unique constraint \"%s\"", cname);
    rl_error_detail(err, "%s", detail);
    return -1;
}

static int key_error(const rl_table_desc *d, rl_key_status st, int col, rl_error *err)
{
    const char *cname = col >= 0 ? d->cols[col].name : "?";
    if (st == RL_KEY_ERR_NULL)
        return rl_error_set(err, RL_SQLSTATE_NOT_NULL_VIOLATION,
                            "null value in column \"%s\" of relation \"%s\" violates not-null "
                            "constraint",
                            cname, d->name);
    if (st == RL_KEY_ERR_NEGATIVE)
        return rl_error_set(err, RL_SQLSTATE_NUMERIC_OUT_OF_RANGE,
                            "value of column \"%s\" of relation \"%s\" is negative; RockLake "
                            "stores it in the key and requires ids >= 0",
                            cname, d->name);
    return rl_error_set(err, RL_SQLSTATE_INTERNAL, "cannot encode key of relation \"%s\"",
                        d->name);
}

static int check_not_null(const rl_table_desc *d, size_t ncols, const rl_datum *row,
                          rl_error *err)
{
    for (size_t i = 0; i < ncols; i++)
        if (d->cols[i].not_null && row[i].isnull)
            return key_error(d, RL_KEY_ERR_NULL, (int)i, err);
    return 0;
}

static uint64_t tag_bit(uint8_t tag) { return 1ull << (tag & 63); }

/* The format whose shape fixed table `d` has in this transaction. */
static rl_format table_format(const rl_txn *t, const rl_table_desc *d)
{
    return (t->lagging & tag_bit(d->tag)) ? t->lag_fmt : t->fmt;
}

static size_t txn_ncols(const rl_txn *t, const rl_table_desc *d)
{
    return rl_txn_table_ncols(t, d);
}

/* Encode the non-key columns of `row` as d's value. */
static int encode_value(rl_txn *t, const rl_table_desc *d, const rl_datum *row, rl_buf *out,
                        rl_error *err)
{
    rl_type types[RL_MAX_COLUMNS];
    int cols[RL_MAX_COLUMNS];
    rl_datum vals[RL_MAX_COLUMNS];
    size_t n;
    if (d->tag == RL_TAG_DYNAMIC_ROW) {
        n = d->ncols_max;
        for (size_t i = 0; i < n; i++) {
            types[i] = d->cols[i].type;
            vals[i] = row[i];
        }
    } else {
        n = rl_desc_value_columns(d, table_format(t, d), types, cols);
        for (size_t i = 0; i < n; i++)
            vals[i] = row[cols[i]];
    }
    rl_codec_status st = rl_row_encode(out, d->tag, n, types, vals);
    if (st == RL_CODEC_ERR_TOO_LARGE)
        return rl_error_set(err, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, "row of relation \"%s\" is too large", d->name);
    if (st != RL_CODEC_OK || out->failed)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "cannot encode row of relation \"%s\"",
                            d->name);
    return 0;
}

/* Index entries that follow a row: live index, pk index. */
static int put_row_indexes(rl_txn *t, const rl_table_desc *d, const rl_datum *row,
                           const uint8_t *key, size_t klen, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    int rc = 0;
    if (d->live_index) {
        rl_key_live_index(&k, d->tag, key, klen);
        bool live = row[d->end_col].isnull;
        rc = ov_set(t, k.data, k.len, live ? (const uint8_t *)"" : NULL, 0, err);
    }
    if (rc == 0 && d->pk_check == RL_PK_INDEX) {
        rl_buf_reset(&k);
        rl_key_pk_index(&k, d->tag, (uint64_t)row[d->pk_col].v.i);
        size_t klen_index = k.len;
        if (rl_key_pk_index_value(&k, d, row) != RL_KEY_OK)
            rc = rl_error_set(err, RL_SQLSTATE_INTERNAL, "cannot index the key of a %s row",
                              d->name);
        else if (k.failed)
            rc = oom(err);
        else
            rc = ov_set(t, k.data, klen_index, k.data + klen_index, k.len - klen_index, err);
    }
    rl_buf_free(&k);
    return rc;
}

static int delete_row_indexes(rl_txn *t, const rl_table_desc *d, const rl_datum *row,
                              const uint8_t *key, size_t klen, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    int rc = 0;
    if (d->live_index) {
        rl_key_live_index(&k, d->tag, key, klen);
        rc = ov_set(t, k.data, k.len, NULL, 0, err);
    }
    if (rc == 0 && d->pk_check == RL_PK_INDEX && !row[d->pk_col].isnull) {
        rl_buf_reset(&k);
        rl_key_pk_index(&k, d->tag, (uint64_t)row[d->pk_col].v.i);
        rc = ov_set(t, k.data, k.len, NULL, 0, err);
    }
    rl_buf_free(&k);
    return rc;
}

static int expect_unique(rl_txn *t, const uint8_t *k, size_t kl, const char *constraint,
                         const char *detail, rl_error *err);

/* PRIMARY KEY checks beyond the storage key itself. */
static int check_primary_key(rl_txn *t, const rl_table_desc *d, const rl_datum *row,
                             const uint8_t *key, size_t klen, rl_error *err)
{
    if (d->pk_check == RL_PK_NONE || (d->pk_check == RL_PK_KEY && d->nkey == 1))
        return 0; /* the storage key check covers it */
    rl_buf k;
    rl_buf_init(&k, 0);
    int taken;
    expect_kind kind;
    if (d->pk_check == RL_PK_KEY) {
        rl_key_encode_prefix(&k, d, &row[d->key[0]], 1);
        kind = EXPECT_PREFIX_ABSENT;
        taken = unique_prefix_taken(t, k.data, k.len, err);
    } else {
        rl_key_pk_index(&k, d->tag, (uint64_t)row[d->pk_col].v.i);
        kind = EXPECT_KEY_ABSENT;
        taken = unique_key_taken(t, k.data, k.len, err);
    }
    (void)key;
    (void)klen;
    int rc = taken;
    if (taken == 1) {
        rc = duplicate_error(d, row, err);
    } else if (taken == 0) {
        char cname[160], detail[256];
        rl_desc_constraint_name(d, cname, sizeof cname);
        key_detail(d, row, detail, sizeof detail);
        rc = kind == EXPECT_KEY_ABSENT
                 ? expect_unique(t, k.data, k.len, cname, detail, err)
                 : add_expectation(t, kind, k.data, k.len, NULL, 0, cname, detail, err);
    }
    rl_buf_free(&k);
    return rc;
}

/* Record that `key` must still be free at commit (`kind` EXPECT_KEY_ABSENT,
 * or EXPECT_SLOT_FREE for a row that may move to a duplicate key instead).
 * If this transaction deleted a row that the snapshot had at this key
 * (delete, then insert the same key), the requirement is instead that the
 * deleted row is still the one we saw: another commit changing it is a
 * conflict, its presence is not. */
static int expect_free(rl_txn *t, expect_kind kind, const uint8_t *k, size_t kl,
                       const char *constraint, const char *detail, rl_error *err)
{
    if (ov_find(t, k, kl)) {
        uint8_t *v = NULL;
        size_t vl = 0;
        kv_error ke;
        int rc = kv_get(t->cat->kv, t->snap, k, kl, &v, &vl, &ke);
        if (rc < 0)
            return kv_fail(err, &ke, "checking uniqueness");
        if (rc == 1) {
            rc = add_expectation(t, EXPECT_VALUE, k, kl, v, vl, NULL, NULL, err);
            free(v);
            return rc;
        }
    }
    return add_expectation(t, kind, k, kl, NULL, 0, constraint, detail, err);
}

static int expect_unique(rl_txn *t, const uint8_t *k, size_t kl, const char *constraint,
                         const char *detail, rl_error *err)
{
    return expect_free(t, EXPECT_KEY_ABSENT, k, kl, constraint, detail, err);
}

/* Key `key` of a table whose rows are unique: refuse it if taken (23505,
 * naming the PK, or for RockLake's internal tables their storage key), and
 * expect it, and the PK, to be free at commit. */
static int place_unique(rl_txn *t, const rl_table_desc *d, const rl_datum *row,
                        const rl_buf *key, rl_error *err)
{
    int taken = unique_key_taken(t, key->data, key->len, err);
    if (taken < 0)
        return -1;
    if (taken)
        return duplicate_error(d, row, err);
    if (check_primary_key(t, d, row, key->data, key->len, err) < 0)
        return -1;
    char cname[160], detail[256];
    rl_desc_constraint_name(d, cname, sizeof cname);
    key_detail(d, row, detail, sizeof detail);
    return expect_unique(t, key->data, key->len, cname, detail, err);
}

/* Give a duplicate row its own key: the natural key in `key` plus a fresh
 * discriminator, which no other row has (the counter only grows, and is
 * written in the batch that writes the row). */
static int add_discriminator(rl_txn *t, rl_buf *key, rl_error *err)
{
    uint64_t dup;
    if (txn_alloc_seq(t, RL_COUNTER_NEXT_DUP, &dup, err) < 0 ||
        touch_counter(t, RL_COUNTER_NEXT_DUP, dup + 1, err) < 0)
        return -1;
    rl_key_put_dup(key, dup);
    return key->failed ? oom(err) : 0;
}

/* A table without a PRIMARY KEY keeps every row, as PostgreSQL does
 * (docs/key-layout.md decision (i)). The row goes to its natural key K when
 * K is free in this transaction's view and in the latest commit, so a table
 * without duplicates has the keys it always had; otherwise to K | dup.
 * At K, a concurrent commit may still take K before ours: the expectation
 * then moves the row to K | dup at commit (move_to_dup_locked), because
 * PostgreSQL would commit both. */
static int place_keeping_duplicates(rl_txn *t, rl_buf *key, rl_error *err)
{
    int taken = unique_key_taken(t, key->data, key->len, err);
    if (taken < 0)
        return -1;
    if (taken)
        return add_discriminator(t, key, err);
    return expect_free(t, EXPECT_SLOT_FREE, key->data, key->len, NULL, NULL, err);
}

/* Write a row after the checks: at its key, or for a duplicate in a table
 * that keeps them, at the key plus a discriminator. */
static int add_row(rl_txn *t, const rl_table_desc *d, const rl_datum *row, uint64_t seq,
                   rl_error *err)
{
    size_t ncols = txn_ncols(t, d);
    if (check_not_null(d, ncols, row, err) < 0)
        return -1;
    rl_buf key, val;
    rl_buf_init(&key, 0);
    rl_buf_init(&val, RL_MAX_VALUE_BYTES);
    int bad = -1, rc = -1;
    rl_key_status ks = rl_key_encode_row(&key, d, row, seq, &bad);
    if (ks != RL_KEY_OK) {
        key_error(d, ks, bad, err);
        goto out;
    }
    if (encode_value(t, d, row, &val, err) < 0)
        goto out;
    if ((rl_desc_keeps_duplicates(d) ? place_keeping_duplicates(t, &key, err)
                                     : place_unique(t, d, row, &key, err)) < 0)
        goto out;
    if (ov_set(t, key.data, key.len, val.data ? val.data : (const uint8_t *)"", val.len, err) < 0)
        goto out;
    if (put_row_indexes(t, d, row, key.data, key.len, err) < 0)
        goto out;
    if (d->counter && d->counter_col >= 0 && !row[d->counter_col].isnull &&
        touch_counter(t, d->counter, (uint64_t)row[d->counter_col].v.i + 1, err) < 0)
        goto out;
    if (d->tag == RL_TAG_SNAPSHOT) {
        uint64_t id = (uint64_t)row[0].v.i;
        if (!t->inserted_snapshot || id > t->max_snapshot_inserted)
            t->max_snapshot_inserted = id;
        t->inserted_snapshot = true;
    }
    rc = 0;
out:
    rl_buf_free(&key);
    rl_buf_free(&val);
    return rc;
}

/* ------------------------------------------------- logical writes (seq) */

static bool string_datum_type(rl_type ty)
{
    return ty == RL_T_VARCHAR || ty == RL_T_TEXT || ty == RL_T_BYTEA || ty == RL_T_NUMERIC;
}

/* The most row writes a transaction keeps for a rebase: a DuckLake append's
 * batch is a few rows per file and per column, plus its inlined rows. */
#define SEQ_MAX_WRITES 65536

/* Copy `n` datums of d into `to`, their strings into the transaction's arena. */
static int seq_copy_row(rl_txn *t, const rl_table_desc *d, size_t n, const rl_datum *from,
                        rl_datum *to, rl_error *err)
{
    for (size_t c = 0; c < n; c++) {
        to[c] = from[c];
        if (from[c].isnull || !string_datum_type(d->cols[c].type) || !from[c].v.s.p)
            continue;
        uint8_t *p = rl_arena_dup(&t->seq_arena, from[c].v.s.p, from[c].v.s.len ? from[c].v.s.len : 1);
        if (!p)
            return oom(err);
        to[c].v.s.p = p;
    }
    return 0;
}

/* Keep a row write that succeeded as a logical write (t->seq). */
static int seq_record(rl_txn *t, rl_seq_op op, const rl_table_desc *d, const rl_datum *row,
                      const rl_datum *old, bool old_own, const uint8_t *key, size_t klen,
                      rl_error *err)
{
    assert(t->seq);
    /* A write no append makes (a catalog row, a delete) or a transaction
     * far larger than a commit batch can never be rebased: stop keeping
     * its writes, so DDL-heavy transactions cost no memory here. */
    if (t->seq_foreign || !rl_seq_append_key(&d->tag, 1) || op == RL_SEQ_DELETE ||
        t->nseqw >= SEQ_MAX_WRITES) {
        t->seq_foreign = true;
        return 0;
    }
    rl_seq_write *grown = rl_array_reserve(t->seqw, t->nseqw, &t->capseqw, sizeof *grown, 16);
    if (!grown)
        return oom(err);
    t->seqw = grown;
    rl_seq_write *w = &t->seqw[t->nseqw];
    memset(w, 0, sizeof *w);
    w->op = op;
    w->d = d;
    w->ncols = txn_ncols(t, d);
    w->old_own = old_own;
    if (row && seq_copy_row(t, d, w->ncols, row, w->row, err) < 0)
        return -1;
    if (old && seq_copy_row(t, d, w->ncols, old, w->old, err) < 0)
        return -1;
    if (key) {
        if (!(w->key = rl_arena_dup(&t->seq_arena, key, klen ? klen : 1)))
            return oom(err);
        w->klen = klen;
    }
    t->nseqw++;
    return 0;
}

static int insert_row(rl_txn *t, const rl_table_desc *d, const rl_datum *row, rl_error *err)
{
    uint64_t seq = 0;
    /* validate before taking a sequence number, so failures leave no gaps */
    if (check_not_null(d, txn_ncols(t, d), row, err) < 0)
        return -1;
    if (rl_desc_has_seq(d)) {
        char name[64];
        rl_counter_rowseq_name(d, name, sizeof name);
        if (txn_alloc_seq(t, name, &seq, err) < 0 || touch_counter(t, name, seq + 1, err) < 0)
            return -1;
    }
    return add_row(t, d, row, seq, err);
}

int rl_txn_insert(rl_txn *t, const rl_table_desc *d, const rl_datum *row, rl_error *err)
{
    if (!is_write_allowed(t, err))
        return -1;
    t->seq_depth++;
    int rc = insert_row(t, d, row, err);
    t->seq_depth--;
    if (rc == 0 && t->seq)
        rc = seq_record(t, RL_SEQ_INSERT, d, row, NULL, false, NULL, 0, err);
    return rc;
}

/* Decode key + value into *row (strings borrow from key arena and `val`). */
static int decode_row(rl_txn *t, const rl_table_desc *d, const uint8_t *key, size_t klen,
                      const uint8_t *val, size_t vlen, rl_row *row, rl_buf *arena, rl_error *err)
{
    row->d = d;
    row->ncols = txn_ncols(t, d);
    row->key = key;
    row->klen = klen;
    row->seq = 0;
    for (size_t i = 0; i < row->ncols; i++)
        row->vals[i].isnull = true;
    rl_buf_reset(arena);
    if (rl_key_decode_row(key, klen, d, row->vals, &row->seq, arena) != RL_KEY_OK)
        return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED, "malformed key in relation \"%s\"",
                            d->name);
    rl_datum vals[RL_MAX_COLUMNS];
    if (t->vc_desc != d) { /* descriptors live as long as the catalog */
        if (d->tag == RL_TAG_DYNAMIC_ROW) {
            t->vc_n = d->ncols_max;
            for (size_t i = 0; i < t->vc_n; i++) {
                t->vc_types[i] = d->cols[i].type;
                t->vc_cols[i] = (int)i;
            }
        } else {
            t->vc_n = rl_desc_value_columns(d, table_format(t, d), t->vc_types, t->vc_cols);
        }
        t->vc_desc = d;
    }
    size_t n = t->vc_n;
    const rl_type *types = t->vc_types;
    const int *cols = t->vc_cols;
    char msg[200];
    rl_codec_status st = rl_row_decode(val, vlen, d->tag, n, types, NULL, vals, msg, sizeof msg);
    if (st != RL_CODEC_OK)
        return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                            "cannot decode a row of relation \"%s\": %s", d->name, msg);
    for (size_t i = 0; i < n; i++)
        row->vals[cols[i]] = vals[i];
    return 0;
}

/* Old row for update/delete: read, decode, remember what we saw. */
static int load_for_change(rl_txn *t, const rl_table_desc *d, const uint8_t *key, size_t klen,
                           uint8_t **val, size_t *vlen, rl_row *row, rl_buf *arena, rl_error *err)
{
    pending *p = ov_find(t, key, klen);
    int rc = view_get(t, key, klen, val, vlen, err);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return rl_error_set(err, RL_SQLSTATE_SERIALIZATION_FAILURE,
                            "could not serialize access: the row to change in \"%s\" no longer "
                            "exists",
                            d->name);
    if (decode_row(t, d, key, klen, *val, *vlen, row, arena, err) < 0)
        return -1;
    /* A row we wrote ourselves needs no check; one from the snapshot must be
     * unchanged by others when we commit. */
    if (!p && add_expectation(t, EXPECT_VALUE, key, klen, *val, *vlen, NULL, NULL, err) < 0)
        return -1;
    return 0;
}

int rl_txn_delete(rl_txn *t, const rl_table_desc *d, const uint8_t *key, size_t klen,
                  rl_error *err)
{
    if (!is_write_allowed(t, err))
        return -1;
    uint8_t *val = NULL;
    size_t vlen = 0;
    rl_buf arena;
    rl_buf_init(&arena, 0);
    rl_row *row = malloc(sizeof *row);
    uint8_t *kcopy = dup_bytes(key, klen); /* key may point into the overlay */
    int rc = -1;
    if (!row || !kcopy) {
        oom(err);
        goto out;
    }
    bool own = ov_find(t, kcopy, klen) != NULL;
    t->seq_depth++;
    if (load_for_change(t, d, kcopy, klen, &val, &vlen, row, &arena, err) == 0 &&
        delete_row_indexes(t, d, row->vals, kcopy, klen, err) == 0)
        rc = ov_set(t, kcopy, klen, NULL, 0, err);
    t->seq_depth--;
    if (rc == 0 && t->seq)
        rc = seq_record(t, RL_SEQ_DELETE, d, NULL, row->vals, own, kcopy, klen, err);
out:
    free(val);
    free(row);
    free(kcopy);
    rl_buf_free(&arena);
    return rc;
}

/* A duplicate whose key fields an UPDATE leaves alone keeps its key,
 * discriminator included: `nkey` (the new row's natural key) gets the old
 * key's discriminator when their natural keys are equal. */
static int keep_discriminator(const rl_table_desc *d, const uint8_t *oldkey, size_t oldklen,
                              rl_buf *nkey)
{
    size_t natural_len;
    uint64_t dup;
    if (!rl_desc_keeps_duplicates(d) ||
        rl_key_split_dup(oldkey, oldklen, d, &natural_len, &dup) != 1 ||
        rl_bytes_cmp(oldkey, natural_len, nkey->data, nkey->len) != 0)
        return 0;
    rl_key_put_dup(nkey, dup);
    return nkey->failed ? -1 : 0;
}

int rl_txn_row_exists(rl_txn *t, const rl_table_desc *d, const uint8_t *key, size_t klen,
                      rl_error *err)
{
    size_t natural_len;
    if (rl_key_split_dup(key, klen, d, &natural_len, NULL) < 0)
        return 0; /* not a key of d: names no row */
    return view_get(t, key, klen, NULL, NULL, err);
}

int rl_txn_update(rl_txn *t, const rl_table_desc *d, const uint8_t *oldkey, size_t oldklen,
                  const rl_datum *newrow, rl_error *err)
{
    if (!is_write_allowed(t, err))
        return -1;
    uint8_t *val = NULL;
    size_t vlen = 0;
    rl_buf arena, nkey, nval;
    rl_buf_init(&arena, 0);
    rl_buf_init(&nkey, 0);
    rl_buf_init(&nval, RL_MAX_VALUE_BYTES);
    rl_row *old = malloc(sizeof *old);
    uint8_t *kcopy = dup_bytes(oldkey, oldklen);
    int rc = -1, bad = -1;
    bool own = false, loaded = false;
    if (!old || !kcopy) {
        oom(err);
        goto out;
    }
    own = ov_find(t, kcopy, oldklen) != NULL;
    t->seq_depth++;
    if (load_for_change(t, d, kcopy, oldklen, &val, &vlen, old, &arena, err) < 0)
        goto out;
    loaded = true;
    size_t ncols = txn_ncols(t, d);
    if (check_not_null(d, ncols, newrow, err) < 0)
        goto out;
    rl_key_status ks = rl_key_encode_row(&nkey, d, newrow, old->seq, &bad);
    if (ks != RL_KEY_OK) {
        key_error(d, ks, bad, err);
        goto out;
    }
    if (keep_discriminator(d, kcopy, oldklen, &nkey) < 0) {
        oom(err);
        goto out;
    }
    bool same_key = rl_bytes_cmp(nkey.data, nkey.len, kcopy, oldklen) == 0;
    bool same_pk = d->pk_col < 0 || old->vals[d->pk_col].isnull == newrow[d->pk_col].isnull;
    if (same_pk && d->pk_col >= 0 && !newrow[d->pk_col].isnull)
        same_pk = old->vals[d->pk_col].v.i == newrow[d->pk_col].v.i;
    if (same_key && same_pk) {
        /* The common case (e.g. closing a version): rewrite the value in place. */
        if (encode_value(t, d, newrow, &nval, err) < 0)
            goto out;
        /* An UPDATE that changes nothing writes nothing: no new version for
         * the store to carry (DuckLake rewrites every column-stats row of a
         * table on each commit, most of them unchanged). The read above
         * still stands as an expectation, so a concurrent change of the row
         * is still a conflict at COMMIT. */
        if (nval.len == vlen && (vlen == 0 || memcmp(nval.data, val, vlen) == 0)) {
            rc = 0;
            goto out;
        }
        if (ov_set(t, kcopy, oldklen, nval.data ? nval.data : (const uint8_t *)"", nval.len,
                   err) < 0 ||
            put_row_indexes(t, d, newrow, kcopy, oldklen, err) < 0)
            goto out;
        rc = 0;
        goto out;
    }
    /* Key or PK changed: remove the old row, then add the new one with all
     * uniqueness checks. */
    if (delete_row_indexes(t, d, old->vals, kcopy, oldklen, err) < 0 ||
        ov_set(t, kcopy, oldklen, NULL, 0, err) < 0)
        goto out;
    rc = add_row(t, d, newrow, old->seq, err);
out:
    if (kcopy && old)
        t->seq_depth--;
    /* recorded while `old` still holds the row read (it borrows from val) */
    if (rc == 0 && loaded && t->seq)
        rc = seq_record(t, RL_SEQ_UPDATE, d, newrow, old->vals, own, kcopy, oldklen, err);
    free(val);
    free(old);
    free(kcopy);
    rl_buf_free(&arena);
    rl_buf_free(&nkey);
    rl_buf_free(&nval);
    return rc;
}

/* ------------------------------------------------------------------ scans */

struct rl_scan {
    rl_txn *txn;
    const rl_table_desc *d;
    bool live;             /* iterate the live index, then fetch rows */
    kv_iter *it;
    bool it_done, it_have;
    const uint8_t *ik, *iv; /* current store pair (borrowed from it) */
    size_t ikl, ivl;
    size_t ovi;            /* next overlay index */
    uint8_t *prefix;
    size_t plen;
    uint64_t keys_read;
    rl_row row;
    rl_buf arena;
    rl_buf fetched_key;    /* live scans: the primary key being read */
    kv_iter *rows;         /* live scans: forward iterator over the primary range */
};

/* Live scans read each row through one forward iterator over the primary
 * key range, seeking from live key to live key: index order equals primary
 * key order, so the seeks only move forward and neighbouring rows share
 * blocks, which is far cheaper than a point read per row. */
static int live_fetch(rl_scan *s, const uint8_t *pk, size_t pkl, const uint8_t **v, size_t *vl,
                      rl_error *err)
{
    pending *p = ov_find(s->txn, pk, pkl);
    if (p) {
        *v = p->val;
        *vl = p->vlen;
        return p->val != NULL;
    }
    kv_error ke;
    if (!s->rows) {
        /* index prefix 80 01 <tag> <fields> -> primary prefix <tag> <fields> */
        s->rows = kv_scan_prefix(s->txn->cat->kv, s->txn->snap, s->prefix + 2, s->plen - 2, &ke);
        if (!s->rows)
            return kv_fail(err, &ke, "scanning");
    }
    if (kv_iter_seek(s->rows, pk, pkl, &ke) < 0)
        return kv_fail(err, &ke, "scanning");
    const uint8_t *k;
    size_t kl;
    int rc = kv_iter_next(s->rows, &k, &kl, v, vl, &ke);
    if (rc < 0)
        return kv_fail(err, &ke, "scanning");
    return rc == 1 && rl_bytes_cmp(k, kl, pk, pkl) == 0;
}

static int scan_advance_store(rl_scan *s, rl_error *err)
{
    if (s->it_done)
        return 0;
    kv_error ke;
    int rc = kv_iter_next(s->it, &s->ik, &s->ikl, &s->iv, &s->ivl, &ke);
    if (rc < 0)
        return kv_fail(err, &ke, "scanning");
    if (rc == 0) {
        s->it_done = true;
        s->it_have = false;
        return 0;
    }
    s->keys_read++;
    s->it_have = true;
    return 0;
}

static bool ov_in_prefix(const rl_scan *s, size_t i)
{
    const pending *p = &s->txn->ov[i];
    return i < s->txn->nov && p->klen >= s->plen && memcmp(p->key, s->prefix, s->plen) == 0;
}

/* Next merged (overlay over store) pair under the prefix; tombstones are
 * skipped. 1 = pair, 0 = end, -1 = error. */
static int scan_merged_next(rl_scan *s, const uint8_t **k, size_t *kl, const uint8_t **v,
                            size_t *vl, rl_error *err)
{
    for (;;) {
        bool have_ov = s->ovi < s->txn->nov && ov_in_prefix(s, s->ovi);
        if (!s->it_have && !s->it_done && scan_advance_store(s, err) < 0)
            return -1;
        if (!have_ov && !s->it_have)
            return 0;
        int c = !have_ov ? -1
                : !s->it_have
                    ? 1
                    : rl_bytes_cmp(s->ik, s->ikl, s->txn->ov[s->ovi].key, s->txn->ov[s->ovi].klen);
        if (c < 0) { /* store only */
            *k = s->ik, *kl = s->ikl, *v = s->iv, *vl = s->ivl;
            s->it_have = false;
            return 1;
        }
        const pending *p = &s->txn->ov[s->ovi++];
        if (c == 0)
            s->it_have = false; /* the overlay shadows the store */
        if (!p->val)
            continue;
        *k = p->key, *kl = p->klen, *v = p->val, *vl = p->vlen;
        return 1;
    }
}

/* The store key a scan of d reads from at fields[0..nfields): their
 * primary-key prefix, or for a live scan its live-index form, in *out.
 * Anything but RL_KEY_OK means the fields name no stored key. */
static rl_key_status scan_key(const rl_table_desc *d, bool live, const rl_datum *fields,
                              size_t nfields, rl_buf *out)
{
    if (!live)
        return rl_key_encode_prefix(out, d, fields, nfields);
    rl_buf pk;
    rl_buf_init(&pk, 0);
    rl_key_status ks = rl_key_encode_prefix(&pk, d, fields, nfields);
    if (ks == RL_KEY_OK)
        rl_key_live_index(out, d->tag, pk.data, pk.len);
    rl_buf_free(&pk);
    return ks;
}

static rl_scan *scan_open(rl_txn *t, const rl_table_desc *d, const rl_datum *fields,
                          size_t nfields, bool live, rl_error *err)
{
    if (live && !d->live_index) {
        rl_error_set(err, RL_SQLSTATE_INTERNAL, "relation \"%s\" has no live-row index", d->name);
        return NULL;
    }
    rl_scan *s = calloc(1, sizeof *s);
    if (!s) {
        oom(err);
        return NULL;
    }
    s->txn = t;
    s->d = d;
    s->live = live;
    rl_buf_init(&s->arena, 0);
    rl_buf_init(&s->fetched_key, 0);
    rl_buf p;
    rl_buf_init(&p, 0);
    rl_key_status ks = scan_key(d, live, fields, nfields, &p);
    if (ks != RL_KEY_OK) {
        rl_buf_free(&p);
        rl_scan_free(s);
        /* a NULL or negative id can match no stored key: an empty scan */
        s = calloc(1, sizeof *s);
        if (!s) {
            oom(err);
            return NULL;
        }
        s->txn = t;
        s->d = d;
        s->it_done = true;
        s->ovi = t->nov;
        rl_buf_init(&s->arena, 0);
        rl_buf_init(&s->fetched_key, 0);
        return s;
    }
    s->prefix = rl_buf_steal(&p, &s->plen);
    kv_error ke;
    s->it = s->prefix ? kv_scan_prefix(t->cat->kv, t->snap, s->prefix, s->plen, &ke) : NULL;
    if (!s->it) {
        if (s->prefix)
            kv_fail(err, &ke, "starting a scan");
        else
            oom(err);
        rl_scan_free(s);
        return NULL;
    }
    s->ovi = ov_lower_bound(t, s->prefix, s->plen);
    return s;
}

rl_scan *rl_txn_scan(rl_txn *t, const rl_table_desc *d, const rl_datum *fields, size_t nfields,
                     rl_error *err)
{
    return scan_open(t, d, fields, nfields, false, err);
}

rl_scan *rl_txn_scan_live(rl_txn *t, const rl_table_desc *d, const rl_datum *fields,
                          size_t nfields, rl_error *err)
{
    return scan_open(t, d, fields, nfields, true, err);
}

int rl_scan_seek(rl_scan *s, const rl_datum *fields, size_t nfields, rl_error *err)
{
    if (!s->it)
        return 0; /* an empty scan */
    rl_buf key;
    rl_buf_init(&key, 0);
    int rc = 0;
    if (scan_key(s->d, s->live, fields, nfields, &key) == RL_KEY_OK) {
        kv_error ke;
        if (key.failed)
            rc = oom(err);
        else if (kv_iter_seek(s->it, key.data, key.len, &ke) < 0)
            rc = kv_fail(err, &ke, "seeking in a scan");
        else {
            s->it_have = false;
            size_t ovi = ov_lower_bound(s->txn, key.data, key.len);
            if (ovi > s->ovi)
                s->ovi = ovi;
        }
    }
    rl_buf_free(&key);
    return rc;
}

int rl_scan_next(rl_scan *s, const rl_row **out, rl_error *err)
{
    for (;;) {
        const uint8_t *k, *v;
        size_t kl, vl;
        int rc = scan_merged_next(s, &k, &kl, &v, &vl, err);
        if (rc <= 0)
            return rc;
        if (s->live) {
            /* index key 80 01 tag <rest> -> primary key tag <rest> */
            rl_buf_reset(&s->fetched_key);
            rl_buf_put(&s->fetched_key, k + 2, kl - 2);
            int g = live_fetch(s, s->fetched_key.data, s->fetched_key.len, &v, &vl, err);
            if (g < 0)
                return -1;
            s->keys_read++;
            if (g == 0)
                continue; /* index entry without row: check reports it */
            k = s->fetched_key.data, kl = s->fetched_key.len;
        }
        if (decode_row(s->txn, s->d, k, kl, v, vl, &s->row, &s->arena, err) < 0)
            return -1;
        *out = &s->row;
        return 1;
    }
}

uint64_t rl_scan_keys_read(const rl_scan *s) { return s->keys_read; }

void rl_scan_free(rl_scan *s)
{
    if (!s)
        return;
    kv_iter_free(s->it);
    kv_iter_free(s->rows);
    free(s->prefix);
    rl_buf_free(&s->arena);
    rl_buf_free(&s->fetched_key);
    free(s);
}

int rl_txn_get(rl_txn *t, const rl_table_desc *d, const rl_datum *fields, const rl_row **out,
               rl_error *err)
{
    rl_buf_reset(&t->get_key);
    if (rl_key_encode_prefix(&t->get_key, d, fields, d->nkey) != RL_KEY_OK)
        return 0;
    free(t->get_val);
    t->get_val = NULL;
    size_t vlen = 0;
    int rc = view_get(t, t->get_key.data, t->get_key.len, &t->get_val, &vlen, err);
    if (rc <= 0)
        return rc;
    if (decode_row(t, d, t->get_key.data, t->get_key.len, t->get_val, vlen, &t->get_row,
                   &t->get_arena, err) < 0)
        return -1;
    *out = &t->get_row;
    return 1;
}

bool rl_row_visible_at(const rl_row *row, uint64_t snapshot)
{
    const rl_table_desc *d = row->d;
    if (d->begin_col < 0)
        return true;
    const rl_datum *b = &row->vals[d->begin_col], *e = &row->vals[d->end_col];
    if (b->isnull || (uint64_t)b->v.i > snapshot)
        return false;
    return e->isnull || (uint64_t)e->v.i > snapshot;
}

/* ----------------------------------------------------------------- commit */

/* Remember the keys of commit `seq` (caller holds cat->lock). Without
 * memory the slot is left empty, which only costs later commits a store
 * read. */
static void commit_log_add_locked(rl_catalog *cat, uint64_t seq, const rl_txn *t)
{
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
    *e = (commit_log_entry){.seq = seq, .blob = blob, .len = len};
}

/* Does the log hold every commit after the transaction's snapshot? */
static bool commit_log_covers_locked(const rl_txn *t)
{
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
    const rl_catalog *cat = t->cat;
    bool prefix = e->kind == EXPECT_PREFIX_ABSENT;
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
    size_t i = ov_lower_bound(t, k, kl);
    if (i == t->nov || rl_bytes_cmp(t->ov[i].key, t->ov[i].klen, k, kl) != 0)
        return 0;
    pending p = ov_take(t, i);
    int rc = 0;
    if (p.val) {
        rl_buf nk;
        rl_buf_init(&nk, 0);
        rl_buf_put(&nk, p.key, p.klen);
        rl_key_put_dup(&nk, dup);
        rc = nk.failed ? oom(err) : ov_set(t, nk.data, nk.len, p.val, p.vlen, err);
        rl_buf_free(&nk);
    }
    free(p.key);
    free(p.val);
    return rc;
}

/* A concurrent commit took the natural key K that this transaction put a
 * row at (EXPECT_SLOT_FREE): the row and its live-index entry move to
 * K | dup, as PostgreSQL would keep both rows. Caller holds cat->lock, so
 * the discriminator is taken here and nothing else can take K | dup. */
static int move_to_dup_locked(rl_txn *t, const expectation *e, rl_error *err)
{
    rl_buf live;
    rl_buf_init(&live, 0);
    rl_key_live_index(&live, e->key[0], e->key, e->klen);
    uint64_t dup;
    int rc = -1;
    if (live.failed)
        oom(err);
    else if (alloc_seq_locked(t->cat, RL_COUNTER_NEXT_DUP, &dup, err) == 0 &&
             touch_counter(t, RL_COUNTER_NEXT_DUP, dup + 1, err) == 0 &&
             ov_move_to_dup(t, e->key, e->klen, dup, err) == 0)
        rc = ov_move_to_dup(t, live.data, live.len, dup, err);
    rl_buf_free(&live);
    return rc;
}

static int check_expectations(rl_txn *t, rl_error *err)
{
    kv_db *kv = t->cat->kv;
    kv_error ke;
    bool logged = commit_log_covers_locked(t);
    for (size_t i = 0; i < t->nex; i++) {
        expectation *e = &t->ex[i];
        /* nobody wrote it since our snapshot, which is where it was read */
        if (logged && !commit_log_touches_locked(t, e))
            continue;
        int taken;
        if (e->kind == EXPECT_PREFIX_ABSENT) {
            kv_iter *it = kv_scan_prefix(kv, NULL, e->key, e->klen, &ke);
            if (!it)
                return kv_fail(err, &ke, "validating commit");
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
            return kv_fail(err, &ke, "validating commit");
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

/* ------------------------------------------------- commit sequencing */

/* A reader of `snap` (NULL: the latest state), for the rebase planner. It
 * borrows the snapshot and is freed with rl_txn_free. Caller holds cat->lock
 * (a reader takes no lock of its own). */
static rl_txn *reader_locked(rl_catalog *cat, kv_snapshot *snap, rl_format fmt, rl_error *err)
{
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

/* Drop the overlay, the expectations and the counters touched (their
 * arrays stay for reuse). */
static void free_buffered_writes(rl_txn *t)
{
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
    t->inserted_snapshot = false;
    t->max_snapshot_inserted = 0;
}

/* Replace the transaction's buffered writes by the plan's, written against
 * the latest state (the lock keeps it fixed), then validate them as any
 * commit: the expectations they record hold unless the plan is wrong. */
static int replay_locked(rl_txn *t, const rl_seq_plan *plan, rl_error *err)
{
    free_buffered_writes(t);
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

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Sequencing's COMMIT (docs/design/commit-sequencing.md §7.3), under
 * cat->lock: when the transaction's snapshot id is still free, validate as
 * always; when a concurrent commit took it, rebase the transaction onto the
 * latest state if it is a pure append, or fail it with the same 23505 as
 * without sequencing (counted under the reason). */
static int sequence_locked(rl_txn *t, rl_error *err)
{
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
        return kv_fail(err, &ke, "validating commit");
    if (taken == 0)
        return check_expectations(t, err);
    uint64_t t0 = monotonic_ns();
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
        int rc = latest ? rl_seq_plan_rebase(base, latest, t->seqw, t->nseqw, now_pg_micros(),
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
    atomic_fetch_add(&cat->seq_ns, monotonic_ns() - t0);
    return rc;
}

/* Counters go into the batch at the larger of memory and what the txn needs. */
static int add_counters_locked(rl_txn *t, kv_batch *b, uint64_t *values, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    for (size_t i = 0; i < t->ntc; i++) {
        counter *c = counter_locked(t->cat, t->tc[i].name, err);
        if (!c) {
            rl_buf_free(&k);
            return -1;
        }
        values[i] = c->value > t->tc[i].at_least ? c->value : t->tc[i].at_least;
        rl_buf_reset(&k);
        rl_key_counter(&k, t->tc[i].name);
        uint8_t v[8];
        rl_store_be64(v, values[i]);
        kv_batch_put(b, k.data, k.len, v, 8);
    }
    rl_buf_free(&k);
    return 0;
}

static int add_audit_locked(rl_txn *t, kv_batch *b, rl_error *err)
{
    counter *seqc = counter_locked(t->cat, RL_COUNTER_NEXT_COMMIT_SEQ, err);
    counter *snapc = counter_locked(t->cat, RL_COUNTER_NEXT_SNAPSHOT_ID, err);
    if (!seqc || !snapc)
        return -1;
    uint64_t snap = t->inserted_snapshot ? t->max_snapshot_inserted
                    : snapc->value ? snapc->value - 1
                                   : 0;
    rl_datum row[RL_AUDIT_NCOLS];
    memset(row, 0, sizeof row);
    row[RL_AUDIT_SNAPSHOT_ID].v.i = (int64_t)snap;
    row[RL_AUDIT_SEQ].v.i = (int64_t)seqc->value;
    row[RL_AUDIT_TIME].v.i = now_pg_micros();
    const char *texts[3] = {t->user, t->app, t->client};
    for (int i = 0; i < 3; i++) {
        row[RL_AUDIT_USER + i].v.s.p = (const uint8_t *)texts[i];
        row[RL_AUDIT_USER + i].v.s.len = strlen(texts[i]);
    }
    row[RL_AUDIT_STATEMENTS].v.i = (int64_t)t->statements;
    row[RL_AUDIT_CLAIMED_SNAPSHOT_ID].isnull = !t->rebased;
    row[RL_AUDIT_CLAIMED_SNAPSHOT_ID].v.i = (int64_t)t->claimed_sid;
    row[RL_AUDIT_BASE_SNAPSHOT_ID].isnull = !t->rebased;
    row[RL_AUDIT_BASE_SNAPSHOT_ID].v.i = (int64_t)t->base_sid;
    row[RL_AUDIT_ID_MAP].isnull = !t->rebased;
    row[RL_AUDIT_ID_MAP].v.s.p = (const uint8_t *)t->id_map;
    row[RL_AUDIT_ID_MAP].v.s.len = strlen(t->id_map);
    rl_buf k, v;
    rl_buf_init(&k, 0);
    rl_buf_init(&v, 0);
    rl_key_encode_row(&k, &rl_desc_audit, row, 0, NULL);
    rl_type types[RL_MAX_COLUMNS];
    int cols[RL_MAX_COLUMNS];
    rl_datum vals[RL_MAX_COLUMNS];
    size_t n = rl_desc_value_columns(&rl_desc_audit, RL_FMT_LATEST, types, cols);
    for (size_t i = 0; i < n; i++)
        vals[i] = row[cols[i]];
    rl_row_encode(&v, RL_TAG_AUDIT, n, types, vals);
    int rc = 0;
    if (k.failed || v.failed)
        rc = oom(err);
    else
        kv_batch_put(b, k.data, k.len, v.data, v.len);
    rl_buf_reset(&k);
    rl_key_counter(&k, RL_COUNTER_NEXT_COMMIT_SEQ);
    uint8_t next[8];
    rl_store_be64(next, seqc->value + 1);
    kv_batch_put(b, k.data, k.len, next, 8);
    rl_buf_free(&k);
    rl_buf_free(&v);
    return rc;
}

/* Make write number `seq` durable: if a flush is running, wait for it (it
 * may cover us); otherwise become the flusher for everything written so
 * far. Concurrent commits thus share flushes instead of each paying one. */
static int group_flush(rl_catalog *cat, uint64_t seq, const char *doing, rl_error *err)
{
    int rc = 0;
    pthread_mutex_lock(&cat->flush_lock);
    while (rc == 0 && cat->durable_seq < seq) {
        if (cat->flushing) {
            pthread_cond_wait(&cat->flush_done, &cat->flush_lock);
            continue;
        }
        cat->flushing = true;
        pthread_mutex_unlock(&cat->flush_lock);
        pthread_mutex_lock(&cat->lock);
        uint64_t target = cat->written_seq; /* all of these are in the memtable */
        pthread_mutex_unlock(&cat->lock);
        kv_error ke;
        rc = kv_flush(cat->kv, &ke);
        if (rc < 0) {
            note_store_failure(cat, &ke);
            kv_fail(err, &ke, doing);
            if (cat->object_store && ke.kind == KV_ERR_IO)
                rl_error_hint(err, "The object store did not take the write: this commit was "
                                   "not acknowledged, and may or may not be in the store. "
                                   "Reconnect once the store is reachable again (the server "
                                   "reopens the lake on the next connection).");
        }
        pthread_mutex_lock(&cat->flush_lock);
        if (rc == 0 && target > cat->durable_seq)
            cat->durable_seq = target;
        cat->flushing = false;
        pthread_cond_broadcast(&cat->flush_done);
    }
    pthread_mutex_unlock(&cat->flush_lock);
    return rc < 0 ? -1 : 0;
}

/* The oldest snapshot row in the transaction's view (snapshot_id is the
 * key: the first row): 1 with *row, valid until rl_scan_free(*sc); 0 when
 * the lake has none yet; -1 on error (*sc NULL). The caller frees *sc. */
static int first_snapshot_row(rl_txn *t, rl_scan **sc, const rl_row **row, rl_error *err)
{
    *sc = rl_txn_scan(t, rl_desc_by_tag(RL_TAG_SNAPSHOT), NULL, 0, err);
    return *sc ? rl_scan_next(*sc, row, err) : -1;
}

/* The oldest snapshot's id: 1 with *id, 0 when there is none yet, -1 on
 * error. */
static int oldest_snapshot(rl_txn *t, uint64_t *id, rl_error *err)
{
    rl_scan *sc;
    const rl_row *row;
    int rc = first_snapshot_row(t, &sc, &row, err);
    if (rc == 1)
        *id = (uint64_t)row->vals[0].v.i;
    rl_scan_free(sc);
    return rc;
}

/* Does this transaction delete a snapshot row (ducklake_expire_snapshots)?
 * The overlay is sorted, so its snapshot keys are one run. */
static bool deletes_snapshot(const rl_txn *t)
{
    const uint8_t tag = RL_TAG_SNAPSHOT;
    for (size_t i = ov_lower_bound(t, &tag, 1); i < t->nov && t->ov[i].key[0] == tag; i++)
        if (!t->ov[i].val)
            return true;
    return false;
}

int rl_txn_commit(rl_txn *t, rl_error *err)
{
    if (t->done)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "transaction already finished");
    t->done = true;
    if (t->nov == 0 && t->nex == 0)
        return 0;
    if (t->cat->read_only)
        return rl_error_set(err, RL_SQLSTATE_READ_ONLY_TRANSACTION,
                            "cannot commit writes on a read-only RockLake follower");
    rl_catalog *cat = t->cat;
    if (atomic_load(&cat->failed))
        return store_failed_error(cat, err);
    /* An expiry moves the lake's "retain-from" (the oldest snapshot left),
     * in the same batch. A concurrent expiry of the same rows conflicts in
     * validation, so the transaction's own view decides it. */
    uint64_t retain_from = 0;
    int retain = deletes_snapshot(t) ? oldest_snapshot(t, &retain_from, err) : 0;
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
    pthread_mutex_lock(&cat->lock);
    if (!b) {
        oom(err);
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
    if (t->nov == 0) { /* only UPDATEs that changed nothing: validated, nothing to write */
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
        batch_put_system_u64(b, RL_SYS_RETAIN_FROM, retain_from);
    if (add_counters_locked(t, b, values, err) < 0 || add_audit_locked(t, b, err) < 0)
        goto unlock;
    if (kv_write_begin(cat->kv, b, &in_flight, &ke) < 0) {
        note_store_failure(cat, &ke);
        kv_fail(err, &ke, "committing");
        goto unlock;
    }
    /* Later commits must number from here even before this one is durable;
     * if it then fails, the ids are merely skipped. */
    for (size_t i = 0; i < t->ntc; i++) {
        counter *c = counter_locked(cat, t->tc[i].name, NULL);
        if (c && values[i] > c->value)
            c->value = values[i];
    }
    counter *seqc = counter_locked(cat, RL_COUNTER_NEXT_COMMIT_SEQ, NULL);
    if (seqc)
        seqc->value++;
    uint64_t my_seq = ++cat->written_seq;
    commit_log_add_locked(cat, my_seq, t);
    if (my_seq % MEMTABLE_FLUSH_EVERY == 0) {
        kv_error fe;
        kv_flush_memtable_async(cat->kv, &fe); /* best effort */
    }
    if (t->wrote_names)
        cat->name_gen++;
    if (t->fmt_changed)
        cat->fmt = t->fmt; /* transactions begun from now on see the new shapes */
    rl_crash_point(t->fmt_changed   ? RL_CRASH_FORMAT_WRITTEN
                   : t->wrote_names ? RL_CRASH_DDL_WRITTEN : RL_CRASH_COMMIT_WRITTEN);
    rc = 0;
unlock:
    pthread_mutex_unlock(&cat->lock);
    kv_batch_free(b);
    free(values);
    if (rc == 0 && group_flush(cat, my_seq, "committing", err) < 0)
        rc = -1;
    /* always consume the handle; after the flush this returns at once */
    kv_error wait_err;
    if (atomic_load(&cat->failed)) /* the flush failed: waiting again would double the wait */
        kv_write_abandon(in_flight);
    else if (in_flight && kv_write_wait(in_flight, &wait_err) < 0 && rc == 0) {
        note_store_failure(cat, &wait_err);
        rc = kv_fail(err, &wait_err, "committing");
    }
    if (rc == 0) rl_crash_point(t->fmt_changed   ? RL_CRASH_FORMAT_DURABLE
                                : t->wrote_names ? RL_CRASH_DDL_DURABLE : RL_CRASH_COMMIT_DURABLE);
    return rc;
}

/* --------------------------------------------------------- dynamic tables */

/* Column list of a dynamic table as stored in its definition row:
 * uvarint n, then per column uvarint name length, name, u8 type, u8 flags
 * (bit 0 NOT NULL, bit 1 a zigzag-varint typmod follows). */
#define DYN_COL_NOT_NULL 0x01
#define DYN_COL_TYPMOD 0x02

static void encode_dyn_columns(rl_buf *b, size_t ncols, const rl_column_desc *cols)
{
    rl_buf_put_uvarint(b, ncols);
    for (size_t i = 0; i < ncols; i++) {
        rl_buf_put_uvarint(b, strlen(cols[i].name));
        rl_buf_put_str(b, cols[i].name);
        rl_buf_put_u8(b, (uint8_t)cols[i].type);
        uint8_t flags = (cols[i].not_null ? DYN_COL_NOT_NULL : 0) |
                        (cols[i].typmod > 0 ? DYN_COL_TYPMOD : 0);
        rl_buf_put_u8(b, flags);
        if (flags & DYN_COL_TYPMOD)
            rl_buf_put_svarint(b, cols[i].typmod);
    }
}

void rl_dynamic_desc_free(rl_table_desc *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->ncols_max; i++)
        free((char *)d->cols[i].name);
    free((rl_column_desc *)d->cols);
    free((char *)d->name);
    free(d);
}

static rl_table_desc *dyn_desc_new(uint64_t id, const char *name, size_t ncols)
{
    if (ncols > RL_MAX_COLUMNS)
        return NULL;
    rl_table_desc *d = calloc(1, sizeof *d);
    rl_column_desc *cols = calloc(ncols ? ncols : 1, sizeof *cols);
    char *nm = strdup(name);
    if (!d || !cols || !nm) {
        free(d);
        free(cols);
        free(nm);
        return NULL;
    }
    d->tag = RL_TAG_DYNAMIC_ROW;
    d->name = nm;
    d->since = RL_FMT_1_0;
    d->ncols_max = (uint8_t)ncols;
    d->cols = cols;
    d->nkey = 1;
    d->key[0] = RL_KEY_SEQ;
    d->begin_col = d->end_col = d->pk_col = -1;
    d->counter_col = -1;
    d->dyn_id = id;
    return d;
}

rl_table_desc *rl_dynamic_desc_decode(uint64_t dyn_id, const uint8_t *val, size_t vlen,
                                      char *schema_out, size_t schema_n)
{
    rl_type types[RL_MAX_COLUMNS];
    rl_datum vals[RL_MAX_COLUMNS];
    size_t n = rl_desc_value_columns(&rl_desc_dynamic_table, RL_FMT_LATEST, types, NULL);
    if (rl_row_decode(val, vlen, RL_TAG_DYNAMIC_TABLE, n, types, NULL, vals, NULL, 0) !=
        RL_CODEC_OK)
        return NULL;
    /* value columns: schema_name, table_name, columns */
    if (vals[0].isnull || vals[1].isnull || vals[2].isnull)
        return NULL;
    if (schema_out)
        snprintf(schema_out, schema_n, "%.*s", (int)vals[0].v.s.len, (const char *)vals[0].v.s.p);
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)vals[1].v.s.len, (const char *)vals[1].v.s.p);
    rl_reader r;
    rl_reader_init(&r, vals[2].v.s.p, vals[2].v.s.len);
    uint64_t ncols;
    if (!rl_reader_uvarint(&r, &ncols) || ncols > RL_MAX_COLUMNS)
        return NULL;
    rl_table_desc *d = dyn_desc_new(dyn_id, name, (size_t)ncols);
    if (!d)
        return NULL;
    rl_column_desc *cols = (rl_column_desc *)d->cols;
    for (size_t i = 0; i < ncols; i++) {
        uint64_t len;
        const uint8_t *p;
        uint8_t type, nn;
        if (!rl_reader_uvarint(&r, &len) || len > 1024 || !rl_reader_bytes(&r, len, &p) ||
            !rl_reader_u8(&r, &type) || !rl_reader_u8(&r, &nn) || type == 0 ||
            type >= RL_T_MAX_ || !(cols[i].name = strndup((const char *)p, len))) {
            d->ncols_max = (uint8_t)i; /* free only what was filled */
            rl_dynamic_desc_free(d);
            return NULL;
        }
        int64_t typmod = 0;
        if (nn & ~(DYN_COL_NOT_NULL | DYN_COL_TYPMOD) ||
            ((nn & DYN_COL_TYPMOD) &&
             (!rl_reader_svarint(&r, &typmod) || typmod <= 0 || typmod > INT32_MAX))) {
            d->ncols_max = (uint8_t)(i + 1);
            rl_dynamic_desc_free(d);
            return NULL;
        }
        cols[i].type = (rl_type)type;
        cols[i].not_null = (nn & DYN_COL_NOT_NULL) != 0;
        cols[i].since = RL_FMT_1_0;
        cols[i].typmod = (int32_t)typmod;
    }
    return d;
}

/* The slot of dyn_id in cat's index: where it is, or the empty slot where
 * it would go (under cat->lock; dyn_nslots > 0). Listing a 10,000-table
 * catalog resolves every table's descriptor, so this is a hash lookup and
 * not a walk of the cache. */
static size_t dyn_slot(const rl_catalog *cat, uint64_t id)
{
    size_t mask = cat->dyn_nslots - 1;
    size_t s = (size_t)((id * 0x9E3779B97F4A7C15ull) >> 17) & mask;
    while (cat->dyn_slots[s] && cat->dyns[cat->dyn_slots[s] - 1].desc->dyn_id != id)
        s = (s + 1) & mask;
    return s;
}

static const rl_table_desc *dyn_find(const rl_catalog *cat, uint64_t id)
{
    if (cat->dyn_nslots == 0)
        return NULL;
    uint32_t at = cat->dyn_slots[dyn_slot(cat, id)];
    return at ? cat->dyns[at - 1].desc : NULL;
}

/* Index dyns[i] (under cat->lock), growing the index to keep it half
 * empty. false when out of memory (the entry is then unindexed: callers
 * undo the append). */
static bool dyn_index(rl_catalog *cat, size_t i)
{
    if (2 * (cat->ndyns + 1) > cat->dyn_nslots) {
        size_t n = cat->dyn_nslots ? cat->dyn_nslots * 2 : 64;
        uint32_t *slots = calloc(n, sizeof *slots);
        if (!slots)
            return false;
        free(cat->dyn_slots);
        cat->dyn_slots = slots;
        cat->dyn_nslots = n;
        for (size_t j = 0; j < i; j++)
            cat->dyn_slots[dyn_slot(cat, cat->dyns[j].desc->dyn_id)] = (uint32_t)(j + 1);
    }
    cat->dyn_slots[dyn_slot(cat, cat->dyns[i].desc->dyn_id)] = (uint32_t)(i + 1);
    return true;
}

/* Cache a descriptor in the catalog (which owns it from then on). */
static const rl_table_desc *dyn_cache_put(rl_catalog *cat, rl_table_desc *d, const char *schema)
{
    pthread_mutex_lock(&cat->lock);
    const rl_table_desc *have = dyn_find(cat, d->dyn_id);
    if (have) {
        pthread_mutex_unlock(&cat->lock);
        rl_dynamic_desc_free(d);
        return have;
    }
    dyn_entry *grown = cat->ndyns < UINT32_MAX - 1
                           ? rl_array_reserve(cat->dyns, cat->ndyns, &cat->capdyns, sizeof *grown, 16)
                           : NULL;
    if (!grown) {
        pthread_mutex_unlock(&cat->lock);
        rl_dynamic_desc_free(d);
        return NULL;
    }
    cat->dyns = grown;
    cat->dyns[cat->ndyns].desc = d;
    snprintf(cat->dyns[cat->ndyns].schema, sizeof cat->dyns[0].schema, "%s", schema);
    if (!dyn_index(cat, cat->ndyns)) {
        pthread_mutex_unlock(&cat->lock);
        rl_dynamic_desc_free(d);
        return NULL;
    }
    cat->ndyns++;
    assert(dyn_find(cat, d->dyn_id) == d);
    pthread_mutex_unlock(&cat->lock);
    return d;
}

static const rl_table_desc *dyn_load(rl_txn *t, uint64_t id, rl_error *err)
{
    pthread_mutex_lock(&t->cat->lock);
    const rl_table_desc *cached = dyn_find(t->cat, id);
    pthread_mutex_unlock(&t->cat->lock);
    if (cached)
        return cached;
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_dynamic_table(&k, id);
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = view_get(t, k.data, k.len, &v, &vlen, err);
    rl_buf_free(&k);
    if (rc <= 0) {
        if (rc == 0)
            rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                         "dynamic table %" PRIu64 " is indexed but has no definition", id);
        return NULL;
    }
    char schema[128];
    rl_table_desc *d = rl_dynamic_desc_decode(id, v, vlen, schema, sizeof schema);
    free(v);
    if (!d) {
        rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                     "definition of dynamic table %" PRIu64 " does not decode", id);
        return NULL;
    }
    return dyn_cache_put(t->cat, d, schema);
}

/* Name index lookup: 1 with *fixed_tag or *dyn_id set, 0 absent, -1 error. */
static int name_lookup_store(rl_txn *t, const char *schema, const char *name,
                             uint8_t *fixed_tag, uint64_t *dyn_id, rl_error *err);

static uint64_t name_hash(const char *schema, const char *name)
{
    uint64_t h = rl_hash_bytes(RL_HASH_SEED, schema, strlen(schema) + 1); /* NUL separates */
    return rl_hash_bytes(h, name, strlen(name));
}

/* A cached answer for (schema, name) at the transaction's name generation. */
static bool name_cache_get(rl_txn *t, uint64_t h, const char *schema, const char *name,
                           int *rc, uint8_t *tag, uint64_t *dyn_id)
{
    rl_catalog *cat = t->cat;
    /* a follower does not see which commits change names */
    if (t->wrote_names || !t->snap || cat->read_only)
        return false;
    bool hit = false;
    pthread_mutex_lock(&cat->name_lock);
    const name_cache_entry *e = &cat->names[h % NAME_CACHE_SIZE];
    if (e->gen == t->name_gen && e->hash == h && strcmp(e->schema, schema) == 0 &&
        strcmp(e->name, name) == 0) {
        *rc = e->rc;
        *tag = e->tag;
        *dyn_id = e->dyn_id;
        hit = true;
    }
    pthread_mutex_unlock(&cat->name_lock);
    return hit;
}

static void name_cache_put(rl_txn *t, uint64_t h, const char *schema, const char *name, int rc,
                           uint8_t tag, uint64_t dyn_id)
{
    rl_catalog *cat = t->cat;
    if (t->wrote_names || !t->snap || cat->read_only ||
        strlen(schema) >= sizeof cat->names[0].schema ||
        strlen(name) >= sizeof cat->names[0].name)
        return;
    pthread_mutex_lock(&cat->name_lock);
    name_cache_entry *e = &cat->names[h % NAME_CACHE_SIZE];
    e->gen = t->name_gen;
    e->hash = h;
    rl_str_copy(e->schema, sizeof e->schema, schema);
    rl_str_copy(e->name, sizeof e->name, name);
    e->rc = rc;
    e->tag = tag;
    e->dyn_id = dyn_id;
    pthread_mutex_unlock(&cat->name_lock);
}

static int name_lookup(rl_txn *t, const char *schema, const char *name, uint8_t *fixed_tag,
                       uint64_t *dyn_id, rl_error *err)
{
    uint64_t h = name_hash(schema, name);
    int cached;
    if (name_cache_get(t, h, schema, name, &cached, fixed_tag, dyn_id))
        return cached;
    int rc = name_lookup_store(t, schema, name, fixed_tag, dyn_id, err);
    if (rc >= 0)
        name_cache_put(t, h, schema, name, rc, rc == 1 ? *fixed_tag : 0, rc == 1 ? *dyn_id : 0);
    return rc;
}

static int name_lookup_store(rl_txn *t, const char *schema, const char *name,
                             uint8_t *fixed_tag, uint64_t *dyn_id, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_dynamic_name(&k, schema, name);
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = view_get(t, k.data, k.len, &v, &vlen, err);
    rl_buf_free(&k);
    if (rc == 1) {
        *fixed_tag = 0;
        *dyn_id = 0;
        if (vlen == 1)
            *fixed_tag = v[0];
        else if (vlen == 8)
            *dyn_id = rl_load_be64(v);
        else
            rc = rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                              "name index entry of \"%s.%s\" is malformed", schema, name);
    }
    free(v);
    return rc;
}

const rl_table_desc *rl_txn_find_table(rl_txn *t, const char *schema, const char *name,
                                       rl_error *err)
{
    uint8_t tag;
    uint64_t id;
    int rc = name_lookup(t, schema, name, &tag, &id, err);
    if (rc < 0)
        return NULL;
    if (rc == 0) {
        rl_error_set(err, RL_SQLSTATE_UNDEFINED_TABLE, "relation \"%s.%s\" does not exist", schema,
                     name);
        return NULL;
    }
    if (tag) {
        const rl_table_desc *d = rl_desc_by_tag(tag);
        if (!d || !rl_desc_in_format(d, t->fmt))
            rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                         "\"%s.%s\" is registered as unknown table tag 0x%02x", schema, name, tag);
        return d;
    }
    return dyn_load(t, id, err);
}

const rl_table_desc *rl_txn_find_dynamic(rl_txn *t, const char *schema, const char *name,
                                         rl_error *err)
{
    const rl_table_desc *d = rl_txn_find_table(t, schema, name, err);
    if (d && d->tag != RL_TAG_DYNAMIC_ROW) {
        rl_error_set(err, RL_SQLSTATE_UNDEFINED_TABLE, "\"%s.%s\" is not a dynamic table",
                     schema, name);
        return NULL;
    }
    return d;
}

const rl_table_desc *rl_txn_create_dynamic(rl_txn *t, const char *schema, const char *name,
                                           size_t ncols, const rl_column_desc *cols,
                                           bool if_not_exists, rl_error *err)
{
    relations_changed(t); /* before any early return: a failed try may have written */
    if (!is_write_allowed(t, err))
        return NULL;
    if (ncols > RL_MAX_COLUMNS) {
        rl_error_set(err, RL_SQLSTATE_TOO_MANY_COLUMNS, "tables can have at most %d columns in RockLake",
                     RL_MAX_COLUMNS);
        return NULL;
    }
    rl_error probe;
    const rl_table_desc *have = rl_txn_find_table(t, schema, name, &probe);
    if (have) {
        if (if_not_exists && have->tag == RL_TAG_DYNAMIC_ROW)
            return have;
        rl_error_set(err, RL_SQLSTATE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
        return NULL;
    }
    if (strcmp(probe.sqlstate, RL_SQLSTATE_UNDEFINED_TABLE) != 0) {
        if (err)
            *err = probe;
        return NULL;
    }
    uint64_t id;
    if (alloc_seq(t->cat, RL_COUNTER_NEXT_DYNAMIC_ID, &id, err) < 0 ||
        touch_counter(t, RL_COUNTER_NEXT_DYNAMIC_ID, id + 1, err) < 0)
        return NULL;
    rl_table_desc *d = dyn_desc_new(id, name, ncols);
    if (!d) {
        oom(err);
        return NULL;
    }
    rl_column_desc *dc = (rl_column_desc *)d->cols;
    for (size_t i = 0; i < ncols; i++) {
        dc[i] = cols[i];
        dc[i].since = RL_FMT_1_0;
        if (!(dc[i].name = strdup(cols[i].name))) {
            d->ncols_max = (uint8_t)i;
            rl_dynamic_desc_free(d);
            oom(err);
            return NULL;
        }
    }
    rl_buf colbytes, k;
    rl_buf_init(&colbytes, 0);
    rl_buf_init(&k, 0);
    encode_dyn_columns(&colbytes, ncols, cols);
    rl_datum row[RL_DYN_NCOLS];
    memset(row, 0, sizeof row);
    row[RL_DYN_ID].v.i = (int64_t)id;
    row[RL_DYN_SCHEMA].v.s.p = (const uint8_t *)schema;
    row[RL_DYN_SCHEMA].v.s.len = strlen(schema);
    row[RL_DYN_NAME].v.s.p = (const uint8_t *)name;
    row[RL_DYN_NAME].v.s.len = strlen(name);
    row[RL_DYN_COLUMNS].v.s.p = colbytes.data;
    row[RL_DYN_COLUMNS].v.s.len = colbytes.len;
    rl_key_dynamic_name(&k, schema, name);
    uint8_t idbytes[8];
    rl_store_be64(idbytes, id);
    int rc = colbytes.failed ? oom(err) : add_row(t, &rl_desc_dynamic_table, row, 0, err);
    if (rc == 0)
        rc = ov_set(t, k.data, k.len, idbytes, 8, err);
    if (rc == 0) /* dropped and re-created in this txn is fine: see expect_unique */
        rc = expect_unique(t, k.data, k.len, name, "", err);
    rl_buf_free(&colbytes);
    rl_buf_free(&k);
    if (rc < 0) {
        rl_dynamic_desc_free(d);
        return NULL;
    }
    return dyn_cache_put(t->cat, d, schema);
}

static int delete_rows_of(rl_txn *t, const rl_table_desc *d, rl_error *err);

int rl_txn_drop_dynamic(rl_txn *t, const rl_table_desc *d, rl_error *err)
{
    relations_changed(t); /* before any early return: a failed try may have written */
    if (!is_write_allowed(t, err))
        return -1;
    if (delete_rows_of(t, d, err) < 0)
        return -1;
    int rc;
    /* then the definition and its name index */
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_dynamic_table(&k, d->dyn_id);
    uint8_t *v = NULL;
    size_t vlen = 0;
    char schema[128] = "";
    rc = view_get(t, k.data, k.len, &v, &vlen, err);
    if (rc == 1) {
        rl_table_desc *tmp = rl_dynamic_desc_decode(d->dyn_id, v, vlen, schema, sizeof schema);
        rl_dynamic_desc_free(tmp);
        rc = ov_set(t, k.data, k.len, NULL, 0, err);
        if (rc == 0) {
            rl_buf_reset(&k);
            rl_key_dynamic_name(&k, schema, d->name);
            rc = ov_set(t, k.data, k.len, NULL, 0, err);
        }
    } else if (rc == 0) {
        rc = rl_error_set(err, RL_SQLSTATE_UNDEFINED_TABLE, "relation \"%s\" does not exist",
                          d->name);
    }
    free(v);
    rl_buf_free(&k);
    return rc < 0 ? -1 : 0;
}

/* ------------------------------------------------- names, schemas, drops */

/* The schema that already holds DuckLake's fixed tables, if any. */
static int fixed_schema_in_use(rl_txn *t, char *out, size_t n, rl_error *err);

int rl_txn_register_fixed(rl_txn *t, const char *schema, const rl_table_desc *d,
                          bool if_not_exists, rl_error *err)
{
    relations_changed(t); /* before any early return: a failed try may have written */
    if (!is_write_allowed(t, err))
        return -1;
    uint8_t tag;
    uint64_t id;
    int rc = name_lookup(t, schema, d->name, &tag, &id, err);
    if (rc < 0)
        return -1;
    if (rc == 1) {
        if (if_not_exists)
            return 0;
        return rl_error_set(err, RL_SQLSTATE_DUPLICATE_TABLE, "relation \"%s\" already exists",
                            d->name);
    }
    char other[128] = "";
    if (fixed_schema_in_use(t, other, sizeof other, err) < 0)
        return -1;
    if (other[0] && strcmp(other, schema) != 0) {
        rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                     "RockLake keeps one DuckLake metadata schema per database, and this database "
                     "already has it in schema \"%s\"",
                     other);
        rl_error_hint(err, "attach another database (lake) for a second DuckLake catalog, or use "
                           "METADATA_SCHEMA '%s'", other);
        return -1;
    }
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_dynamic_name(&k, schema, d->name);
    rc = ov_set(t, k.data, k.len, &d->tag, 1, err);
    if (rc == 0)
        rc = expect_unique(t, k.data, k.len, d->name, "", err);
    rl_buf_free(&k);
    return rc;
}

/* A merged (overlay over store) scan of raw keys under `prefix`, which the
 * caller owns and keeps alive; read with scan_merged_next, end with
 * kv_iter_free(s->it). */
static int raw_scan_open(rl_txn *t, rl_scan *s, uint8_t *prefix, size_t plen, rl_error *err)
{
    memset(s, 0, sizeof *s);
    s->txn = t;
    s->prefix = prefix;
    s->plen = plen;
    kv_error ke;
    s->it = kv_scan_prefix(t->cat->kv, t->snap, prefix, plen, &ke);
    if (!s->it)
        return kv_fail(err, &ke, "listing names");
    s->ovi = ov_lower_bound(t, prefix, plen);
    return 0;
}

/* What scan_index_keys hands on for each entry: the strings of its key
 * (NUL-terminated) and its value; 0 goes on, anything else ends the scan
 * with that result. */
typedef int (*index_entry_fn)(void *ctx, char *const *strs, const uint8_t *v, size_t vl,
                              rl_error *err);

/* Every entry of index `kind`, whose keys hold `nstr` (1 or 2) strings
 * after the index's 2-byte prefix, handed to `each`; a key that does not
 * decode is corruption ("malformed <what> index key"). */
static int scan_index_keys(rl_txn *t, uint8_t kind, size_t nstr, const char *what,
                           index_entry_fn each, void *ctx, rl_error *err)
{
    uint8_t prefix[RL_KEY_INDEX_PREFIX_LEN];
    rl_scan s;
    if (raw_scan_open(t, &s, prefix, rl_key_index_prefix(prefix, kind), err) < 0)
        return -1;
    const uint8_t *k, *v;
    size_t kl, vl;
    rl_buf b[2];
    char *strs[2] = {NULL, NULL};
    rl_buf_init(&b[0], 0);
    rl_buf_init(&b[1], 0);
    int rc;
    while ((rc = scan_merged_next(&s, &k, &kl, &v, &vl, err)) == 1) {
        rl_reader r;
        rl_reader_init(&r, k + 2, kl - 2);
        bool ok = true;
        for (size_t i = 0; i < nstr && ok; i++) {
            rl_buf_reset(&b[i]);
            ok = rl_key_get_str(&r, &b[i]);
            rl_buf_put_u8(&b[i], 0);
            strs[i] = (char *)b[i].data;
        }
        if (!ok) {
            rc = rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED, "malformed %s index key", what);
            break;
        }
        if ((rc = each(ctx, strs, v, vl, err)) != 0)
            break;
    }
    kv_iter_free(s.it);
    rl_buf_free(&b[0]);
    rl_buf_free(&b[1]);
    return rc;
}

/* What visit_names' entries go to. */
typedef struct name_visit {
    rl_txn *t;
    rl_table_visitor visit;
    void *ctx;
    bool resolve; /* every table, its descriptor loaded; else only fixed ones */
} name_visit;

/* One name index entry (schema, name -> tag or dynamic id) resolved to its
 * table and visited; unresolved, an entry other than a fixed table's is
 * passed over. */
static int visit_name(void *ctx, char *const *strs, const uint8_t *v, size_t vl, rl_error *err)
{
    name_visit *nv = ctx;
    const rl_table_desc *d = NULL;
    if (nv->resolve) {
        if (vl == 1)
            d = rl_desc_by_tag(v[0]);
        else if (vl == 8)
            d = dyn_load(nv->t, rl_load_be64(v), err);
        if (!d) {
            if (!err || !err->sqlstate[0])
                rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED, "table \"%s\" does not resolve",
                             strs[1]);
            return -1;
        }
    } else if (vl != 1 || !(d = rl_desc_by_tag(v[0]))) {
        return 0; /* only fixed tables asked for */
    }
    return nv->visit(nv->ctx, strs[0], strs[1], d);
}

/* Visit name index entries, decoding each. */
static int visit_names(rl_txn *t, rl_table_visitor visit, void *ctx, bool resolve, rl_error *err)
{
    name_visit nv = {t, visit, ctx, resolve};
    return scan_index_keys(t, RL_INDEX_DYNAMIC_NAME, 2, "table name", visit_name, &nv, err);
}

int rl_txn_list_tables(rl_txn *t, rl_table_visitor visit, void *ctx, rl_error *err)
{
    return visit_names(t, visit, ctx, true, err);
}

/* What first_table looks for, and what it found. */
typedef struct table_probe {
    const char *schema; /* a table in this schema; NULL: in any */
    char *out;          /* NULL, or the found table's schema into out[n] */
    size_t n;
    bool found;
} table_probe;

/* A visit_names visitor that stops at the first table of the probe's
 * schema (any schema when it names none), noting it. */
static int first_table(void *ctx, const char *schema, const char *name, const rl_table_desc *d)
{
    table_probe *p = ctx;
    if (p->schema && strcmp(schema, p->schema) != 0)
        return 0;
    p->found = true;
    if (p->out)
        snprintf(p->out, p->n, "%s", schema);
    return 1; /* one is enough */
}

static int fixed_schema_in_use(rl_txn *t, char *out, size_t n, rl_error *err)
{
    table_probe p = {.out = out, .n = n};
    out[0] = 0;
    int rc = visit_names(t, first_table, &p, false, err);
    return rc < 0 ? -1 : 0;
}

rl_format rl_txn_format(const rl_txn *t) { return t->fmt; }

size_t rl_txn_table_ncols(const rl_txn *t, const rl_table_desc *d)
{
    if (d->tag == RL_TAG_DYNAMIC_ROW)
        return d->ncols_max;
    return rl_desc_ncols(d, table_format(t, d));
}

int rl_txn_migrate_table(rl_txn *t, const rl_table_desc *d, rl_format fmt, rl_error *err)
{
    relations_changed(t); /* before any early return: a failed try may have written */
    assert(d->tag < 64 && d->tag != RL_TAG_DYNAMIC_ROW);
    rl_format old = t->fmt;
    if (fmt != old) {
        if (rl_txn_set_format(t, fmt, err) < 0)
            return -1;
        /* the other tables whose shape differs keep the old one until the
         * migration reaches them, as each ALTER TABLE does in PostgreSQL */
        t->lag_fmt = old;
        t->lagging = 0;
        for (size_t i = 0; i < rl_ntables; i++) {
            const rl_table_desc *o = &rl_tables[i];
            if (!o->internal && rl_desc_in_format(o, old) &&
                rl_desc_ncols(o, old) != rl_desc_ncols(o, fmt))
                t->lagging |= tag_bit(o->tag);
        }
    }
    t->lagging &= ~tag_bit(d->tag);
    t->vc_desc = NULL;
    return 0;
}

bool rl_txn_table_lagging(const rl_txn *t, const rl_table_desc *d)
{
    return d->tag != RL_TAG_DYNAMIC_ROW && (t->lagging & tag_bit(d->tag));
}

int rl_txn_set_format(rl_txn *t, rl_format fmt, rl_error *err)
{
    relations_changed(t); /* before any early return: a failed try may have written */
    if (!is_write_allowed(t, err))
        return -1;
    if (fmt == t->fmt)
        return 0;
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_system(&k, RL_SYS_DUCKLAKE_FORMAT);
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = view_get(t, k.data, k.len, &v, &vlen, err);
    /* a concurrent change of the format (another migration) is a conflict */
    if (rc >= 0 && !ov_find(t, k.data, k.len))
        rc = add_expectation(t, EXPECT_VALUE, k.data, k.len, rc == 1 ? v : NULL, vlen, NULL,
                             NULL, err);
    const char *name = rl_format_name(fmt);
    if (rc >= 0)
        rc = ov_set(t, k.data, k.len, (const uint8_t *)name, strlen(name), err);
    free(v);
    rl_buf_free(&k);
    if (rc < 0)
        return -1;
    t->fmt = fmt;
    t->fmt_changed = true;
    t->vc_desc = NULL; /* value layouts follow the shapes */
    return 0;
}

int rl_txn_fixed_schema(rl_txn *t, char *out, size_t n, rl_error *err)
{
    return fixed_schema_in_use(t, out, n, err);
}

/* Delete every row under `prefix` (collect keys first: deleting changes the
 * overlay the scan walks). Index entries of the rows go too. */
static int delete_rows_of(rl_txn *t, const rl_table_desc *d, rl_error *err)
{
    rl_scan *s = rl_txn_scan(t, d, NULL, 0, err);
    if (!s)
        return -1;
    uint8_t **keys = NULL;
    size_t *lens = NULL, n = 0, cap = 0;
    const rl_row *row;
    int rc;
    while ((rc = rl_scan_next(s, &row, err)) == 1) {
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            uint8_t **nk = realloc(keys, cap * sizeof *nk);
            if (nk)
                keys = nk;
            size_t *nl = nk ? realloc(lens, cap * sizeof *nl) : NULL;
            if (!nk || !nl) {
                rc = oom(err);
                break;
            }
            lens = nl;
        }
        if (!(keys[n] = dup_bytes(row->key, row->klen))) {
            rc = oom(err);
            break;
        }
        lens[n++] = row->klen;
    }
    rl_scan_free(s);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0)
            rc = d->tag == RL_TAG_DYNAMIC_ROW ? ov_set(t, keys[i], lens[i], NULL, 0, err)
                                              : rl_txn_delete(t, d, keys[i], lens[i], err);
        free(keys[i]);
    }
    free(keys);
    free(lens);
    return rc < 0 ? -1 : 0;
}

int rl_txn_drop_table(rl_txn *t, const char *schema, const char *name, rl_error *err)
{
    relations_changed(t); /* before any early return: a failed try may have written */
    if (!is_write_allowed(t, err))
        return -1;
    const rl_table_desc *d = rl_txn_find_table(t, schema, name, err);
    if (!d)
        return -1;
    if (d->tag == RL_TAG_DYNAMIC_ROW)
        return rl_txn_drop_dynamic(t, d, err);
    if (delete_rows_of(t, d, err) < 0)
        return -1;
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_dynamic_name(&k, schema, name);
    int rc = ov_set(t, k.data, k.len, NULL, 0, err);
    rl_buf_free(&k);
    return rc;
}

static void schema_key(rl_buf *k, const char *schema)
{
    rl_key_schema(k, schema);
}

bool rl_txn_schema_exists(rl_txn *t, const char *schema)
{
    if (strcmp(schema, "public") == 0)
        return true;
    rl_buf k;
    rl_buf_init(&k, 0);
    schema_key(&k, schema);
    int rc = view_get(t, k.data, k.len, NULL, NULL, NULL);
    rl_buf_free(&k);
    return rc == 1;
}

int rl_txn_create_schema(rl_txn *t, const char *schema, bool if_not_exists, rl_error *err)
{
    relations_changed(t); /* before any early return: a failed try may have written */
    if (!is_write_allowed(t, err))
        return -1;
    if (rl_txn_schema_exists(t, schema)) {
        if (if_not_exists)
            return 0;
        return rl_error_set(err, RL_SQLSTATE_DUPLICATE_SCHEMA, "schema \"%s\" already exists", schema);
    }
    rl_buf k;
    rl_buf_init(&k, 0);
    schema_key(&k, schema);
    int rc = ov_set(t, k.data, k.len, (const uint8_t *)"", 0, err);
    if (rc == 0)
        rc = expect_unique(t, k.data, k.len, schema, "", err);
    rl_buf_free(&k);
    return rc;
}

/* What list_schema hands each schema to. */
typedef struct schema_visit {
    rl_schema_visitor visit;
    void *ctx;
} schema_visit;

/* One schema index entry visited by its name. */
static int list_schema(void *ctx, char *const *strs, const uint8_t *v, size_t vl, rl_error *err)
{
    schema_visit *sv = ctx;
    return sv->visit(sv->ctx, strs[0]);
}

int rl_txn_list_schemas(rl_txn *t, rl_schema_visitor visit, void *ctx, rl_error *err)
{
    schema_visit sv = {visit, ctx};
    return scan_index_keys(t, RL_INDEX_SCHEMA, 1, "schema", list_schema, &sv, err);
}

int rl_txn_drop_schema(rl_txn *t, const char *schema, rl_error *err)
{
    relations_changed(t); /* before any early return: a failed try may have written */
    if (!is_write_allowed(t, err))
        return -1;
    if (strcmp(schema, "public") == 0 || !rl_txn_schema_exists(t, schema))
        return rl_error_set(err, RL_SQLSTATE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", schema);
    table_probe u = {.schema = schema};
    if (visit_names(t, first_table, &u, true, err) < 0)
        return -1;
    if (u.found) {
        rl_error_set(err, RL_SQLSTATE_DEPENDENT_OBJECTS_STILL_EXIST,
                     "cannot drop schema %s because other objects depend on it", schema);
        rl_error_hint(err, "drop the schema's tables first");
        return -1;
    }
    rl_buf k;
    rl_buf_init(&k, 0);
    schema_key(&k, schema);
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = view_get(t, k.data, k.len, &v, &vlen, err);
    if (rc == 1) {
        /* the schema must still be the one we saw when we commit */
        rc = add_expectation(t, EXPECT_VALUE, k.data, k.len, v, vlen, NULL, NULL, err);
        if (rc == 0)
            rc = ov_set(t, k.data, k.len, NULL, 0, err);
    }
    free(v);
    rl_buf_free(&k);
    return rc < 0 ? -1 : 0;
}

/* ------------------------------------------------ for the wire layer (#17) */

char *rl_store_local_dir(const char *url) { return kv_local_dir(url); }

int rl_store_list_names(const char *url, char **out, size_t *len, rl_error *err)
{
    kv_error ke;
    return kv_list_dirs(url, out, len, &ke) < 0 ? kv_fail(err, &ke, "listing the store") : 0;
}

int rl_store_exists(const char *url, rl_error *err)
{
    kv_error ke;
    int rc = kv_store_exists(url, &ke);
    return rc < 0 ? kv_fail(err, &ke, "looking for a store") : rc;
}

int rl_catalog_memory_stats(rl_catalog *cat, rl_catalog_memory *out)
{
    kv_mirror_info mi;
    int rc = kv_mirror_stats(cat->kv, &mi);
    *out = (rl_catalog_memory){.keys = mi.keys, .bytes = mi.bytes, .abandoned = mi.broken != 0};
    return rc;
}

void rl_store_counters_get(rl_store_counters *out)
{
    kv_counters kc;
    kv_counters_get(&kc);
    *out = (rl_store_counters){kc.gets, kc.scans, kc.keys_read, kc.batches_written,
                               kc.bytes_written};
}

bool rl_txn_own_snapshot(const rl_txn *t, uint64_t *id)
{
    *id = t->inserted_snapshot ? t->max_snapshot_inserted : 0;
    return t->inserted_snapshot;
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
    int rc = first_snapshot_row(t, &sc, &oldest, err);
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


bool rl_scan_start_hex(rl_buf *out, const rl_table_desc *d, const rl_datum *fields,
                       size_t nfields)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    bool ok = rl_key_encode_prefix(&k, d, fields, nfields) == RL_KEY_OK && !k.failed;
    if (!k.failed)
        rl_key_hex(out, k.data, k.len);
    rl_buf_free(&k);
    return ok;
}
