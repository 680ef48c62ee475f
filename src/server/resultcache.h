/*
 * resultcache.h — the server's kept answers: the protocol bytes of pure
 * catalog-discovery SELECTs (rl_sink.cached_result, sql_resultkey.c), by
 * the SHA-256 of their key, within a byte budget.
 *
 * Ownership: the cache owns its entries; rc_lookup hands out a counted
 * reference (rc_entry_release when done), so an entry evicted while a
 * connection still sends it stays alive until that connection is done.
 * Thread-safe: one mutex, held only for the map and the LRU list, never
 * while bytes are copied or sent.
 */
#ifndef ROCKLAKE_RESULTCACHE_H
#define ROCKLAKE_RESULTCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RC_DIGEST_LEN 32

typedef struct rc_cache rc_cache;
typedef struct rc_entry rc_entry;

typedef struct rc_stats {
    uint64_t hits, misses, stores, evictions;
    uint64_t bytes;   /* held by live entries */
    uint64_t entries;
} rc_stats;

/* A cache of at most budget bytes of answers; an answer over a quarter of
 * it is never kept. NULL when budget is 0 (caching off) or out of memory. */
rc_cache *rc_new(uint64_t budget);
/* Frees every entry; references still held stay valid until released. */
void rc_free(rc_cache *c);

/* SHA-256 of key into digest; false if OpenSSL failed (keep nothing). */
bool rc_digest(const uint8_t *key, size_t keylen, uint8_t digest[RC_DIGEST_LEN]);
/* The entry kept for digest (a new reference), or NULL; counts a hit or a
 * miss. */
rc_entry *rc_lookup(rc_cache *c, const uint8_t digest[RC_DIGEST_LEN]);
/* The largest answer rc_store keeps. */
uint64_t rc_max_entry(const rc_cache *c);
/* Keep bytes[0..len) under digest; takes ownership of bytes (malloc'd).
 * Evicts the least recently used entries to stay within the budget. An
 * answer over rc_max_entry, or a digest already kept, is freed instead. */
void rc_store(rc_cache *c, const uint8_t digest[RC_DIGEST_LEN], uint8_t *bytes, size_t len);

const uint8_t *rc_entry_bytes(const rc_entry *e, size_t *len);
void rc_entry_release(rc_entry *e);

void rc_get_stats(rc_cache *c, rc_stats *out);

#endif
