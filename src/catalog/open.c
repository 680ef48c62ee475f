/*
 * open.c — a catalog handle: open (lease check, create, format version,
 * copy marker, writer epoch, lease heartbeat), close, shutdown, its
 * accessors, and the store figures the layers above read (catalog.h).
 *
 * Owns: struct rl_catalog's life and the system keys of a new catalog.
 *
 * Invariants: a writer opens the store only after it found no live lease
 * of another writer (unless takeover), and bumps the writer epoch before
 * it serves; a salvaging open is read-only.
 */
#include "catalog/catalog_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "base/crashpoint.h"
#include "keys/keys.h"
#include "keys/tags.h"

static int create_catalog(rl_catalog *cat, rl_format fmt, const char *copy_marker,
                          rl_error *err)
{
    kv_batch *b = kv_batch_new();
    if (copy_marker)
        cat_batch_set_system(b, RL_SYS_COPY_INCOMPLETE, copy_marker, strlen(copy_marker));
    cat_batch_put_system_u64(b, RL_SYS_FORMAT_VERSION, RL_STORAGE_FORMAT_VERSION);
    cat_batch_put_system_u64(b, RL_SYS_RETAIN_FROM, 0);
    cat_batch_put_system_u64(b, RL_SYS_CREATED_AT, (uint64_t)cat_now_pg_micros());
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
        return cat_kv_fail(err, &ke, "creating catalog");
    rl_crash_point(RL_CRASH_CATALOG_CREATED);
    return 0;
}

static int read_format(rl_catalog *cat, rl_error *err) { return cat_load_format(cat, NULL, &cat->fmt, err); }

/* Check the layout version, creating the catalog if allowed. */
static int check_or_create(rl_catalog *cat, const rl_catalog_options *o, const char *url,
                           rl_error *err)
{
    uint64_t ver = 0;
    bool found = false;
    if (cat_get_system_u64(cat->kv, RL_SYS_FORMAT_VERSION, &ver, &found, err) < 0)
        return -1;
    if (!found) {
        if (!o->create_if_missing || o->read_only || o->store.journal_salvage) {
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
    int rc = cat_get_system(kv, RL_SYS_COPY_INCOMPLETE, &v, &vlen, err);
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
    cat_batch_set_system(b, RL_SYS_COPY_INCOMPLETE, text, text ? strlen(text) : 0);
    kv_error ke;
    int rc = kv_write(cat->kv, b, &ke);
    kv_batch_free(b);
    return rc < 0 ? cat_kv_fail(err, &ke, "writing copy-incomplete") : 0;
}

int rl_catalog_copy_marker_set(rl_catalog *cat, const char *text, rl_error *err)
{
    return copy_marker_write(cat, text, err);
}

int rl_catalog_copy_marker_clear(rl_catalog *cat, rl_error *err)
{
    return copy_marker_write(cat, NULL, err);
}

/* A reader of the store at url, and whether it holds a catalog: 1 with
 * *out open (the caller closes it), 0 when there is no store or no catalog
 * in it, -1 with err. */
static int catalog_reader(const char *url, uint32_t store_timeout_ms, kv_db **out, rl_error *err)
{
    *out = NULL;
    kv_error ke;
    kv_options ko = {.reader_no_writes = 1, .mirror_max_bytes = -1,
                     .store_timeout_ms = store_timeout_ms};
    kv_db *kv = kv_open_reader(url, &ko, &ke);
    if (!kv)
        return kv_error_is_no_store(&ke) ? 0 : cat_kv_fail(err, &ke, "looking for a catalog");
    bool found = false;
    uint64_t ver = 0;
    int rc = cat_get_system_u64(kv, RL_SYS_FORMAT_VERSION, &ver, &found, err);
    if (rc < 0 || !found) {
        kv_close(kv, NULL);
        return rc < 0 ? -1 : 0;
    }
    *out = kv;
    return 1;
}

int rl_catalog_exists(const char *url, uint32_t store_timeout_ms, rl_error *err)
{
    kv_db *kv;
    int rc = catalog_reader(url, store_timeout_ms, &kv, err);
    kv_close(kv, NULL);
    return rc;
}

int rl_catalog_probe(const char *url, uint32_t store_timeout_ms, rl_lease_owner *lease,
                     bool *lease_found, rl_error *err)
{
    *lease_found = false;
    kv_db *kv;
    int rc = catalog_reader(url, store_timeout_ms, &kv, err);
    if (rc == 1) {
        int lrc = rl_lease_get(kv, url, lease, err);
        if (lrc < 0)
            rc = -1;
        *lease_found = lrc == 1;
    }
    kv_close(kv, NULL);
    return rc;
}

static int bump_writer_epoch(rl_catalog *cat, rl_error *err)
{
    uint64_t epoch = 0;
    bool found = false;
    if (cat_get_system_u64(cat->kv, RL_SYS_WRITER_EPOCH, &epoch, &found, err) < 0)
        return -1;
    cat->epoch = epoch + 1;
    kv_batch *b = kv_batch_new();
    cat_batch_put_system_u64(b, RL_SYS_WRITER_EPOCH, cat->epoch);
    kv_error ke;
    int rc = kv_write(cat->kv, b, &ke);
    kv_batch_free(b);
    return rc < 0 ? cat_kv_fail(err, &ke, "recording writer epoch") : 0;
}

/* Is `held` a lease this process wrote (the same host, pid and process
 * start, and boot when known)? */
static bool lease_is_mine(const rl_lease_owner *held)
{
    rl_lease_owner me = {.pid = (int64_t)getpid()};
    if (gethostname(me.host, sizeof me.host) != 0 || !me.host[0])
        snprintf(me.host, sizeof me.host, "-");
    me.host[sizeof me.host - 1] = 0;
    rl_lease_identify_self(&me);
    return held->pid == me.pid && strcmp(held->host, me.host) == 0 &&
           held->proc_start == me.proc_start && strcmp(held->boot_id, me.boot_id) == 0;
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
    pthread_mutex_init(&cat->seq_lock, NULL);
    cat->name_gen = 1;
    atomic_flag_clear(&cat->failed_claim);
    atomic_init(&cat->failed, false);
    atomic_init(&cat->fenced, false);
    char *local = kv_local_dir(url);
    cat->object_store = !local;
    free(local);
    /* a writer open that salvaged a journal serves what it recovered, read-only */
    cat->read_only = o->read_only || o->store.journal_salvage;
    cat->sequence_commits = o->sequence_commits && !cat->read_only;
    kv_error ke;
    uint64_t t0 = rl_monotonic_ns();
    if (!o->read_only && !o->takeover) {
        /* before opening as writer, which would fence a running one */
        rl_lease_owner held;
        int rc = 0;
        if (o->lease_probed && o->lease) {
            held = *o->lease;
            rc = 1;
        } else if (!o->lease_probed) {
            rc = rl_lease_read(url, &o->store, &held, err);
        }
        if (rc < 0)
            goto fail;
        int64_t age;
        if (rc == 1 && rl_lease_live(&held, rl_lease_now_ms(), &age) &&
            !(o->takeover_self && lease_is_mine(&held))) {
            rl_lease_refuse(err, url, &held, age);
            goto fail;
        }
    }
    kv_options ko = cat_kv_options(&o->store);
    /* a follower: its writer's lease heartbeats alone do not end its idle
     * backoff (lease.h) */
    uint8_t lease_key[64];
    size_t lease_klen = rl_key_system_to(lease_key, sizeof lease_key, RL_SYS_WRITER_LEASE);
    assert(lease_klen > 0 && lease_klen <= sizeof lease_key);
    ko.follower_quiet_key = lease_key;
    ko.follower_quiet_key_len = lease_klen;
    uint64_t t1 = rl_monotonic_ns();
    cat->timing.lease_check_ns = t1 - t0;
    cat->kv = o->read_only ? kv_open_reader(url, &ko, &ke) : kv_open_writer(url, &ko, &ke);
    if (!cat->kv) {
        cat_kv_fail(err, &ke, "opening store");
        rl_error_hint(err, "check the store URL (file:///path, a plain path, memory://name or "
                           "s3://bucket/prefix) and, for S3, the AWS_* environment variables");
        goto fail;
    }
    kv_open_timing_get(cat->kv, &cat->timing.store);
    uint64_t t2 = rl_monotonic_ns();
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
        rl_lease_identify_self(&me);
        me.host[sizeof me.host - 1] = 0;
        rl_str_copy(me.listen, sizeof me.listen, o->lease_listen ? o->lease_listen : "-");
        if (!(cat->lease = rl_lease_start(cat->kv, &me, err)))
            goto fail;
    }
    if (cat->read_only) {
        uint64_t e = 0;
        bool found;
        if (cat_get_system_u64(cat->kv, RL_SYS_WRITER_EPOCH, &e, &found, err) < 0)
            goto fail;
        cat->epoch = e;
    }
    cat->timing.catalog_ns = rl_monotonic_ns() - t2;
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
    if (cat->kv && !cat->read_only && !atomic_load(&cat->fenced))
        cat_seq_write_back(cat); /* while this writer holds the lease */
    rl_lease_stop(cat->lease, true);
    if (cat->kv) {
        kv_error ke;
        if (kv_close(cat->kv, &ke) < 0)
            rc = cat_kv_fail(err, &ke, "closing store");
    }
    for (size_t i = 0; i < cat->ndyns; i++)
        rl_dynamic_desc_free(cat->dyns[i].desc);
    free(cat->dyns);
    free(cat->dyn_slots);
    for (size_t i = 0; i < cat->nexts; i++) {
        free(cat->exts[i].val);
        rl_dynamic_desc_free(cat->exts[i].desc);
    }
    free(cat->exts);
    free(cat->counters);
    for (size_t i = 0; i < COMMIT_LOG_SIZE; i++)
        free(cat->log[i].blob);
    pthread_mutex_destroy(&cat->lock);
    pthread_mutex_destroy(&cat->name_lock);
    pthread_mutex_destroy(&cat->seq_lock);
    free(cat->seqs);
    free(cat);
    return rc;
}

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
        return rl_error_set(err, RL_SQLSTATE_IO, "the %s is still unavailable (%s)",
                            cat->object_store ? "object store" : "store", ke.message);
    return 0;
}

rl_format rl_catalog_format(const rl_catalog *cat) { return cat->fmt; }
uint64_t rl_catalog_writer_epoch(const rl_catalog *cat) { return cat->epoch; }
bool rl_catalog_read_only(const rl_catalog *cat) { return cat->read_only; }

bool rl_catalog_fenced(rl_catalog *cat)
{
    if (atomic_load(&cat->fenced))
        return true;
    pthread_mutex_lock(&cat->lock); /* rl_catalog_shutdown takes the lease away */
    bool fenced = rl_lease_fenced(cat->lease);
    pthread_mutex_unlock(&cat->lock);
    return fenced;
}
kv_db *rl_catalog_kv(rl_catalog *cat) { return cat->kv; }
uint64_t rl_catalog_size_bytes(rl_catalog *cat) { return kv_size_bytes(cat->kv); }

/* ------------------------------------------------ for the wire layer (#17) */

char *rl_store_local_dir(const char *url) { return kv_local_dir(url); }

int rl_store_list_names(const char *url, char **out, size_t *len, rl_error *err)
{
    kv_error ke;
    return kv_list_dirs(url, out, len, &ke) < 0 ? cat_kv_fail(err, &ke, "listing the store") : 0;
}

int rl_store_exists(const char *url, rl_error *err)
{
    kv_error ke;
    int rc = kv_store_exists(url, &ke);
    return rc < 0 ? cat_kv_fail(err, &ke, "looking for a store") : rc;
}

void rl_catalog_open_timing_get(const rl_catalog *cat, rl_catalog_open_timing *out)
{
    *out = cat->timing;
}

int rl_catalog_memory_stats(rl_catalog *cat, rl_catalog_memory *out)
{
    return kv_mirror_stats(cat->kv, out);
}

int rl_catalog_follower_backoff(rl_catalog *cat, uint64_t *poll_ms, int *idle)
{
    return kv_follower_backoff(cat->kv, poll_ms, idle);
}

void rl_store_counters_get(rl_store_counters *out) { kv_counters_get(out); }
