/*
 * slate.h — the raw entry points of the Rust staticlib (rust/src/lib.rs).
 *
 * Owns: nothing; it declares what kv.c builds kv.h on. Only kv.c and
 * batchcodec.c (slate_batch_op) include it: src/LAYERS keeps it private to
 * the kv layer. Each function behaves as the kv.h function of the same
 * suffix does on a store without the in-memory mirror (panics caught,
 * errors in *err, malloc'd out-buffers owned by the caller). kv_batch and kv_checkpoint
 * are shared with kv.h unchanged; kv_pending is kv.c's wrapper of a
 * slate_pending.
 *
 * The ABI: the structs the Rust side reads or writes are its repr(C) copies
 * (KvError, KvCheckpoint, KvCounters, SlateOptions in rust/src/lib.rs). Their
 * sizes and field offsets are pinned twice, by the _Static_asserts below and
 * by the const asserts beside the Rust structs, so a field added, removed or
 * moved on one side only fails the build of that side. Change a layout on
 * both sides and both pins together.
 */
#ifndef ROCKLAKE_SLATE_H
#define ROCKLAKE_SLATE_H

#include "kv/kv.h"

#include <stddef.h>

/* What the Rust side reads of kv_options: exactly these fields, copied by
 * kv.c (slate_options_of) so that kv_options may grow without touching the
 * ABI. Zero means "RockLake default" (kv.h). */
typedef struct slate_options {
    uint64_t flush_interval_ms;
    uint64_t block_cache_bytes;
    uint64_t reader_poll_interval_ms;
    uint64_t scan_read_ahead_bytes;
    uint32_t scan_fetch_tasks;
    uint32_t store_timeout_ms;
    int64_t follower_poll_max_ms;
    /* Followers: puts of quiet_key alone, and keys under quiet_prefix, are
     * no news (they do not end the idle backoff); read during the open
     * only. NULL/0: none. */
    const uint8_t *quiet_key;
    uint64_t quiet_key_len;
    const uint8_t *quiet_prefix;
    uint64_t quiet_prefix_len;
} slate_options;

/* The pins (rust/src/lib.rs repeats them with std::mem::size_of/offset_of). */
_Static_assert(sizeof(slate_options) == 80, "slate_options layout: see rust SlateOptions");
_Static_assert(offsetof(slate_options, flush_interval_ms) == 0, "slate_options layout");
_Static_assert(offsetof(slate_options, block_cache_bytes) == 8, "slate_options layout");
_Static_assert(offsetof(slate_options, reader_poll_interval_ms) == 16, "slate_options layout");
_Static_assert(offsetof(slate_options, scan_read_ahead_bytes) == 24, "slate_options layout");
_Static_assert(offsetof(slate_options, scan_fetch_tasks) == 32, "slate_options layout");
_Static_assert(offsetof(slate_options, store_timeout_ms) == 36, "slate_options layout");
_Static_assert(offsetof(slate_options, follower_poll_max_ms) == 40, "slate_options layout");
_Static_assert(offsetof(slate_options, quiet_key) == 48, "slate_options layout");
_Static_assert(offsetof(slate_options, quiet_key_len) == 56, "slate_options layout");
_Static_assert(offsetof(slate_options, quiet_prefix) == 64, "slate_options layout");
_Static_assert(offsetof(slate_options, quiet_prefix_len) == 72, "slate_options layout");

_Static_assert(sizeof(kv_error_kind) == sizeof(int), "kv_error.kind is a c_int in Rust");
_Static_assert(KV_OK == 0 && KV_ERR_FENCED == 1 && KV_ERR_CONFLICT == 2 && KV_ERR_IO == 3 &&
                   KV_ERR_CORRUPT == 4 && KV_ERR_INVALID == 5 && KV_ERR_CLOSED == 6 &&
                   KV_ERR_INTERNAL == 7 && KV_ERR_NO_STORE == 8,
               "kv_error_kind values: see rust KV_ERR_*");
_Static_assert(sizeof(kv_error) == 516, "kv_error layout: see rust KvError");
_Static_assert(offsetof(kv_error, kind) == 0 && offsetof(kv_error, message) == 4 &&
                   sizeof(((kv_error *)0)->message) == 512,
               "kv_error layout: see rust KvError");

_Static_assert(sizeof(kv_checkpoint) == 64, "kv_checkpoint layout: see rust KvCheckpoint");
_Static_assert(offsetof(kv_checkpoint, id) == 0 && sizeof(((kv_checkpoint *)0)->id) == 40 &&
                   offsetof(kv_checkpoint, manifest_id) == 40 &&
                   offsetof(kv_checkpoint, create_time_ms) == 48 &&
                   offsetof(kv_checkpoint, expire_time_ms) == 56,
               "kv_checkpoint layout: see rust KvCheckpoint");

_Static_assert(sizeof(kv_counters) == 40, "kv_counters layout: see rust KvCounters");
_Static_assert(offsetof(kv_counters, gets) == 0 && offsetof(kv_counters, scans) == 8 &&
                   offsetof(kv_counters, keys_read) == 16 &&
                   offsetof(kv_counters, batches_written) == 24 &&
                   offsetof(kv_counters, bytes_written) == 32,
               "kv_counters layout: see rust KvCounters");

typedef struct slate_db slate_db;
typedef struct slate_snapshot slate_snapshot;
typedef struct slate_iter slate_iter;

/* opts may be NULL (all defaults). from: NULL, or a reader of the same
 * url (open until this returns) whose block cache the writer shares and
 * whose WAL objects and manifests read its open answers from memory
 * (kv_options.promote_from). */
slate_db *slate_open_writer(const char *url, const slate_options *opts, const slate_db *from,
                            kv_error *err);
/* no_writes: a reader that keeps no SlateDB checkpoint (kv_options.reader_no_writes). */
slate_db *slate_open_reader(const char *url, const slate_options *opts, int no_writes,
                            kv_error *err);
int slate_is_reader(const slate_db *db);
/* kv_follower_backoff's answer; poll_ms / idle may be NULL. */
int slate_follower_backoff(const slate_db *db, uint64_t *poll_ms, int *idle);
int slate_close(slate_db *db, kv_error *err);
int slate_shutdown(slate_db *db, kv_error *err);

slate_snapshot *slate_snapshot_new(slate_db *db, kv_error *err);
void slate_snapshot_free(slate_snapshot *snap);
int slate_get(slate_db *db, slate_snapshot *snap, const uint8_t *key, size_t klen,
              uint8_t **val, size_t *vlen, kv_error *err);
slate_iter *slate_scan(slate_db *db, slate_snapshot *snap, const uint8_t *start, size_t slen,
                       const uint8_t *end, size_t elen, kv_error *err);
int slate_iter_next(slate_iter *it, const uint8_t **key, size_t *klen, const uint8_t **val,
                    size_t *vlen, kv_error *err);
int slate_iter_seek(slate_iter *it, const uint8_t *key, size_t klen, kv_error *err);
void slate_iter_free(slate_iter *it);
/* A writer's keys that cut its keyspace into `parts` ranges of about equal
 * stored size (first keys of data blocks weighted by their bytes), for a
 * load in parallel: *count keys (at most parts - 1, strictly ascending,
 * none empty) in one malloc'd *out of (u32 little-endian length, bytes)
 * entries, *out NULL when none (fewer than min_bytes stored, nothing to
 * split). 0, or -1 with err. */
int slate_load_splits(slate_db *db, uint32_t parts, uint64_t min_bytes, uint8_t **out,
                      size_t *outlen, size_t *count, kv_error *err);

/* The i-th op of b: 1 put, 0 delete (val NULL), -1 past the end. Pointers
 * borrow from b. */
int slate_batch_op(const kv_batch *b, size_t i, const uint8_t **key, size_t *klen,
                   const uint8_t **val, size_t *vlen);

/* The slate-level pending write (kv.c wraps it in its own kv_pending). */
typedef struct slate_pending slate_pending;
/* Apply b, plus one extra put when extra_key is not NULL, as one batch. */
int slate_write_begin(slate_db *db, const kv_batch *b, const uint8_t *extra_key,
                      size_t extra_klen, const uint8_t *extra_val, size_t extra_vlen,
                      slate_pending **out, kv_error *err);
int slate_write_wait(slate_pending *p, kv_error *err);
/* Consume p without waiting for SlateDB's WAL (the journal made it durable). */
void slate_write_release(slate_pending *p);
int slate_flush(slate_db *db, kv_error *err);
int slate_flush_memtable_async(slate_db *db, kv_error *err);
int slate_checkpoint_create(slate_db *db, uint64_t lifetime_ms, kv_checkpoint *out,
                            kv_error *err);
void slate_counters_get(kv_counters *out);

#endif
