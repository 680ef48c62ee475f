/*
 * kvmirror.h — the writer's in-memory, multi-version copy of its keyspace.
 *
 * Owns: an ordered map of byte keys to a chain of versions (newest first),
 * each stamped with the sequence number of the write batch that made it.
 * kv.c keeps one per writer handle, filled from SlateDB at open and then by
 * every batch the writer applies, and serves every read from it: a point
 * read or a scan costs a skiplist walk instead of SlateDB's merge over
 * memtable, L0 tables and sorted runs. SlateDB stays the durable copy and
 * the source of truth at open; readers (followers) never use a mirror.
 * Keys and values are opaque bytes: like kv.h, this knows nothing of
 * DuckLake.
 *
 * Invariants:
 *  - One writer thread at a time calls kvm_apply_* (kv.c holds its write
 *    lock); any number of threads read at once, without locks: nodes and
 *    versions are published with release stores after they are complete,
 *    and read with acquire loads.
 *  - A batch is applied between kvm_apply_begin and kvm_apply_end and
 *    stamped with one new sequence number; readers see it only after
 *    kvm_apply_end publishes that number, so they see all of it or none.
 *  - A reader pins the sequence it reads at (kvm_pin) and unpins it when
 *    done. A key keeps its newest version plus the one each pinned sequence
 *    reads; the others are unlinked when the key is next written and freed
 *    once no reader pinned before that can be walking over them, so
 *    pointers a reader got stay valid until it unpins.
 *  - Nodes are never freed before kvm_free: a deleted key keeps its node
 *    (with a tombstone version) so that a reader's position stays valid.
 *
 * Ownership: kvm_new returns a map freed by kvm_free (no reader may be
 * active then). Pointers returned by kvm_get / kvm_cursor_* borrow from the
 * map and are valid while the sequence they were read at stays pinned.
 */
#ifndef ROCKLAKE_KVMIRROR_H
#define ROCKLAKE_KVMIRROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct kv_mirror kv_mirror;
typedef struct kvm_node kvm_node;

/* NULL when out of memory. */
kv_mirror *kvm_new(void);
void kvm_free(kv_mirror *m);

/* Loading at open, before any reader or writer: pairs must come in strictly
 * ascending key order. Returns 0, or -1 when out of memory. */
int kvm_load(kv_mirror *m, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen);
/* A load in parts (kv.c's parallel load at open): `tail`, loaded on its
 * own with every key above m's, continues m's load; tail is freed (its
 * nodes now m's). Both still loading (nothing applied or published).
 * Returns 0. */
int kvm_load_append(kv_mirror *m, kv_mirror *tail);
/* The seed of m's node heights (each part of a parallel load its own). */
void kvm_load_seed(kv_mirror *m, uint64_t seed);

/* Apply one batch: begin, then puts/deletes in batch order (a later op on
 * the same key wins), then end. kvm_apply_put/delete return 0, or -1 when
 * out of memory: the map is then broken (kvm_broken) and must not be read
 * at sequences from this batch on. */
void kvm_apply_begin(kv_mirror *m);
int kvm_apply_put(kv_mirror *m, const uint8_t *key, size_t klen, const uint8_t *val,
                  size_t vlen);
int kvm_apply_delete(kv_mirror *m, const uint8_t *key, size_t klen);
void kvm_apply_end(kv_mirror *m);
/* True once an apply ran out of memory or the writer gave the map up: kv.c
 * then reads from SlateDB. */
bool kvm_broken(const kv_mirror *m);
/* The writer gives the map up between two batches (it grew past its
 * limit): it is never applied to again; readers that pinned a sequence
 * finish on it, new ones read SlateDB. */
void kvm_abandon(kv_mirror *m);

/* Register a reader at the latest published sequence, stored in *seq.
 * Returns 0, or -1 when out of memory (nothing pinned). Every successful
 * pin is matched by one kvm_unpin of the same sequence. */
int kvm_pin(kv_mirror *m, uint64_t *seq);
void kvm_unpin(kv_mirror *m, uint64_t seq);
/* One more pin on a sequence that is pinned now (an iterator of a
 * snapshot, so it may outlive the snapshot). -1 if `seq` is not pinned. */
int kvm_pin_again(kv_mirror *m, uint64_t seq);

/* Point read at `seq`: 1 and the value (borrowed), 0 if absent. */
int kvm_get(const kv_mirror *m, uint64_t seq, const uint8_t *key, size_t klen,
            const uint8_t **val, size_t *vlen);

/* Cursors: the first node whose key is >= key (NULL past the last), and the
 * node after n. Nodes of keys deleted at `seq` are returned too:
 * kvm_node_value says whether the key has a value at `seq`. */
const kvm_node *kvm_seek(const kv_mirror *m, const uint8_t *key, size_t klen);
const kvm_node *kvm_node_next(const kvm_node *n);
void kvm_node_key(const kvm_node *n, const uint8_t **key, size_t *klen);
/* 1 and the value at `seq` (borrowed), 0 if the key has none then. */
int kvm_node_value(const kvm_node *n, uint64_t seq, const uint8_t **val, size_t *vlen);
/* A hint for scans, no effect on results: n is the node a scan reads next.
 * Starts loading its newest version and the node after it into the CPU
 * cache, so that those misses overlap the work on the current row instead
 * of following it (a scan is otherwise one pointer chase per key). */
void kvm_prefetch_ahead(const kvm_node *n);

/* Sizes for stats and tests: live keys' nodes, versions held, and the bytes
 * of keys, values and bookkeeping. */
typedef struct kvm_stats {
    uint64_t nodes;
    uint64_t versions;
    uint64_t bytes;
    uint64_t seq;
    uint64_t retired_slots; /* writer-side list of unlinked versions, freed or not */
} kvm_stats;
void kvm_stats_get(const kv_mirror *m, kvm_stats *out);

#endif
