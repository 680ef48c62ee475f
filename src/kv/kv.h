/*
 * kv.h — RockLake's whole interface to SlateDB.
 *
 * Owns: the C view of the key-value store. The implementation is kv.c over
 * the Rust staticlib in rust/src/lib.rs (crate `rocklake_kv`, a thin wrapper
 * over the `slatedb` crate, declared in slate.h). A writer serves its reads
 * from an in-memory copy of the keyspace (kv.c, kvmirror.c); SlateDB makes
 * every write durable. Nothing above this header knows SlateDB exists, and
 * nothing below it knows about DuckLake: keys and values are opaque byte
 * strings.
 *
 * Invariants:
 *  - Every function catches Rust panics; a panic becomes KV_ERR_INTERNAL with a
 *    message, never an abort across the boundary.
 *  - Handles are opaque. A handle is used from one thread at a time unless a
 *    function says otherwise; kv_db itself is thread-safe (SlateDB is), iterators
 *    and batches are not. An iterator stays with the thread that opened it:
 *    reads run on a runtime of the calling thread, which also owns the
 *    iterator's pending block fetches.
 *  - Byte buffers passed in are borrowed for the duration of the call only.
 *  - Buffers returned through `uint8_t **` / `char **` out-parameters are
 *    allocated with malloc() and owned by the caller, who releases them with
 *    free(). Pointers returned by kv_iter_next() are borrowed from the iterator
 *    and stay valid until the next call on that iterator or kv_iter_free().
 *  - `kv_error *err` may be NULL. When a call fails it fills *err (kind +
 *    NUL-terminated message) and returns the documented failure value.
 *
 * Store URLs:
 *  - `file:///abs/path` or a plain path (relative paths are made absolute);
 *    the directory is created if missing.
 *  - `memory://NAME`: a process-wide in-memory object store registered under
 *    NAME, so two handles in one process can open the same store (used by the
 *    tests for reader/writer and fencing checks). Gone when the process exits.
 *  - `s3://bucket/prefix`: credentials, region and endpoint come from the usual
 *    AWS environment variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 *    AWS_REGION / AWS_DEFAULT_REGION, AWS_ENDPOINT_URL / AWS_ENDPOINT,
 *    AWS_ALLOW_HTTP=true for a plain-http S3-compatible server).
 */
#ifndef ROCKLAKE_KV_H
#define ROCKLAKE_KV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum kv_error_kind {
    KV_OK = 0,
    KV_ERR_FENCED = 1,   /* a newer writer opened the store; this handle may not write */
    KV_ERR_CONFLICT = 2, /* optimistic conflict reported by the store */
    KV_ERR_IO = 3,       /* object store unreachable / I/O failure */
    KV_ERR_CORRUPT = 4,  /* the store's data or manifest is unreadable */
    KV_ERR_INVALID = 5,  /* bad argument: bad URL, empty key, oversized value, ... */
    KV_ERR_CLOSED = 6,   /* handle already closed */
    KV_ERR_INTERNAL = 7, /* a caught panic or an unexpected state */
    KV_ERR_NO_STORE = 8  /* a reader's open (or a probe) found no store at the URL */
} kv_error_kind;

typedef struct kv_error {
    kv_error_kind kind;
    char message[512];
} kv_error;

/* Human name of an error kind ("fenced", "conflict", "io", ...). Static string. */
const char *kv_error_kind_name(kv_error_kind kind);

struct kv_open_timing; /* below: kv_options.loaded reports one */

/* Options for kv_open_writer / kv_open_reader. Zero means "RockLake default". */
typedef struct kv_options {
    uint64_t flush_interval_ms;      /* SlateDB's WAL flush timer; default 10 (writers of
                                      * object stores: 1000, as their group commit
                                      * flushes every write itself) */
    uint64_t block_cache_bytes;      /* in-memory block cache; default 256 MiB */
    uint64_t reader_poll_interval_ms;/* reader: how often to look for new commits; default 100
                                      * (a follower of an s3:// store: 25) */
    uint64_t scan_read_ahead_bytes;  /* scans: bytes fetched ahead per SST; default 1 MiB */
    uint32_t scan_fetch_tasks;       /* scans: parallel block fetches; default 8 */
    /* Object stores (s3://): the most one request to the store, the time
     * spent retrying it, and a wait for a write or flush to become durable
     * may take; past it the call fails with KV_ERR_IO. 0 = 30000. (The
     * fields up to here reach rust/src/lib.rs as slate.h's slate_options.) */
    uint32_t store_timeout_ms;
    /* Writers: keep the keyspace in memory and read from there, unless that
     * copy would take more than this many bytes at open (then read
     * SlateDB; the load stops at the limit) or grows past it later (then
     * the copy stops growing and new reads go to SlateDB until the next
     * open). 0 = default 4 GiB; negative = never. Readers always read
     * SlateDB. */
    int64_t mirror_max_bytes;
    /* Writers: called while the mirror loads at open (keys and bytes so
     * far), from the opening thread, at most every load_progress_ms
     * (0 = 1000) and checked every 65,536 keys. May be NULL. */
    void (*load_progress)(void *ctx, uint64_t keys, uint64_t bytes);
    void *load_progress_ctx;
    uint32_t load_progress_ms;
    /* Writers of a local (file://) store: 0 = acknowledge writes from the
     * store's journal (journal.h: one write + fdatasync per group of
     * commits; SlateDB's WAL follows in the background); negative = wait
     * for SlateDB's WAL. Other stores have no journal. Either way an open
     * first replays what an earlier writer's journal holds. */
    int journal;
    /* Readers: nonzero = write nothing to the store. A follower's reader
     * keeps a SlateDB checkpoint of the state it reads, so that garbage
     * collection leaves its files alone: that is a manifest write at open,
     * at each refresh that changes the state and at close. A reader with
     * this set follows the latest manifest without one (for short-lived
     * readers: check, inspect, stats, the writer-lease probe; a file it
     * needs can be collected after SlateDB's GC minimum age, minutes). */
    int reader_no_writes;
    /* Writers of a local store: when the journal holds a damaged record
     * (one that fails its checksum while valid records follow; see
     * journal.h), replay the records before it instead of refusing the
     * open, set the damaged file aside (<name>.damaged) and make the store
     * stop naming it, so the commits from that record on are given up.
     * The handle then refuses writes (KV_ERR_INVALID) until the store is
     * opened again without this. */
    int journal_salvage;
    /* Writers: when the store's keys disagree with its integrity digest
     * (kv_verify), rewrite the digest from what the store holds instead of
     * refusing the open, accepting that the keys found are all there is.
     * The differences are reported through `notice`. */
    int digest_rebuild;
    /* Writers: one line for the operator about what the open did to the
     * store beyond opening it (a digest computed for the first time, a
     * digest rebuilt, a journal salvaged), from the opening thread. NULL:
     * written to stderr. */
    void (*notice)(void *ctx, const char *message);
    void *notice_ctx;
    /* Writers: the mirror's load at open runs as this many scans of
     * disjoint key ranges at once, each on its own thread, joined in key
     * order. 0 = as many as the machine has cores (at most 4) when the
     * store's tables hold 8 MiB or more, else one; N = N parts whatever
     * the size (tests), 1 = one pass. Fewer parts when the tables offer
     * fewer split points. */
    uint32_t load_parts;
    /* Writers: return from the open before the mirror is loaded, serving
     * every read from SlateDB meanwhile (as a writer without a mirror
     * does), and load it on a thread of its own at a SlateDB snapshot
     * taken at open; the batches written meanwhile are kept and applied to
     * it, and reads switch to it in one step under the write lock once it
     * holds every batch (docs/design/background-load.md). Its digest check
     * runs at the end: writes acknowledged through kv_write_wait and
     * kv_wait_durable (commits, and reads waiting for them) wait for it;
     * a store that fails it is refused from then on (every call
     * KV_ERR_CORRUPT, kv_load_refused). kv_write's rare writes (the
     * catalog's epoch and lease) do not wait. Ignored (the load happens
     * in the open) when the store has no well-formed digest yet, with
     * digest_rebuild, and when mirror_max_bytes < 0. 1: the load starts
     * at open; 2: at kv_load_start (the catalog's open steps first, so
     * that their reads and writes do not wait behind the load's). */
    int load_background;
    /* With load_background: called once from the loading thread when the
     * load is over (loaded and switched to, given up, or refused), with
     * the handle's URL, its timing (kv_open_timing: load_ns, load_keys,
     * load_parts, replayed), and NULL or the refusal. `ctx` must outlive
     * the handle (kv_close waits for the load). May be NULL. */
    void (*loaded)(void *ctx, const char *url, const struct kv_open_timing *timing,
                   const struct kv_error *refusal);
    void *loaded_ctx;
    /* Writers: NULL, or a follower (kv_open_reader) of the same url that
     * this writer replaces (a promotion), open until kv_open_writer
     * returns. The writer shares its block cache (the tables' blocks,
     * indexes and filters it read), and its open takes the WAL objects and
     * manifests the follower read from memory instead of reading them
     * again: they are immutable once written, and only objects found are
     * answered so (the end of the WAL, the manifest listing and the
     * fencing still ask the store), so the open fences the old writer and
     * holds every write it made durable, as any writer open. */
    const struct kv_db *promote_from;
    /* Followers (kv_open_reader without reader_no_writes) of an object
     * store: the idle backoff. While the follower has seen no news for
     * this long, the waits between its polls of the store (its reader's
     * and its WAL prober's) grow, each as long as the quiet beyond it has
     * lasted, up to this; news makes them fast again at once. News is a
     * WAL object with a write other than a put of quiet_key (and the kv
     * layer's own keys). 0 = 1000; negative = no backoff. Other stores
     * never back off (a poll there costs no request). */
    int64_t follower_poll_max_ms;
    /* Followers: a key whose puts are no news (the catalog's writer lease,
     * which its writer rewrites every few seconds); a delete of it is.
     * Read during kv_open_reader only. NULL: none. */
    const uint8_t *follower_quiet_key;
    size_t follower_quiet_key_len;
} kv_options;

typedef struct kv_db kv_db;
typedef struct kv_snapshot kv_snapshot;
typedef struct kv_iter kv_iter;
typedef struct kv_batch kv_batch;

/* Open the store at `url` as its writer. Opening fences any earlier writer of
 * the same store: that writer's next write fails with KV_ERR_FENCED.
 * Returns NULL on failure. Release with kv_close(). */
kv_db *kv_open_writer(const char *url, const kv_options *opts, kv_error *err);

/* The local directory a store URL names: a file:// URL with %XX decoded
 * (as the store itself reads it) or a plain path, made absolute. NULL for
 * any other store (or out of memory). Malloc'd; the caller frees it. */
char *kv_local_dir(const char *url);

/* Open a read-only follower (SlateDB DbReader) of the store at `url`. It sees
 * what the writer made durable, refreshed every reader_poll_interval_ms.
 * Writes on it fail with KV_ERR_INVALID. It never fences a writer. Returns
 * NULL on failure (KV_ERR_INVALID if no store exists at `url`). */
kv_db *kv_open_reader(const char *url, const kv_options *opts, kv_error *err);
/* Did kv_open_reader fail because no writer ever created a store at the
 * url (rather than because the store could not be read)? */
int kv_error_is_no_store(const kv_error *err);

/* 1 if this handle is a read-only reader. */
int kv_is_reader(const kv_db *db);
/* A follower's idle backoff now (kv_options.follower_poll_max_ms): 1 with
 * *poll_ms, the wait between its requests for new commits now (its fast
 * poll interval while it sees commits, up to follower_poll_max_ms once
 * idle), and *idle, 1 once it waits longer than its fast interval; 0 when
 * the handle never backs off (a writer, a reader on a local store, the
 * backoff off). Either pointer may be NULL. Reads atomics only: never
 * waits on the store. */
int kv_follower_backoff(const kv_db *db, uint64_t *poll_ms, int *idle);

/* Flush outstanding writes, close the store and free the handle (always, even
 * when it returns an error). Returns 0 or -1. `db` may be NULL. A writer that
 * a newer one fenced closes with 0: what it acknowledged is safe, the rest
 * is dropped. */
int kv_close(kv_db *db, kv_error *err);
/* Writers of an object store that failed: stop SlateDB's writer (waiting
 * at most kv_options.store_timeout_ms for what it is still writing) but
 * keep the handle, whose writes then fail; kv_close still frees it. 0 once
 * stopped (however its last writes ended), -1 when the store did not
 * answer in time. */
int kv_shutdown(kv_db *db, kv_error *err);
/* Writers of a local store: has the journal failed (a write or fdatasync
 * of it did), so that the handle takes no write any more? 0 no (also for
 * object stores, readers, and a journal a newer writer fenced); 1 yes, and
 * closing the handle and opening the store again recovers, as a restart
 * would (journal.c, "After a failure"); 2 yes, and the journal file is no
 * longer at its path (the directory was removed, moved or replaced): an
 * operator must look first. `why` (may be NULL) gets the cause. */
int kv_write_failed(kv_db *db, char *why, size_t n);

/* Bytes the store takes: on a local store, the files under its directory
 * (SlateDB's objects and the journal, apparent sizes); on an object store,
 * which is not listed, the writer's in-memory copy's bytes, or 0 without
 * one. For pg_database_size and monitoring, not exact accounting. */
uint64_t kv_size_bytes(kv_db *db);

/* The writer's in-memory copy of the keyspace, for stats and tests. */
typedef struct kv_mirror_info {
    uint64_t keys;     /* keys held, including deleted ones kept until close */
    uint64_t versions; /* values held for open snapshots and the latest state */
    uint64_t bytes;    /* memory used by keys, values and the index */
    int broken;        /* 1: memory ran out applying a batch, or the copy grew past
                        * mirror_max_bytes; reads use SlateDB */
} kv_mirror_info;
/* 1 and *out filled if `db` reads from a mirror, 0 (and *out zeroed) if not. */
int kv_mirror_stats(kv_db *db, kv_mirror_info *out);

/* Where a writer's open spent its time, in nanoseconds (all 0 for a
 * reader): SlateDB's open (the manifest, the WAL objects since the last
 * memtable flush replayed), a local store's journal recovery, the one scan
 * that loads the mirror and sums the integrity digest on the way, and the
 * digest's check (and its first write or rebuild). For the server's
 * database_opened log line and bench/cold_open.py. */
typedef struct kv_open_timing {
    uint64_t slate_ns;
    uint64_t journal_ns;
    uint64_t load_ns;
    uint64_t digest_ns;
    uint64_t load_keys; /* pairs the load scan read */
    uint32_t load_parts; /* scans the load ran as at once (kv_options.load_parts) */
    /* kv_options.load_background: 1 while the load runs, 2 once the reads
     * use the loaded copy, 3 given up (too big, out of memory, SlateDB
     * failed: reads stay on SlateDB, the digest is not checked), 4 the
     * store was refused; 0 without a background load. load_ns then counts
     * from the open's return to the switch. */
    uint32_t background;
    uint64_t replayed; /* batches written during the load, applied to the copy */
} kv_open_timing;
void kv_open_timing_get(kv_db *db, kv_open_timing *out);
/* Wait until a background load (kv_options.load_background) is over; at
 * most timeout_ms (0 = no limit). 0: over (or there is none), 1: still
 * running at the timeout, -1: the store was refused (err: KV_ERR_CORRUPT
 * and the digest's message). */
int kv_load_wait(kv_db *db, uint32_t timeout_ms, kv_error *err);
/* Start a background load opened with load_background 2 (once; a no-op
 * otherwise). Until then commits made are logged for it; the first
 * acknowledgement that must wait for the load (and kv_load_wait) starts
 * it if nothing did. */
void kv_load_start(kv_db *db);
/* Did the background load's digest check refuse the store? 1 and the
 * message in `why` (may be NULL), or 0. */
int kv_load_refused(kv_db *db, char *why, size_t n);

/* A consistent read view at this instant: on a writer a mirror sequence, or
 * a SlateDB snapshot when the writer has no mirror; on a reader a pinned
 * view, a second SlateDB reader that never refreshes (it holds the state
 * it opened at, and writes nothing to the store). A reader's snapshot
 * reuses the last view it opened while the reader has seen nothing newer.
 * A follower's (reader_no_writes off) view opens from what the follower's
 * reader has read (its WAL objects, manifests and listings, kept in
 * memory), without a request, and holds what the reader has applied plus
 * the WAL objects its WAL prober found since (on an object store it asks
 * for the next WAL object between the reader's polls, so a view shows a
 * commit about one request after it is durable; a read without a
 * snapshot on a follower reads the newest view);
 * another reader's reads the store (manifest + WAL), so it also reuses a
 * view younger than reader_poll_interval_ms (no staler than the reader
 * itself). Free with kv_snapshot_free(); iterators opened on it keep it
 * alive. */
kv_snapshot *kv_snapshot_new(kv_db *db, kv_error *err);
void kv_snapshot_free(kv_snapshot *snap);

/* Point read. `snap` may be NULL (latest committed state).
 * Returns 1 and sets *val and *vlen (malloc'd, caller frees) when found, 0 when
 * absent, -1 on error. `val` may be NULL to only test existence. */
int kv_get(kv_db *db, kv_snapshot *snap, const uint8_t *key, size_t klen,
           uint8_t **val, size_t *vlen, kv_error *err);

/* Range scan over [start, end). `end` NULL means "to the end of the keyspace".
 * `snap` may be NULL. Read-ahead and fetch parallelism come from the open
 * options, so a full scan does not pay one round trip per block.
 * Returns NULL on error. Free with kv_iter_free(). */
kv_iter *kv_scan(kv_db *db, kv_snapshot *snap, const uint8_t *start, size_t slen,
                 const uint8_t *end, size_t elen, kv_error *err);

/* Every key that starts with `prefix` (plen >= 1), in key order. */
kv_iter *kv_scan_prefix(kv_db *db, kv_snapshot *snap, const uint8_t *prefix,
                        size_t plen, kv_error *err);

/* Next pair: returns 1 and borrowed pointers, 0 at the end, -1 on error. */
int kv_iter_next(kv_iter *it, const uint8_t **key, size_t *klen,
                 const uint8_t **val, size_t *vlen, kv_error *err);

/* Move forward to the first key >= `key` within the scan's range. Seeking
 * backwards is an error. Returns 0 or -1. */
int kv_iter_seek(kv_iter *it, const uint8_t *key, size_t klen, kv_error *err);
void kv_iter_free(kv_iter *it);

/* Write batches: puts and deletes applied atomically by kv_write(). */
kv_batch *kv_batch_new(void);
void kv_batch_put(kv_batch *b, const uint8_t *key, size_t klen,
                  const uint8_t *val, size_t vlen);
void kv_batch_delete(kv_batch *b, const uint8_t *key, size_t klen);
size_t kv_batch_count(const kv_batch *b);
void kv_batch_free(kv_batch *b);

/* Apply `b` as one atomic write and return only once it is durable in the
 * object store (all of it or none of it), also on a writer with a journal:
 * kv_write is for rare writes that followers must see at once; commits use
 * kv_write_begin / kv_write_wait. `b` is not consumed: free it after.
 * Returns 0 or -1 (KV_ERR_FENCED when a newer writer exists). */
int kv_write(kv_db *db, const kv_batch *b, kv_error *err);

/* The same write in two steps, so a caller can order writes under its own
 * lock and wait for durability outside it. kv_write_begin applies `b`
 * atomically to the writer's memtable — later reads and writes of this
 * process see it — numbers it, and returns a pending handle in *out (NULL
 * for an empty batch). kv_write_wait returns once that write is durable (or
 * failed, e.g. KV_ERR_FENCED) and frees the handle; it must be called
 * exactly once per non-NULL handle. Until it returns 0 the write must not
 * be acknowledged to anyone.
 *
 * Group commit lives here, once: every write gets a number (kv_pending_seq;
 * increasing, not dense: with a journal it is the journal record's), and
 * kv_wait_durable(seq) returns once every write numbered <= seq is durable.
 * Concurrent waiters share the work: the first that finds none running
 * leads one journal sync (one fdatasync) or, without a journal, one
 * SlateDB WAL flush (one object write to the store), covering every write
 * numbered before it started; the others wait for a flush that covers
 * them. kv_write_wait is kv_wait_durable of the handle's number, then the
 * handle's release. */
typedef struct kv_pending kv_pending;
int kv_write_begin(kv_db *db, const kv_batch *b, kv_pending **out, kv_error *err);
int kv_write_wait(kv_pending *p, kv_error *err);
/* The number of a pending write (0 for NULL). */
uint64_t kv_pending_seq(const kv_pending *p);
/* The last write numbered (0: none since open), and the last one known
 * durable. A reader of the writer's state waits for kv_written_seq() to
 * be durable before it acts on what it read (nothing unacknowledged leaks). */
uint64_t kv_written_seq(kv_db *db);
uint64_t kv_durable_seq(kv_db *db);
/* Wait until every write numbered <= seq (at most kv_written_seq()) is
 * durable. 0, or -1 when the flush or sync failed (the writes are not
 * acknowledged; a later wait retries). */
int kv_wait_durable(kv_db *db, uint64_t seq, kv_error *err);
/* How many flushes (journal syncs or SlateDB WAL flushes) kv_wait_durable's
 * leaders made on this handle: one per group of writes made durable
 * together. */
uint64_t kv_group_flushes(kv_db *db);
/* How many of those flushes made how many writes durable together: out[i]
 * counts the flushes of at most 2^i writes (and more than 2^(i-1)); the
 * last bucket also counts every larger group. A flush that found its
 * writes already covered counts nowhere. */
#define KV_GROUP_BUCKETS 7 /* 1, 2, 4, 8, 16, 32, more */
void kv_group_sizes(kv_db *db, uint64_t out[KV_GROUP_BUCKETS]);
/* Where the group commit's time went on this handle, in nanoseconds: the
 * leaders' gathering of their groups (gather_ns) and their flushes or
 * syncs (flush_ns). */
typedef struct kv_group_times {
    uint64_t gather_ns;
    uint64_t flush_ns;
} kv_group_times;
void kv_group_times_get(kv_db *db, kv_group_times *out);

/* A snapshot of the state right after the last write the group commit
 * made durable, taken without waiting: while a flush is in flight the
 * writes it carries (and those after it) are not in it, so nothing read
 * through it can be taken back by a failed flush or a crash. *seq gets
 * the last write it holds (a kv_durable_seq() value). Writers that read
 * from their in-memory copy only, after their first group flush: NULL
 * with err->kind KV_OK when there is no such view (no copy, a copy given
 * up, no flush led since open); then take kv_snapshot_new and wait for
 * kv_written_seq() to be durable instead. Free with kv_snapshot_free. */
kv_snapshot *kv_snapshot_durable(kv_db *db, uint64_t *seq, kv_error *err);

/* Make everything written so far durable: kv_wait_durable(kv_written_seq()).
 * Returns 0 or -1. */
int kv_flush(kv_db *db, kv_error *err);
/* Start flushing the memtable to an L0 table in the background (writers;
 * a no-op for readers). Bounds how many versions of a rewritten key scans
 * step over: the memtable keeps them all, a flush only those still needed. */
int kv_flush_memtable_async(kv_db *db, kv_error *err);

/* Checkpoints: a named, durable point-in-time view of the store. */
typedef struct kv_checkpoint {
    char id[40];               /* UUID text */
    uint64_t manifest_id;
    int64_t create_time_ms;    /* unix ms */
    int64_t expire_time_ms;    /* unix ms, 0 = never */
} kv_checkpoint;

/* Create a checkpoint of the writer's current state. lifetime_ms 0 = no
 * expiry. Fills *out. Returns 0 or -1. */
int kv_checkpoint_create(kv_db *db, uint64_t lifetime_ms, kv_checkpoint *out,
                         kv_error *err);

/* List the checkpoints of the store at `url` (no open handle needed).
 * *out is malloc'd (caller frees), *n its length. Returns 0 or -1. */
int kv_checkpoint_list(const char *url, kv_checkpoint **out, size_t *n,
                       kv_error *err);

/* The names directly below `url` that hold objects or further names, one
 * level down (an object-store root has no directories to read): each name
 * followed by a NUL in *out (malloc'd, *len bytes; caller frees). Returns
 * 0 or -1. */
int kv_list_dirs(const char *url, char **out, size_t *len, kv_error *err);
/* Is there a SlateDB store at `url` (its manifest)? Opens nothing and
 * creates nothing (a missing local directory stays missing). 1, 0, or -1. */
int kv_store_exists(const char *url, kv_error *err);
/* The store's integrity digest: for each key group (keys sharing their
 * first byte), how many keys it holds and two sums mod 2^64 of a 64-bit
 * hash, one over the keys and one over key + value pairs, so the order of
 * keys does not matter and every write updates it in O(1) (a put adds, a
 * delete subtracts, an overwrite subtracts the old pair and adds the new).
 * A writer keeps it in system keys 0xFF "kv-digest:XX" (XX = the group's
 * byte in hex, docs/key-layout.md) written in the same atomic batch as
 * every write that changes the group, and checks it against the keys
 * whenever it reads them all (the in-memory copy's load at open); a
 * store whose keys do not add up (a manifest or table file that lost or
 * brought back keys) is refused with KV_ERR_CORRUPT. The digest keys and
 * "kv-journal" are the kv layer's own: they are not digested, and reads
 * through this header never return them. */
typedef struct kv_digest {
    uint64_t count;    /* keys */
    uint64_t key_sum;  /* sum of the keys' hashes */
    uint64_t pair_sum; /* sum of the hashes of key + value */
} kv_digest;

typedef struct kv_verify_report {
    int has_digest;         /* the store holds digest keys at all */
    uint64_t keys;          /* keys read (kv-owned keys not counted) */
    uint32_t malformed;     /* digest keys whose value is not 24 bytes */
    kv_digest found[256];   /* recomputed from every key, per first byte */
    kv_digest expected[256];/* what the digest keys say (zero where absent) */
} kv_verify_report;

/* Read every key of the store (SlateDB itself, not the in-memory copy)
 * and fill *out. Works on readers and writers. 0, or -1 when the store
 * cannot be read. */
int kv_verify(kv_db *db, kv_verify_report *out, kv_error *err);
/* How many key groups of `r` disagree with the digest (0 when the store
 * holds no digest, or all agree). */
int kv_verify_mismatches(const kv_verify_report *r);
/* One sentence about group `tag` of `r` ("412 keys found, the digest
 * expects 1280: keys were lost"), into buf. */
void kv_verify_describe(const kv_verify_report *r, int tag, char *buf, size_t n);

/* For copies of a store (backup.c). Add one pair read through kv.h to
 * r->found (and r->keys), as kv_verify counts it. */
void kv_verify_add(kv_verify_report *r, const uint8_t *key, size_t klen, const uint8_t *val,
                   size_t vlen);
/* Fill r->has_digest, r->malformed and r->expected from the digest keys
 * as `snap` sees them (NULL: the latest state; a snapshot of a writer
 * without SlateDB behind it reads the latest state too, so use this with
 * readers' snapshots); r->found and r->keys are left alone. 0 or -1. */
int kv_verify_expected(kv_db *db, kv_snapshot *snap, kv_verify_report *r, kv_error *err);

/* A snapshot of reader `db` that holds every write its store's writer
 * acknowledged before this call. A writer of a local store acknowledges a
 * commit once its journal record is synced, before SlateDB's WAL (what a
 * reader reads) has it; so on a store whose SlateDB state names a journal
 * file, this reads the records that file holds beyond that state
 * (rl_journal_peek: the file is only read), then takes snapshots until
 * one holds the last of them (or names a newer writer's file, which
 * replayed them all). Without a journal an acknowledged write is already
 * in SlateDB's WAL and the first snapshot holds it. Set the reader's
 * reader_poll_interval_ms low (10) so that it sees the WAL soon. Gives up
 * after timeout_ms with KV_ERR_IO. Free with kv_snapshot_free(). */
kv_snapshot *kv_snapshot_acknowledged(kv_db *db, uint32_t timeout_ms, kv_error *err);

/* Without writing anything (a reader that keeps no checkpoint, and
 * rl_journal_peek): how many journal records of the local store at `url`
 * lie beyond what SlateDB's latest state holds, in *records (0 for a store
 * that is not local, names no journal, or does not exist). A running
 * writer's SlateDB WAL lags its journal by design; with no writer these
 * are records the next writer open replays (a writer killed before its
 * WAL followed). Returns 0 or -1. */
int kv_journal_unapplied(const char *url, uint64_t *records, kv_error *err);

/* Process-wide counters since start, for metrics and for tests that assert
 * "only this table's keys were read". */
typedef struct kv_counters {
    uint64_t gets;
    uint64_t scans;
    uint64_t keys_read;        /* pairs returned by kv_iter_next + found gets */
    uint64_t batches_written;
    uint64_t bytes_written;    /* key + value bytes of written batches */
} kv_counters;
void kv_counters_get(kv_counters *out);

#ifdef __cplusplus
}
#endif
#endif /* ROCKLAKE_KV_H */
