/*
 * kvmirror.c — the writer's in-memory, multi-version copy of its keyspace.
 *
 * A skiplist of nodes in key order; each node holds a chain of versions,
 * newest first. One writer links nodes and pushes versions; readers walk
 * without locks. See kvmirror.h for the invariants; the ones this file
 * leans on:
 *  - Everything a reader can reach is complete before it is published: a
 *    node's fields and its first version are set before the release store
 *    that links it at level 0, and a version before the release store that
 *    makes it a chain head. Higher levels are linked after level 0, so a
 *    reader that finds a node on any level finds a complete node.
 *  - Version chains are ordered by sequence, newest first. A reader at `s`
 *    reads the first version with seq <= s. A version is kept while it is
 *    the chain head or what some pinned sequence (or the published one,
 *    which a new pin may take at any moment) reads; the writer unlinks the
 *    others when it writes the key. An unlinked version may still be under
 *    a reader that was walking past it, so it is retired, not freed: a
 *    version unlinked by batch n is freed once no pin older than n remains
 *    (pins taken later start their walk after the unlink).
 * Asserted (cheap, O(1) per call): loads come before any batch and in
 * strictly ascending key order (a load in parts: each part ascending, and
 * kvm_load_append joins a part only after every key of the ones before); batches are applied between one begin and
 * one end, on the thread that began them; a batch publishes exactly the
 * sequence after the last published one; a pushed version is no older
 * than the chain head it covers; pins are taken in ascending sequence.
 */
#include "kv/kvmirror.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

/* Expected nodes per level shrink by 4; 20 levels index ~10^12 keys. */
#define KVM_MAX_HEIGHT 20

typedef struct kvm_version {
    _Atomic(struct kvm_version *) older;
    uint64_t seq;
    uint32_t vlen;
    bool tombstone;
    uint8_t val[];
} kvm_version;

struct kvm_node {
    _Atomic(kvm_version *) head;
    const uint8_t *key; /* points just past next[] in the same allocation */
    uint32_t klen;
    uint8_t height;
    _Atomic(struct kvm_node *) next[];
};

typedef struct pin_count {
    uint64_t seq;
    uint64_t count;
} pin_count;

struct kv_mirror {
    kvm_node *head; /* sentinel with KVM_MAX_HEIGHT levels and no key */
    _Atomic int height;
    _Atomic uint64_t published;
    _Atomic bool broken;
    /* Writer-only state. */
    uint64_t rng;
    uint64_t apply_seq;
    bool applying;       /* between kvm_apply_begin and kvm_apply_end */
    pthread_t applier;   /* the thread applying (valid while applying) */
    kvm_node *load_tail[KVM_MAX_HEIGHT];
    /* Pins, ascending by seq (pins come in at the newest sequence, so they
     * append); guarded by pin_lock, which also orders new pins against the
     * writer's copy of them in kvm_apply_begin. */
    pthread_mutex_t pin_lock;
    pin_count *pins;
    size_t npins, pins_cap;
    /* Writer-only: the sequences readers may read at during this batch
     * (pins and the published one, ascending), and versions unlinked but
     * not yet freed, oldest batch first. */
    uint64_t *need;
    size_t nneed, need_cap;
    struct retired { kvm_version *v; uint64_t seq; } *retired;
    size_t retired_head, nretired, retired_cap;
    _Atomic uint64_t nodes, versions, bytes;
};

/* ------------------------------------------------------------ helpers */

static kvm_node *next_at(const kvm_node *n, int level)
{
    return atomic_load_explicit((_Atomic(kvm_node *) *)&n->next[level], memory_order_acquire);
}

static int random_height(kv_mirror *m)
{
    /* xorshift64; two bits per level gives p = 1/4. */
    uint64_t x = m->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    m->rng = x;
    int h = 1;
    while (h < KVM_MAX_HEIGHT && (x & 3) == 0) {
        h++;
        x >>= 2;
    }
    return h;
}

static void account(kv_mirror *m, int64_t nodes, int64_t versions, int64_t bytes)
{
    atomic_fetch_add_explicit(&m->nodes, (uint64_t)nodes, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->versions, (uint64_t)versions, memory_order_relaxed);
    atomic_fetch_add_explicit(&m->bytes, (uint64_t)bytes, memory_order_relaxed);
}

static kvm_version *version_new(kv_mirror *m, uint64_t seq, const uint8_t *val, size_t vlen,
                                bool tombstone)
{
    if (vlen > UINT32_MAX) return NULL;
    kvm_version *v = malloc(sizeof *v + vlen);
    if (!v) return NULL;
    atomic_init(&v->older, NULL);
    v->seq = seq;
    v->vlen = (uint32_t)vlen;
    v->tombstone = tombstone;
    if (vlen) memcpy(v->val, val, vlen);
    account(m, 0, 1, (int64_t)(sizeof *v + vlen));
    return v;
}

static void version_free(kv_mirror *m, kvm_version *v)
{
    account(m, 0, -1, -(int64_t)(sizeof *v + v->vlen));
    free(v);
}

static kvm_node *node_new(kv_mirror *m, int height, const uint8_t *key, size_t klen,
                          kvm_version *first)
{
    size_t size = sizeof(kvm_node) + (size_t)height * sizeof(_Atomic(kvm_node *)) + klen;
    kvm_node *n = malloc(size);
    if (!n) return NULL;
    uint8_t *kcopy = (uint8_t *)&n->next[height];
    if (klen) memcpy(kcopy, key, klen);
    n->key = kcopy;
    n->klen = (uint32_t)klen;
    n->height = (uint8_t)height;
    atomic_init(&n->head, first);
    for (int i = 0; i < height; i++) atomic_init(&n->next[i], NULL);
    account(m, 1, 0, (int64_t)size);
    return n;
}

/* ------------------------------------------------------------ lifetime */

kv_mirror *kvm_new(void)
{
    kv_mirror *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->head = node_new(m, KVM_MAX_HEIGHT, NULL, 0, NULL);
    if (!m->head) {
        free(m);
        return NULL;
    }
    atomic_init(&m->height, 1);
    m->rng = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < KVM_MAX_HEIGHT; i++) m->load_tail[i] = m->head;
    pthread_mutex_init(&m->pin_lock, NULL);
    return m;
}

void kvm_free(kv_mirror *m)
{
    if (!m) return;
    kvm_node *n = m->head;
    while (n) {
        kvm_node *next = atomic_load_explicit(&n->next[0], memory_order_relaxed);
        kvm_version *v = atomic_load_explicit(&n->head, memory_order_relaxed);
        while (v) {
            kvm_version *older = atomic_load_explicit(&v->older, memory_order_relaxed);
            free(v);
            v = older;
        }
        free(n);
        n = next;
    }
    for (size_t i = m->retired_head; i < m->nretired; i++) free(m->retired[i].v);
    pthread_mutex_destroy(&m->pin_lock);
    free(m->pins);
    free(m->need);
    free(m->retired);
    free(m);
}

/* ------------------------------------------------------------ writer */

/* Link a complete node: level 0 first (that publishes it), then upward. */
static void link_node(kv_mirror *m, kvm_node *n, kvm_node **preds)
{
    int h = n->height;
    if (h > atomic_load_explicit(&m->height, memory_order_relaxed))
        atomic_store_explicit(&m->height, h, memory_order_relaxed);
    for (int i = 0; i < h; i++) {
        kvm_node *succ = atomic_load_explicit(&preds[i]->next[i], memory_order_relaxed);
        atomic_store_explicit(&n->next[i], succ, memory_order_relaxed);
        atomic_store_explicit(&preds[i]->next[i], n, memory_order_release);
    }
}

int kvm_load(kv_mirror *m, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen)
{
    assert(!m->applying && atomic_load_explicit(&m->published, memory_order_relaxed) == 0);
    assert(m->load_tail[0] == m->head ||
           rl_bytes_cmp(m->load_tail[0]->key, m->load_tail[0]->klen, key, klen) < 0);
    kvm_version *v = version_new(m, 0, val, vlen, false);
    if (!v) return -1;
    kvm_node *n = node_new(m, random_height(m), key, klen, v);
    if (!n) {
        version_free(m, v);
        return -1;
    }
    link_node(m, n, m->load_tail);
    for (int i = 0; i < n->height; i++) m->load_tail[i] = n;
    return 0;
}

int kvm_load_append(kv_mirror *m, kv_mirror *tail)
{
    assert(m != tail);
    assert(!m->applying && atomic_load_explicit(&m->published, memory_order_relaxed) == 0);
    assert(!tail->applying && atomic_load_explicit(&tail->published, memory_order_relaxed) == 0);
    kvm_node *first = atomic_load_explicit(&tail->head->next[0], memory_order_relaxed);
    assert(!first || m->load_tail[0] == m->head ||
           rl_bytes_cmp(m->load_tail[0]->key, m->load_tail[0]->klen, first->key,
                        first->klen) < 0);
    /* Every level of `tail` continues where m's ends: m's last node on a
     * level points to tail's first on it, and tail's last becomes m's. */
    for (int i = 0; i < KVM_MAX_HEIGHT; i++) {
        kvm_node *n = atomic_load_explicit(&tail->head->next[i], memory_order_relaxed);
        if (!n) continue;
        atomic_store_explicit(&m->load_tail[i]->next[i], n, memory_order_release);
        m->load_tail[i] = tail->load_tail[i];
    }
    int h = atomic_load_explicit(&tail->height, memory_order_relaxed);
    if (h > atomic_load_explicit(&m->height, memory_order_relaxed))
        atomic_store_explicit(&m->height, h, memory_order_relaxed);
    /* tail's sentinel is all that remains its own */
    size_t sentinel = sizeof(kvm_node) + KVM_MAX_HEIGHT * sizeof(_Atomic(kvm_node *));
    account(m, (int64_t)atomic_load_explicit(&tail->nodes, memory_order_relaxed) - 1,
            (int64_t)atomic_load_explicit(&tail->versions, memory_order_relaxed),
            (int64_t)(atomic_load_explicit(&tail->bytes, memory_order_relaxed) - sentinel));
    for (int i = 0; i < KVM_MAX_HEIGHT; i++) atomic_store_explicit(&tail->head->next[i], NULL,
                                                                   memory_order_relaxed);
    kvm_free(tail);
    return 0;
}

void kvm_load_seed(kv_mirror *m, uint64_t seed)
{
    assert(atomic_load_explicit(&m->published, memory_order_relaxed) == 0);
    m->rng = seed ? seed : 0x9E3779B97F4A7C15ull; /* xorshift needs a nonzero state */
}

/* Free the retired versions no pin can be reading: those unlinked by a
 * batch at or below the oldest pin (all of them when nothing is pinned). */
static void free_retired(kv_mirror *m, bool any_pin, uint64_t oldest_pin)
{
    while (m->retired_head < m->nretired &&
           (!any_pin || m->retired[m->retired_head].seq <= oldest_pin)) {
        version_free(m, m->retired[m->retired_head].v);
        m->retired_head++;
    }
    /* Move the rest to the front once half the array is freed slots: with
     * readers always pinned somewhere the array never drains, and would
     * otherwise only grow. */
    if (m->retired_head && m->retired_head * 2 >= m->nretired) {
        m->nretired -= m->retired_head;
        memmove(m->retired, m->retired + m->retired_head, m->nretired * sizeof *m->retired);
        m->retired_head = 0;
    }
}

void kvm_apply_begin(kv_mirror *m)
{
    assert(!m->applying && !atomic_load_explicit(&m->broken, memory_order_relaxed));
    uint64_t published = atomic_load_explicit(&m->published, memory_order_relaxed);
    m->apply_seq = published + 1;
    m->applying = true;
    m->applier = pthread_self();
    pthread_mutex_lock(&m->pin_lock);
    bool any_pin = m->npins > 0;
    uint64_t oldest_pin = any_pin ? m->pins[0].seq : 0;
    /* need = distinct pinned sequences + published, ascending. Without room
     * for them, keep every version this batch (need stays "unknown"). */
    uint64_t *grown = rl_array_reserve(m->need, m->npins, &m->need_cap, sizeof *m->need, 16);
    if (grown) m->need = grown;
    m->nneed = SIZE_MAX;
    if (grown && m->need_cap > m->npins) {
        m->nneed = 0;
        for (size_t i = 0; i < m->npins; i++) m->need[m->nneed++] = m->pins[i].seq;
        if (!m->nneed || m->need[m->nneed - 1] < published) m->need[m->nneed++] = published;
    }
    pthread_mutex_unlock(&m->pin_lock);
    free_retired(m, any_pin, oldest_pin);
}

/* Does some reader read version `seq` whose next newer version in the
 * chain has `newer_seq`? That is, a needed sequence p with
 * seq <= p < newer_seq. */
static bool version_needed(const kv_mirror *m, uint64_t seq, uint64_t newer_seq)
{
    if (m->nneed == SIZE_MAX) return true;
    size_t lo = 0, hi = m->nneed;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->need[mid] < seq) lo = mid + 1;
        else hi = mid;
    }
    return lo < m->nneed && m->need[lo] < newer_seq;
}

/* Unlink the versions of n below its head that no reader reads, retiring
 * them. Without room to retire one, it stays linked (merely kept longer). */
static void prune(kv_mirror *m, kvm_node *n)
{
    kvm_version *newer = atomic_load_explicit(&n->head, memory_order_relaxed);
    _Atomic(kvm_version *) *link = &newer->older;
    kvm_version *v = atomic_load_explicit(link, memory_order_relaxed);
    while (v) {
        kvm_version *older = atomic_load_explicit(&v->older, memory_order_relaxed);
        bool keep = version_needed(m, v->seq, newer->seq);
        if (!keep) {
            struct retired *r = rl_array_reserve(m->retired, m->nretired, &m->retired_cap,
                                                 sizeof *m->retired, 64);
            if (r) {
                m->retired = r;
                m->retired[m->nretired++] = (struct retired){v, m->apply_seq};
                atomic_store_explicit(link, older, memory_order_release);
            } else {
                keep = true;
            }
        }
        if (keep) {
            newer = v;
            link = &v->older;
        }
        v = older;
    }
}

/* Find key's predecessors on every level; returns the node with that key
 * or NULL. */
static kvm_node *find_for_write(kv_mirror *m, const uint8_t *key, size_t klen, kvm_node **preds)
{
    kvm_node *x = m->head;
    for (int i = KVM_MAX_HEIGHT - 1; i >= 0; i--) {
        for (;;) {
            kvm_node *nx = atomic_load_explicit(&x->next[i], memory_order_relaxed);
            if (!nx || rl_bytes_cmp(nx->key, nx->klen, key, klen) >= 0) break;
            x = nx;
        }
        preds[i] = x;
    }
    kvm_node *at = atomic_load_explicit(&x->next[0], memory_order_relaxed);
    return at && rl_bytes_cmp(at->key, at->klen, key, klen) == 0 ? at : NULL;
}

static int apply(kv_mirror *m, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen,
                 bool tombstone)
{
    assert(m->applying && pthread_equal(m->applier, pthread_self()));
    kvm_node *preds[KVM_MAX_HEIGHT];
    kvm_node *n = find_for_write(m, key, klen, preds);
    if (!n && tombstone) return 0; /* deleting an absent key changes nothing */
    kvm_version *v = version_new(m, m->apply_seq, val, vlen, tombstone);
    if (!v) goto oom;
    if (n) {
        kvm_version *head = atomic_load_explicit(&n->head, memory_order_relaxed);
        assert(!head || head->seq <= v->seq); /* chains stay newest first */
        atomic_store_explicit(&v->older, head, memory_order_relaxed);
        atomic_store_explicit(&n->head, v, memory_order_release);
        prune(m, n);
        return 0;
    }
    n = node_new(m, random_height(m), key, klen, v);
    if (!n) {
        version_free(m, v);
        goto oom;
    }
    link_node(m, n, preds);
    return 0;
oom:
    atomic_store(&m->broken, true);
    return -1;
}

int kvm_apply_put(kv_mirror *m, const uint8_t *key, size_t klen, const uint8_t *val,
                  size_t vlen)
{
    return apply(m, key, klen, val, vlen, false);
}

int kvm_apply_delete(kv_mirror *m, const uint8_t *key, size_t klen)
{
    return apply(m, key, klen, NULL, 0, true);
}

void kvm_apply_end(kv_mirror *m)
{
    assert(m->applying && pthread_equal(m->applier, pthread_self()));
    assert(m->apply_seq == atomic_load_explicit(&m->published, memory_order_relaxed) + 1);
    m->applying = false;
    atomic_store_explicit(&m->published, m->apply_seq, memory_order_release);
}

bool kvm_broken(const kv_mirror *m)
{
    return atomic_load((_Atomic bool *)&m->broken);
}

void kvm_abandon(kv_mirror *m)
{
    atomic_store(&m->broken, true);
}

/* ------------------------------------------------------------ pins */

int kvm_pin(kv_mirror *m, uint64_t *seq)
{
    int rc = 0;
    pthread_mutex_lock(&m->pin_lock);
    uint64_t s = atomic_load_explicit(&m->published, memory_order_acquire);
    assert(!m->npins || m->pins[m->npins - 1].seq <= s); /* published only grows */
    if (m->npins && m->pins[m->npins - 1].seq == s)
        m->pins[m->npins - 1].count++;
    else {
        pin_count *grown = rl_array_reserve(m->pins, m->npins, &m->pins_cap, sizeof *m->pins, 16);
        if (grown) {
            m->pins = grown;
            m->pins[m->npins++] = (pin_count){s, 1};
        } else {
            rc = -1;
        }
    }
    pthread_mutex_unlock(&m->pin_lock);
    *seq = s;
    return rc;
}

/* Index of the first pin with seq >= `seq` (pin_lock held). */
static size_t pin_lower_bound(const kv_mirror *m, uint64_t seq)
{
    assert(pthread_mutex_trylock((pthread_mutex_t *)&m->pin_lock) == EBUSY); /* pin_lock held */
    size_t lo = 0, hi = m->npins;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->pins[mid].seq < seq) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

int kvm_pin_again(kv_mirror *m, uint64_t seq)
{
    pthread_mutex_lock(&m->pin_lock);
    size_t i = pin_lower_bound(m, seq);
    bool held = i < m->npins && m->pins[i].seq == seq;
    if (held)
        m->pins[i].count++;
    pthread_mutex_unlock(&m->pin_lock);
    return held ? 0 : -1;
}

void kvm_unpin(kv_mirror *m, uint64_t seq)
{
    pthread_mutex_lock(&m->pin_lock);
    size_t lo = pin_lower_bound(m, seq);
    if (lo < m->npins && m->pins[lo].seq == seq && --m->pins[lo].count == 0) {
        memmove(&m->pins[lo], &m->pins[lo + 1], (m->npins - lo - 1) * sizeof *m->pins);
        m->npins--;
    }
    pthread_mutex_unlock(&m->pin_lock);
}

/* ------------------------------------------------------------ readers */

const kvm_node *kvm_seek(const kv_mirror *m, const uint8_t *key, size_t klen)
{
    const kvm_node *x = m->head;
    int top = atomic_load_explicit((_Atomic int *)&m->height, memory_order_relaxed);
    for (int i = top - 1; i >= 0; i--) {
        for (;;) {
            kvm_node *nx = next_at(x, i);
            if (!nx || rl_bytes_cmp(nx->key, nx->klen, key, klen) >= 0) break;
            x = nx;
        }
    }
    return next_at(x, 0);
}

const kvm_node *kvm_node_next(const kvm_node *n)
{
    return next_at(n, 0);
}

void kvm_node_key(const kvm_node *n, const uint8_t **key, size_t *klen)
{
    *key = n->key;
    *klen = n->klen;
}

int kvm_node_value(const kvm_node *n, uint64_t seq, const uint8_t **val, size_t *vlen)
{
    const kvm_version *v = atomic_load_explicit((_Atomic(kvm_version *) *)&n->head,
                                                memory_order_acquire);
    while (v && v->seq > seq)
        v = atomic_load_explicit((_Atomic(kvm_version *) *)&v->older, memory_order_acquire);
    if (!v || v->tombstone) return 0;
    *val = v->val;
    *vlen = v->vlen;
    return 1;
}

void kvm_prefetch_ahead(const kvm_node *n)
{
    if (!n) return;
    /* n itself was prefetched one row ago, so reading its links is cheap */
    __builtin_prefetch(atomic_load_explicit((_Atomic(kvm_version *) *)&n->head,
                                            memory_order_relaxed));
    const kvm_node *after = atomic_load_explicit((_Atomic(kvm_node *) *)&n->next[0],
                                                 memory_order_relaxed);
    if (after) __builtin_prefetch(after);
}

int kvm_get(const kv_mirror *m, uint64_t seq, const uint8_t *key, size_t klen,
            const uint8_t **val, size_t *vlen)
{
    const kvm_node *n = kvm_seek(m, key, klen);
    if (!n || rl_bytes_cmp(n->key, n->klen, key, klen) != 0) return 0;
    return kvm_node_value(n, seq, val, vlen);
}

void kvm_stats_get(const kv_mirror *m, kvm_stats *out)
{
    out->nodes = atomic_load_explicit((_Atomic uint64_t *)&m->nodes, memory_order_relaxed) - 1;
    out->versions = atomic_load_explicit((_Atomic uint64_t *)&m->versions, memory_order_relaxed);
    out->bytes = atomic_load_explicit((_Atomic uint64_t *)&m->bytes, memory_order_relaxed);
    out->seq = atomic_load_explicit((_Atomic uint64_t *)&m->published, memory_order_acquire);
    out->retired_slots = m->nretired; /* exact on the writer's thread only */
}
