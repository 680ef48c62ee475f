/*
 * resultcache.c — the server's kept answers of pure catalog-discovery
 * SELECTs (see resultcache.h for the interface and ownership).
 *
 * Why: DuckDB's postgres extension sends the same discovery batch on every
 * ATTACH. On a 10,000-table lake its answers are some 120,000 rows that
 * took ~300 ms to compute; sending kept bytes takes a few ms. The engine
 * decides what is pure and builds the key (sql_resultkey.c: the query
 * text, the session's settings and every input of pg_catalog's rows as the
 * transaction sees them), so an answer kept here is right for exactly the
 * catalogs that produce the same key; nothing needs invalidating, and a
 * lake that changes simply stops matching its old entries, which age out.
 *
 * Invariants:
 *  - c->bytes == sum of the lengths of the entries in the map, <= budget;
 *  - an entry is in the map and the LRU list together, or in neither;
 *  - refs counts the map's reference plus one per rc_lookup not yet
 *    released; the bytes are freed when it reaches 0.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "base/buf.h"
#include "server/resultcache.h"

#define RC_BUCKETS 1024

struct rc_entry {
    uint8_t digest[RC_DIGEST_LEN];
    uint8_t *bytes;
    size_t len;
    atomic_uint refs;
    rc_entry *chain;            /* next in its bucket */
    rc_entry *newer, *older;    /* LRU list */
};

struct rc_cache {
    pthread_mutex_t mu;
    uint64_t budget, bytes;
    rc_entry *buckets[RC_BUCKETS];
    rc_entry *newest, *oldest;
    rc_stats st;
};

rc_cache *rc_new(uint64_t budget)
{
    if (budget == 0)
        return NULL;
    rc_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    pthread_mutex_init(&c->mu, NULL);
    c->budget = budget;
    return c;
}

void rc_entry_release(rc_entry *e)
{
    if (!e)
        return;
    unsigned before = atomic_fetch_sub(&e->refs, 1);
    assert(before > 0);
    if (before == 1) {
        free(e->bytes);
        free(e);
    }
}

void rc_free(rc_cache *c)
{
    if (!c)
        return;
    for (rc_entry *e = c->newest, *next; e; e = next) {
        next = e->older;
        rc_entry_release(e);
    }
    pthread_mutex_destroy(&c->mu);
    free(c);
}

bool rc_digest(const uint8_t *key, size_t keylen, uint8_t digest[RC_DIGEST_LEN])
{
    unsigned int n = 0;
    return EVP_Digest(key, keylen, digest, &n, EVP_sha256(), NULL) && n == RC_DIGEST_LEN;
}

static size_t bucket_of(const uint8_t d[RC_DIGEST_LEN]) { return rl_load_be32(d) % RC_BUCKETS; }

static rc_entry **find_slot(rc_cache *c, const uint8_t d[RC_DIGEST_LEN])
{
    rc_entry **p = &c->buckets[bucket_of(d)];
    while (*p && memcmp((*p)->digest, d, RC_DIGEST_LEN) != 0)
        p = &(*p)->chain;
    return p;
}

static void lru_unlink(rc_cache *c, rc_entry *e)
{
    if (e->newer)
        e->newer->older = e->older;
    else
        c->newest = e->older;
    if (e->older)
        e->older->newer = e->newer;
    else
        c->oldest = e->newer;
    e->newer = e->older = NULL;
}

static void lru_push(rc_cache *c, rc_entry *e)
{
    e->older = c->newest;
    e->newer = NULL;
    if (c->newest)
        c->newest->newer = e;
    c->newest = e;
    if (!c->oldest)
        c->oldest = e;
}

rc_entry *rc_lookup(rc_cache *c, const uint8_t digest[RC_DIGEST_LEN])
{
    if (!c)
        return NULL;
    pthread_mutex_lock(&c->mu);
    rc_entry *e = *find_slot(c, digest);
    if (e) {
        atomic_fetch_add(&e->refs, 1);
        lru_unlink(c, e);
        lru_push(c, e);
        c->st.hits++;
    } else {
        c->st.misses++;
    }
    pthread_mutex_unlock(&c->mu);
    return e;
}

uint64_t rc_max_entry(const rc_cache *c) { return c ? c->budget / 4 : 0; }

/* Drop the oldest entry (the map's reference). Under c->mu. */
static void evict_oldest(rc_cache *c)
{
    rc_entry *e = c->oldest;
    assert(e);
    rc_entry **slot = find_slot(c, e->digest);
    assert(*slot == e);
    *slot = e->chain;
    lru_unlink(c, e);
    c->bytes -= e->len;
    c->st.evictions++;
    c->st.entries--;
    rc_entry_release(e);
}

void rc_store(rc_cache *c, const uint8_t digest[RC_DIGEST_LEN], uint8_t *bytes, size_t len)
{
    if (!c || len > rc_max_entry(c)) {
        free(bytes);
        return;
    }
    rc_entry *e = calloc(1, sizeof *e);
    if (!e) {
        free(bytes);
        return;
    }
    memcpy(e->digest, digest, RC_DIGEST_LEN);
    e->bytes = bytes;
    e->len = len;
    atomic_init(&e->refs, 1);
    pthread_mutex_lock(&c->mu);
    rc_entry **slot = find_slot(c, digest);
    if (*slot) { /* another connection kept the same answer first */
        pthread_mutex_unlock(&c->mu);
        rc_entry_release(e);
        return;
    }
    while (c->bytes + len > c->budget)
        evict_oldest(c);
    slot = find_slot(c, digest); /* an eviction may have moved the chain */
    *slot = e;
    lru_push(c, e);
    c->bytes += len;
    c->st.stores++;
    c->st.entries++;
    assert(c->bytes <= c->budget);
    pthread_mutex_unlock(&c->mu);
}

const uint8_t *rc_entry_bytes(const rc_entry *e, size_t *len)
{
    *len = e->len;
    return e->bytes;
}

void rc_get_stats(rc_cache *c, rc_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!c)
        return;
    pthread_mutex_lock(&c->mu);
    *out = c->st;
    out->bytes = c->bytes;
    pthread_mutex_unlock(&c->mu);
}
