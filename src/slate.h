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
 */
#ifndef ROCKLAKE_SLATE_H
#define ROCKLAKE_SLATE_H

#include "kv.h"

typedef struct slate_db slate_db;
typedef struct slate_snapshot slate_snapshot;
typedef struct slate_iter slate_iter;

slate_db *slate_open_writer(const char *url, const kv_options *opts, kv_error *err);
/* no_writes: a reader that keeps no SlateDB checkpoint (kv_options.reader_no_writes). */
slate_db *slate_open_reader(const char *url, const kv_options *opts, int no_writes,
                            kv_error *err);
int slate_is_reader(const slate_db *db);
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
