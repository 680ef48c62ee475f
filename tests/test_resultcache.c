/*
 * test_resultcache.c — the server's kept answers (src/server/resultcache.c): the
 * byte budget holds, the least recently used answer goes first, a kept
 * answer is never handed out for another digest, and a reference outlives
 * its entry's eviction; many threads at once leave the counts consistent.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/resultcache.h"
#include "testutil.h"

static uint8_t *bytes_of(size_t n, uint8_t fill)
{
    uint8_t *b = malloc(n);
    memset(b, fill, n);
    return b;
}

static void digest_of(const char *key, uint8_t d[RC_DIGEST_LEN])
{
    rc_digest((const uint8_t *)key, strlen(key), d);
}

static bool holds(rc_cache *c, const char *key, size_t len, uint8_t fill)
{
    uint8_t d[RC_DIGEST_LEN];
    digest_of(key, d);
    rc_entry *e = rc_lookup(c, d);
    if (!e)
        return false;
    size_t n = 0;
    const uint8_t *p = rc_entry_bytes(e, &n);
    bool ok = n == len;
    for (size_t i = 0; ok && i < n; i++)
        ok = p[i] == fill;
    rc_entry_release(e);
    return ok;
}

static void keep(rc_cache *c, const char *key, size_t len, uint8_t fill)
{
    uint8_t d[RC_DIGEST_LEN];
    digest_of(key, d);
    rc_store(c, d, bytes_of(len, fill), len);
}

static void test_off_when_budget_zero(void)
{
    CHECK(rc_new(0) == NULL);
    uint8_t d[RC_DIGEST_LEN];
    digest_of("k", d);
    CHECK(rc_lookup(NULL, d) == NULL);
    rc_store(NULL, d, bytes_of(10, 1), 10); /* freed, not leaked (ASan) */
    rc_stats st;
    rc_get_stats(NULL, &st);
    CHECK_EQ_INT(st.entries, 0);
}

static void test_digest_is_sha256(void)
{
    uint8_t d[RC_DIGEST_LEN];
    CHECK(rc_digest((const uint8_t *)"abc", 3, d));
    /* FIPS 180-2's test vector */
    static const uint8_t want[RC_DIGEST_LEN] = {
        0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
        0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    CHECK_MEM(d, sizeof d, want, sizeof want);
}

static void test_hit_miss_and_distinct_keys(void)
{
    rc_cache *c = rc_new(1 << 20);
    keep(c, "select a", 100, 'a');
    keep(c, "select b", 200, 'b');
    CHECK(holds(c, "select a", 100, 'a'));
    CHECK(holds(c, "select b", 200, 'b'));
    CHECK(!holds(c, "select c", 100, 'a'));
    /* a second answer for a kept digest keeps the first */
    keep(c, "select a", 50, 'z');
    CHECK(holds(c, "select a", 100, 'a'));
    rc_stats st;
    rc_get_stats(c, &st);
    CHECK_EQ_INT(st.hits, 3);
    CHECK_EQ_INT(st.misses, 1);
    CHECK_EQ_INT(st.entries, 2);
    CHECK_EQ_INT(st.bytes, 300);
    rc_free(c);
}

static void test_budget_and_lru_order(void)
{
    rc_cache *c = rc_new(1000); /* answers up to 250 bytes */
    CHECK_EQ_INT(rc_max_entry(c), 250);
    keep(c, "too big", 251, 'x');
    CHECK(!holds(c, "too big", 251, 'x'));
    keep(c, "k1", 250, '1');
    keep(c, "k2", 250, '2');
    keep(c, "k3", 250, '3');
    keep(c, "k4", 250, '4');
    CHECK(holds(c, "k1", 250, '1')); /* k1 is now the most recent: k2 goes next */
    keep(c, "k5", 250, '5');
    CHECK(!holds(c, "k2", 250, '2'));
    CHECK(holds(c, "k1", 250, '1'));
    CHECK(holds(c, "k3", 250, '3'));
    CHECK(holds(c, "k5", 250, '5'));
    rc_stats st;
    rc_get_stats(c, &st);
    CHECK(st.bytes <= 1000);
    CHECK_EQ_INT(st.bytes, 1000);
    CHECK_EQ_INT(st.evictions, 1);
    rc_free(c);
}

static void test_reference_outlives_eviction(void)
{
    rc_cache *c = rc_new(400);
    keep(c, "old", 100, 'o');
    uint8_t d[RC_DIGEST_LEN];
    digest_of("old", d);
    rc_entry *held = rc_lookup(c, d);
    CHECK(held != NULL);
    for (int i = 0; i < 8; i++) { /* push "old" out */
        char k[16];
        snprintf(k, sizeof k, "new%d", i);
        keep(c, k, 100, 'n');
    }
    CHECK(!holds(c, "old", 100, 'o'));
    size_t n = 0;
    const uint8_t *p = rc_entry_bytes(held, &n);
    CHECK_EQ_INT(n, 100);
    CHECK(p[0] == 'o' && p[99] == 'o'); /* still readable (ASan would object) */
    rc_entry_release(held);
    rc_free(c);
}

static void test_same_bucket_eviction(void)
{
    /* many entries, a tiny budget: evictions unlink entries from chains
     * that also hold the one being stored */
    rc_cache *c = rc_new(64 * 16);
    for (int i = 0; i < 5000; i++) {
        char k[32];
        snprintf(k, sizeof k, "key %d", i);
        keep(c, k, 16 + (size_t)(i % 48), (uint8_t)i);
        CHECK(holds(c, k, 16 + (size_t)(i % 48), (uint8_t)i));
    }
    rc_stats st;
    rc_get_stats(c, &st);
    CHECK(st.bytes <= 64 * 16);
    CHECK(st.entries > 0);
    rc_free(c);
}

typedef struct worker {
    rc_cache *c;
    int id;
    int wrong;
} worker;

static void *hammer(void *arg)
{
    worker *w = arg;
    for (int i = 0; i < 20000; i++) {
        char k[32];
        int n = (i * 7 + w->id) % 97;
        snprintf(k, sizeof k, "q%d", n);
        uint8_t d[RC_DIGEST_LEN];
        digest_of(k, d);
        rc_entry *e = rc_lookup(w->c, d);
        if (e) {
            size_t len = 0;
            const uint8_t *p = rc_entry_bytes(e, &len);
            if (len != (size_t)(n + 1) || p[len - 1] != (uint8_t)n)
                w->wrong++;
            rc_entry_release(e);
        } else {
            rc_store(w->c, d, bytes_of((size_t)n + 1, (uint8_t)n), (size_t)n + 1);
        }
    }
    return NULL;
}

static void test_threads(void)
{
    rc_cache *c = rc_new(2000); /* far less than the 97 answers: constant eviction */
    pthread_t th[4];
    worker w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = (worker){.c = c, .id = i};
        pthread_create(&th[i], NULL, hammer, &w[i]);
    }
    int wrong = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        wrong += w[i].wrong;
    }
    CHECK_EQ_INT(wrong, 0);
    rc_stats st;
    rc_get_stats(c, &st);
    CHECK(st.bytes <= 2000);
    CHECK_EQ_INT(st.hits + st.misses, 4 * 20000);
    CHECK(st.evictions > 0);
    rc_free(c);
}

int main(void)
{
    RUN(test_off_when_budget_zero);
    RUN(test_digest_is_sha256);
    RUN(test_hit_miss_and_distinct_keys);
    RUN(test_budget_and_lru_order);
    RUN(test_reference_outlives_eviction);
    RUN(test_same_bucket_eviction);
    RUN(test_threads);
    return tu_finish();
}
